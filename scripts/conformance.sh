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

# Pre-fetch Node 24 into the npx cache so the first real run does not stall on a download.
if [[ ! -f "$NODE24_MARKER" ]]; then
  echo "conformance.sh: fetching $NODE_SPEC into the npx cache" >&2
  v="$(npx -y -p "$NODE_SPEC" node --version)" || die "could not run $NODE_SPEC through npx"
  [[ "$v" == v24.* ]] || die "npx -p $NODE_SPEC node --version printed '$v', expected v24.x"
  # The suite must at least load under it.
  npx -y -p "$NODE_SPEC" node "$ENTRY" --help > /dev/null || die "the suite does not start under $NODE_SPEC"
  echo "$v" > "$NODE24_MARKER"
fi

if [[ $# -eq 0 ]]; then
  echo "$ENTRY"
  exit 0
fi
exec npx -y -p "$NODE_SPEC" node "$ENTRY" "$@"
