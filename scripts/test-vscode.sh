#!/usr/bin/env bash
# The tests that need a real VS Code: integration tests inside the extension host, then end-to-end tests
# driven through Chromium. The VSIXes are packaged once and shared, so no two tests write dist/ at the same time:
# the product's (what ships: no test hooks) and the test build's (the same plus the hooks the suites drive the UI
# with; see esbuild.js). The suites install the test build; checks of what ships use the product's.
# One file at a time: a session (code-server, Chromium, servers) keeps both cores busy, so a second one beside it
# made the phase no shorter (686 s against 669 s) and every wait in it slower. Each test still owns what it touches
# (its code-server binds a port the kernel picks), so two runs side by side on one machine cannot meet.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)
took() { echo "=== test-vscode: $1 took $(( $(date +%s) - began ))s ===" >&2; began=$(date +%s); }
bash scripts/prepare-code-server.sh >/dev/null
took "prepare code-server"
name="$(node -p "const p = require('./package.json'); p.name + '-' + p.version").vsix"
# The test build first, then the product's: dist/ ends with the product build (as `npm run package:test` leaves
# it) without a third build to restore it.
node esbuild.js --production --test-hooks
mkdir -p dist/test-build
npx vsce package --no-dependencies --out dist/test-build/
took "package:test"
npm run package
took "package"
product="$PWD/dist/$name" testBuild="$PWD/dist/test-build/$name"
export MCP_PRODUCT_VSIX="$product" MCP_INTEGRATION_VSIX="$testBuild" MCP_E2E_VSIX="$testBuild"
exec node --import tsx --test --test-concurrency=1 test/integration/integration.test.ts test/e2e/*.e2e.ts
