# Progress for long steps of the shell scripts (sourced, not run).
#   progress_step "1/4" "Preparing code-server"     prints a numbered step line to stderr
#   with_heartbeat CMD ARGS...                        runs CMD; while it runs, prints "still working (Ns)" to stderr
#                                                     every ${PROGRESS_HEARTBEAT_SECONDS:-15} s; returns CMD's status.
# Everything goes to stderr, so a caller can still capture CMD's stdout: PKG=$(with_heartbeat prepare | tail -n1).

progress_step() {
  printf '\n[%s] %s\n' "$1" "$2" >&2
}

with_heartbeat() {
  local interval="${PROGRESS_HEARTBEAT_SECONDS:-15}"
  local started
  started=$(date +%s)
  # The heartbeat must not hold the caller's stdout open (command substitution would wait for it).
  (
    while sleep "$interval"; do
      printf '  … still working (%ss)\n' "$(( $(date +%s) - started ))" >&2
    done
  ) >/dev/null &
  local heartbeat=$!
  local status=0
  "$@" || status=$?
  kill "$heartbeat" 2>/dev/null || true
  wait "$heartbeat" 2>/dev/null || true
  return "$status"
}
