#!/usr/bin/env bash
# Installs the official MCP conformance suite OUTSIDE the repository and pre-fetches Node 24 (the suite needs
# Node >= 22; this machine's node may be 20). Idempotent and fast when warm; fails loudly.
#
#   scripts/conformance.sh                 install (if needed) and print the suite's entry point
#   scripts/conformance.sh <suite args>    install (if needed), then run the suite under Node 24, e.g.
#   scripts/conformance.sh client --command "node $PWD/dist/cli.js conformance" --scenario initialize
set -euo pipefail

VERSION="0.2.0-alpha.12"
NODE_SPEC="node@24"
CACHE_ROOT="${MCP_CONFORMANCE_CACHE:-$HOME/.cache/mcp-workbench-conformance}"
DIR="$CACHE_ROOT/$VERSION"
MARKER="$DIR/.installed-ok"
ENTRY="$DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js"
NODE24_MARKER="$CACHE_ROOT/.node24-ok"

die() { echo "conformance.sh: $*" >&2; exit 1; }

if [[ ! -f "$MARKER" || ! -f "$ENTRY" ]]; then
  echo "conformance.sh: installing @modelcontextprotocol/conformance@$VERSION into $DIR" >&2
  rm -f "$MARKER"
  mkdir -p "$DIR"
  # A package.json of its own keeps npm from walking up into some other project.
  [[ -f "$DIR/package.json" ]] || printf '{"name":"mcp-workbench-conformance-cache","private":true}\n' > "$DIR/package.json"
  npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$VERSION" >&2 \
    || die "npm install of @modelcontextprotocol/conformance@$VERSION failed (see above)"
  [[ -f "$ENTRY" ]] || die "install finished but $ENTRY is missing"
  date -u +%FT%TZ > "$MARKER"
fi

# Pre-fetch Node 24 into the npx cache so the runs do not stall on a download, and remember its binary so
# later runs skip npx (which may consult the registry each time).
node24=""
if [[ -f "$NODE24_MARKER" ]]; then
  node24="$(cat "$NODE24_MARKER")"
  [[ -x "$node24" ]] || node24=""
fi
if [[ -z "$node24" ]]; then
  echo "conformance.sh: fetching $NODE_SPEC into the npx cache" >&2
  node24="$(npx -y -p "$NODE_SPEC" node -p process.execPath)" || die "could not run $NODE_SPEC through npx"
  v="$("$node24" --version)" || die "$node24 does not run"
  [[ "$v" == v24.* ]] || die "$NODE_SPEC resolved to $node24, which is $v, not v24.x"
  # The suite must at least load under it (it needs Node >= 22: fs.globSync).
  "$node24" "$ENTRY" --help > /dev/null || die "the suite does not start under $node24"
  echo "$node24" > "$NODE24_MARKER"
fi

if [[ $# -eq 0 ]]; then
  echo "$ENTRY"
  exit 0
fi
exec "$node24" "$ENTRY" "$@"
