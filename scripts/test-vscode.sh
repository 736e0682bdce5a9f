#!/usr/bin/env bash
# The tests that need a real VS Code: integration tests inside the extension host, then end-to-end tests
# driven through Chromium. The VSIX is packaged once and shared, so no two tests write dist/ at the same time.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/prepare-code-server.sh >/dev/null
npm run package
vsix="$PWD/dist/$(node -p "const p = require('./package.json'); p.name + '-' + p.version").vsix"
export MCP_INTEGRATION_VSIX="$vsix" MCP_E2E_VSIX="$vsix"
exec node --import tsx --test --test-concurrency=1 test/integration/integration.test.ts test/e2e/*.e2e.ts
