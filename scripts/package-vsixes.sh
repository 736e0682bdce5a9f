#!/usr/bin/env bash
# Packages the two VSIXes the VS Code suites install, once, and prints their paths (product first):
#   dist/mcp-workbench-<version>.vsix             the product (what ships: no test hooks)
#   dist/test-build/mcp-workbench-<version>.vsix  the test build (the same plus the hooks the suites drive the UI with)
# The test build is packaged first, so the product build is what dist/ holds after it (as `npm run package:test` leaves
# it) without a third build; --dev-build then rebuilds dist/ as `npm run build` does (what the unit tests run).
set -euo pipefail
cd "$(dirname "$0")/.."
name="$(node -p "const p = require('./package.json'); p.name + '-' + p.version").vsix"
node esbuild.js --production --test-hooks
mkdir -p dist/test-build
npx vsce package --no-dependencies --out dist/test-build/ >&2
npm run package >&2
if [[ "${1:-}" == "--dev-build" ]]; then npm run build >&2; fi
echo "$PWD/dist/$name"
echo "$PWD/dist/test-build/$name"
