#!/usr/bin/env bash
# `npm test`: every test, what CI runs after `npm ci` (.ci/run). Phase by phase, timed:
#   build; typecheck, lint and the formatter check side by side; the two VSIXes packaged;
#   then the VS Code suites (integration + end to end) in the newest VS Code and then in the minimum one, with the unit,
#   component and conformance suites beside them.
# Why beside: the VS Code suites spend most of their time waiting on a browser, a server or a person's step (about one
# of the machine's two cores busy on average), and so do the unit and component tests (one file at a time: see below): one
# after the other they left a core idle for ten minutes. Every test owns what it touches (ports the kernel picks,
# processes found by their own temp folder, nothing written into dist/ after the VSIXes are packaged), so the two
# runs cannot meet. The unit, component and conformance output is kept in test-results/ and printed whole when they end, so it
# never interleaves with the VS Code suites' lines.
# How busy the two cores were in each phase is sampled and printed with the phases' times (scripts/lib/cpu-usage.sh).
# The last line sums the test runners' own counts: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
# shellcheck source=lib/cpu-usage.sh
source scripts/lib/cpu-usage.sh
cpu_log=test-results/cpu.log
cpu_sampler_start "$cpu_log"
# Ctrl+C (or CI's end) ends the runs beside the VS Code suites too: all of this script's process group.
trap 'trap - INT TERM; kill 0' INT TERM
trap 'cpu_sampler_stop' EXIT
start=$(date +%s)
timings=()
failed_phases=()
phase() {
  local name=$1 began rc=0
  shift
  began=$(date +%s)
  echo
  echo "=== $name ($(( began - start ))s) ==="
  cpu_mark "$cpu_log" "$name:start"
  "$@" || rc=$?
  cpu_mark "$cpu_log" "$name:end"
  timings+=("$(printf '%-30s %5ss%s' "$name" "$(( $(date +%s) - began ))" "$([[ $rc -eq 0 ]] || echo "  FAILED (exit $rc)")")")
  [[ $rc -eq 0 ]] || failed_phases+=("$name")
  return "$rc"
}
summary() {
  echo
  echo "=== phases ==="
  printf '%s\n' "${timings[@]}"
  echo "total                          $(( $(date +%s) - start ))s"
  echo
  echo "=== CPU: how busy the 2 cores were (samples of /proc/stat in $cpu_log) ==="
  cpu_report "$cpu_log"
}
# Runs each quoted command in the background and fails when any of them failed (after all have ended).
side_by_side() {
  local pids=() failed=0 pid
  for command in "$@"; do
    bash -c "$command" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}
# The counts node's test runner prints at its end ("# pass N", "# fail N"), summed over the logs given.
count() {
  awk -v key="$1" '$1 == "#" && $2 == key && $3 ~ /^[0-9]+$/ { n += $3 } END { print n + 0 }' "${@:2}"
}

phase build npm run build || { summary; exit 1; }
phase "typecheck+lint+format" side_by_side "npm run typecheck" "npm run lint" "npm run format:check" || { summary; exit 1; }
phase "package the VSIXes" bash -c 'bash scripts/package-vsixes.sh --dev-build > test-results/vsixes.txt' || { summary; exit 1; }
export MCP_PRODUCT_VSIX="$(sed -n 1p test-results/vsixes.txt)"
export MCP_E2E_VSIX="$(sed -n 2p test-results/vsixes.txt)"
export MCP_INTEGRATION_VSIX="$MCP_E2E_VSIX"

