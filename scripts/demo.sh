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

[ -d node_modules ] || npm ci --no-audit --no-fund
PKG=$(bash scripts/prepare-code-server.sh | tail -n1)
npm run package

VSIX=$(ls -t dist/*.vsix | head -n1)
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
echo "Open the MCP view in the activity bar, or press F1 and type 'MCP:'. Ctrl+C stops."
exec node "$PKG/out/node/entry.js" --auth none --bind-addr "127.0.0.1:$PORT" \
  --user-data-dir "$DEMO/user-data" --extensions-dir "$DEMO/extensions" \
  --disable-telemetry --disable-update-check "$DEMO/workspace"
