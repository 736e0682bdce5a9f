#!/usr/bin/env bash
# The tests that need a real VS Code: integration tests inside the extension host, then end-to-end tests
# driven through Chromium. They install VSIXes packaged once (scripts/package-vsixes.sh), so no two tests write dist/
# at the same time: the product's (what ships: no test hooks) and the test build's (the same plus the hooks the suites
# drive the UI with; see esbuild.js). The suites install the test build; checks of what ships use the product's.
# MCP_PRODUCT_VSIX and MCP_E2E_VSIX, when both name existing files, are used as they are (scripts/test-all.sh
# packages them before the unit tests start beside this phase).
# One file at a time: a session (code-server, Chromium, servers) keeps a core and more busy in its bursts. Each test
# still owns what it touches (its code-server binds a port the kernel picks, its processes are found by its own temp
# folder), so the unit tests running beside this phase, or a second run on the machine, cannot meet it.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)
took() { echo "=== test-vscode: $1 took $(( $(date +%s) - began ))s ===" >&2; began=$(date +%s); }
# MCP_E2E_VSCODE (minimum, the default, or newest) says which VS Code the suites run in (test/e2e/harness.ts).
case "${MCP_E2E_VSCODE:-minimum}" in
  minimum) code_server=4.100.3 ;;
  newest) code_server=4.139.1 ;;
  *) echo "test-vscode: MCP_E2E_VSCODE must be minimum or newest, not '$MCP_E2E_VSCODE'" >&2; exit 2 ;;
esac
bash scripts/prepare-code-server.sh "$code_server" >/dev/null
took "prepare code-server $code_server"
if [[ -n "${MCP_PRODUCT_VSIX:-}" && -f "${MCP_PRODUCT_VSIX}" && -n "${MCP_E2E_VSIX:-}" && -f "${MCP_E2E_VSIX}" ]]; then
  product="$MCP_PRODUCT_VSIX" testBuild="$MCP_E2E_VSIX"
else
  vsixes="$(bash scripts/package-vsixes.sh)"
  product="$(sed -n 1p <<<"$vsixes")" testBuild="$(sed -n 2p <<<"$vsixes")"
  took "package"
fi
export MCP_PRODUCT_VSIX="$product" MCP_INTEGRATION_VSIX="$testBuild" MCP_E2E_VSIX="$testBuild"
exec node --import tsx --test --test-concurrency=1 test/integration/integration.test.ts test/e2e/*.e2e.ts
