#!/usr/bin/env bash
# `npm run test:unit` and `npm run test:component`: every *.test.ts under test/unit/ or test/component/, at any depth
# (the folders mirror src/), through node's test runner. Node 20's --test takes files, not `**` globs, hence the find.
#   unit:      in-process tests: no child process; a server on loopback only when it runs in the test's own process.
#   component: tests that start a process (a real or fixture MCP server, dist/cli.js, esbuild, bash).
# MCP_UNIT_CONCURRENCY: test files at a time for both (default 2; scripts/test-all.sh sets 1). Arguments after the
# kind go to node before the files: `npm run test:unit -- --test-name-pattern "<words>"`.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
[[ $kind == unit || $kind == component ]] || { echo "usage: $0 unit|component [node --test options]" >&2; exit 2; }
shift
mapfile -t files < <(find "test/$kind" -type f -name '*.test.ts' | LC_ALL=C sort)
(( ${#files[@]} > 0 )) || { echo "no test files under test/$kind" >&2; exit 1; }
exec node --import tsx --test --test-concurrency="${MCP_UNIT_CONCURRENCY:-2}" "$@" "${files[@]}"
