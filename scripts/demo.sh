#!/usr/bin/env bash
# The main job on a fresh machine: install everything, build the VSIX, and start VS Code (code-server 4.100.3,
# VS Code 1.100.3 in the browser) with the extension installed and an example workspace whose .vscode/mcp.json
# runs @modelcontextprotocol/server-everything over stdio and server-filesystem on the workspace.
#   PORT=8080 bash scripts/demo.sh        then open http://127.0.0.1:8080 in a browser (Ctrl+C stops everything)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PORT="${PORT:-8080}"
DEMO="${MCP_DEMO_DIR:-${HOME:-/root}/.cache/mcp-workbench-demo}"
# shellcheck source=lib/progress.sh
. scripts/lib/progress.sh

if [ ! -d node_modules ]; then
  progress_step "demo 1/4" "Installing the project's npm packages (npm ci)…"
  with_heartbeat npm ci --no-audit --no-fund
fi
if [ -f "${MCP_E2E_CACHE:-${HOME:-/root}/.cache/mcp-workbench-e2e}/code-server-4.100.3/.prepared" ]; then
  progress_step "demo 2/4" "code-server 4.100.3 is already prepared (cached)."
else
  progress_step "demo 2/4" "Preparing code-server 4.100.3 (VS Code 1.100.3). The first time this takes a few minutes (about 3 on 2 cores); later runs reuse the cache."
fi
PKG=$(with_heartbeat bash scripts/prepare-code-server.sh | tail -n1)
progress_step "demo 3/4" "Building and packaging the extension…"
with_heartbeat npm run package

VSIX=$(ls -t dist/*.vsix | head -n1)
progress_step "demo 4/4" "Installing $VSIX into the demo's code-server…"
mkdir -p "$DEMO/user-data" "$DEMO/extensions" "$DEMO/workspace/.vscode"
node "$PKG/out/node/entry.js" --user-data-dir "$DEMO/user-data" --extensions-dir "$DEMO/extensions" --install-extension "$ROOT/$VSIX" --force >/dev/null

if [ ! -f "$DEMO/workspace/.vscode/mcp.json" ]; then
  cat > "$DEMO/workspace/.vscode/mcp.json" <<JSON
{
  // Servers of the demo workspace. Edit freely: the MCP view picks changes up live.
  "servers": {
    "everything": {
      "command": "node",
      "args": ["$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"]
    },
    "filesystem": {
      "command": "node",
      "args": ["$ROOT/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", "\${workspaceFolder}"]
    }
  }
}
JSON
  echo "Hello from the MCP Workbench demo workspace." > "$DEMO/workspace/hello.txt"
fi

echo
echo "VS Code with MCP Workbench: http://127.0.0.1:$PORT/?folder=$DEMO/workspace"
echo "Open the MCP Workbench view in the activity bar, or press F1 and type 'MCP Workbench:'. Ctrl+C stops."
exec node "$PKG/out/node/entry.js" --auth none --bind-addr "127.0.0.1:$PORT" \
  --user-data-dir "$DEMO/user-data" --extensions-dir "$DEMO/extensions" \
  --disable-telemetry --disable-update-check "$DEMO/workspace"