rm -f test-results/{unit,component,conformance,vscode,vscode-newest,vscode-minimum}.{log,rc,took}
# One after the other, beside the VS Code suites; each writes its exit code and its time. The unit tests (in-process,
# test/unit/) and the component tests (they start processes, test/component/) run one file at a time here
# (MCP_UNIT_CONCURRENCY=1, read by scripts/test-node.sh for both). Measured when they were one run (the CPU table
# below, a clean run): with two files at a time they
# kept both cores busy in 60% of their samples for 208 s, starving the VS Code suites' timers and browser, and then
# left a core idle for the suites' last 260 s; one at a time they spread over the suites' time and still end before
# them, so the run is no longer.
export MCP_UNIT_CONCURRENCY=1
beside() {
  local suite=$1 began rc=0
  began=$(date +%s)
  cpu_mark "$cpu_log" "$suite (beside):start"
  npm run "test:$suite" > "test-results/$suite.log" 2>&1 || rc=$?
  cpu_mark "$cpu_log" "$suite (beside):end"
  echo "$rc" > "test-results/$suite.rc"
  echo "$(( $(date +%s) - began ))" > "test-results/$suite.took"
}
( beside unit; beside component; beside conformance ) &
beside_pid=$!
echo
echo "=== unit, component, then conformance: beside the VS Code suites, into test-results/unit.log, component.log and conformance.log ==="
# The VS Code suites (integration and every e2e file) run twice, one VS Code after the other, never retried: first in the
# newest code-server on the npm registry (4.139.1 = VS Code 1.139, what people run), then in the minimum VS Code the
# manifest claims (4.100.3 = VS Code 1.100). The second run has the machine to itself once the unit, component and
# conformance runs beside the first have ended; measured together they keep CI well within its 30 minutes.
# MCP_E2E_VSCODES=newest (or minimum) runs only that one locally.
for vscode in ${MCP_E2E_VSCODES:-newest minimum}; do
  phase "VS Code suites ($vscode)" env MCP_E2E_VSCODE="$vscode" \
    bash -c 'set -o pipefail; npm run test:vscode 2>&1 | tee "test-results/vscode-$MCP_E2E_VSCODE.log"'
done
wait "$beside_pid"
for suite in unit component conformance; do
  rc="$(cat "test-results/$suite.rc" 2>/dev/null || echo "missing")"
  echo
  echo "=== $suite (beside the VS Code suites): exit $rc ==="
  cat "test-results/$suite.log" 2>/dev/null
  timings+=("$(printf '%-30s %5ss%s' "$suite (beside)" "$(cat "test-results/$suite.took" 2>/dev/null || echo '?')" "$([[ $rc == 0 ]] || echo "  FAILED (exit $rc)")")")
  [[ $rc == 0 ]] || failed_phases+=("$suite")
done
# Every test ends what it started (servers, code-server, Chromium, CLI clients). Whatever of ours is still running
# now was left behind by some test: it is listed and the run fails. A process that is ending when its test ended gets
# 10 s to go; nothing is waited for when nothing is left.
our_leftovers() {
  local elapsed=$(( $(date +%s) - start + 1 ))
  ps -eo pid=,etimes=,args= | awk -v limit="$elapsed" -v repo="$PWD" -v self="$$" '
    $1 != self && $2 <= limit && $3 !~ /^\[/ && $0 !~ /ps -eo|awk -v limit/ &&
      (index($0, repo) || $0 ~ /chromium|code-server|\/mcp-[a-z]|modelcontextprotocol|mcp-workbench-conformance/)'
}
cpu_sampler_stop
leftovers="$(our_leftovers)"
for ((waited = 0; waited < 50 && ${#leftovers} > 0; waited++)); do
  sleep 0.2
  leftovers="$(our_leftovers)"
done
if [[ -n $leftovers ]]; then
  echo
  echo "=== processes left running by the tests (pid, seconds alive, command) ==="
  echo "$leftovers" | cut -c1-300
  timings+=("$(printf '%-30s %6s%s' "processes left behind" "" "  FAILED ($(wc -l <<<"$leftovers") running)")")
  failed_phases+=("processes left behind")
fi
logs=(test-results/{unit,component,conformance}.log test-results/vscode-*.log)
# CI's printout may keep only the tail of the output: the failing tests are named again here, with their errors.
if [[ ${#failed_phases[@]} -gt 0 ]]; then
  echo
  echo "=== failing tests (name and error; each log has the whole) ==="
  for log in "${logs[@]}"; do
    [[ -f $log ]] && awk -v file="$(basename "$log")" -f scripts/lib/failing-tests.awk "$log"
  done
fi
summary
[[ ${#failed_phases[@]} -eq 0 ]] || echo "failed: ${failed_phases[*]}"
echo "tests: $(count pass "${logs[@]}") passed, $(count fail "${logs[@]}") failed"
[[ ${#failed_phases[@]} -eq 0 ]]
