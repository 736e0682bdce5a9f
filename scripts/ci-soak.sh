#!/usr/bin/env bash
# Runs CI as CI does, N times one after the other: each run is a fresh `git clone` of HEAD (committed work only)
# into its own folder, then `CI=true bash .ci/run` there with no standard input. Prints a table: each run's result,
# its time, its count line and its failing tests, and ends non-zero when any run failed.
#
#   scripts/ci-soak.sh N [--keep]      N runs of HEAD; --keep leaves each clone (default: a passing run's clone is
#                                      removed, a failing run's is kept with its test-results/ for reading)
#
# Every run's whole output is kept in $SOAK_DIR/run-<i>.log (default /tmp/mcp-workbench-soak-<commit>/).
# A flaky test shows here as a red row among green ones: before an issue is resolved, run this and list the table.
set -uo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/ci-soak.sh N [--keep]" >&2; exit 2; }
[[ $# -ge 1 && $1 =~ ^[1-9][0-9]*$ ]] || usage
runs=$1
keep=false
[[ ${2:-} == "--keep" ]] && keep=true
[[ $# -le 2 ]] || usage
[[ $# -lt 2 || $keep == true ]] || usage

commit=$(git rev-parse HEAD)
short=${commit:0:7}
[[ -z "$(git status --porcelain --untracked-files=no)" ]] || echo "ci-soak: the work tree has uncommitted changes; the runs use the commit $short only" >&2
soak_dir=${SOAK_DIR:-/tmp/mcp-workbench-soak-$short}
mkdir -p "$soak_dir"
repo=$(pwd)
table="$soak_dir/table.txt"
printf '%-4s %-7s %-6s %7s  %-34s %s\n' run commit result time count failing > "$table"

# The name of each failing test, from node's test runner ("not ok N - name") and the phase summary.
failing_tests() {
  local log=$1
  {
    grep -E '^\s*not ok [0-9]+ - ' "$log" | sed -E 's/^\s*not ok [0-9]+ - //' | grep -vE '^(test/|/)' || true
    sed -n 's/^failed: //p' "$log" | sed 's/^/phases: /'
  } | awk 'NF && !seen[$0]++' | head -8 | paste -sd ';' -
}

failed_runs=0
for ((i = 1; i <= runs; i++)); do
  clone="$soak_dir/clone-$i"
  log="$soak_dir/run-$i.log"
  rm -rf "$clone"
  git clone -q "$repo" "$clone" && git -C "$clone" checkout -q "$commit"
  began=$(date +%s)
  echo "=== ci-soak: run $i of $runs on $short in $clone (log: $log) ===" >&2
  rc=0
  (cd "$clone" && CI=true bash .ci/run </dev/null >"$log" 2>&1) || rc=$?
  took=$(( $(date +%s) - began ))
  count=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1 | sed 's/^tests: //')
  result=$([[ $rc -eq 0 ]] && echo pass || echo "FAIL")
  failing=$([[ $rc -eq 0 ]] || failing_tests "$log")
  printf '%-4s %-7s %-6s %6ss  %-34s %s\n' "$i" "$short" "$result" "$took" "${count:-(no count line)}" "${failing:-}" | tee -a "$table" >&2
  if [[ $rc -ne 0 ]]; then
    failed_runs=$((failed_runs + 1))
  elif [[ $keep == false ]]; then
    rm -rf "$clone"
  fi
done
echo
cat "$table"
echo "ci-soak: $((runs - failed_runs)) of $runs runs passed on $short (logs in $soak_dir)"
[[ $failed_runs -eq 0 ]]
