#!/usr/bin/env bash
# The official MCP conformance suite against the CLI, one run per spec revision (test/conformance/conformance.test.ts).
#
#   scripts/test-conformance.sh                                   every revision the test's SPEC_RUNS table defines
#   scripts/test-conformance.sh --spec-version 2025-11-25 [...]   only these (repeatable)
set -euo pipefail
cd "$(dirname "$0")/.."
versions=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --spec-version) [[ $# -ge 2 ]] || { echo "test-conformance.sh: --spec-version needs a value" >&2; exit 2; }; versions+=("$2"); shift 2 ;;
    --spec-version=*) versions+=("${1#*=}"); shift ;;
    *) echo "test-conformance.sh: unknown argument $1 (usage: [--spec-version <revision>]...)" >&2; exit 2 ;;
  esac
done
MCP_CONFORMANCE_SPEC_VERSIONS="$(IFS=,; echo "${versions[*]:-}")"
export MCP_CONFORMANCE_SPEC_VERSIONS
exec node --import tsx --test test/conformance/conformance.test.ts
