#!/usr/bin/env bash
# The CLI against third-party MCP servers from the npm registry (issue 23). Not run by CI: it needs the registry and
# minutes. For each server: `info`, `tools`, one safe call (or none where every tool needs an account), and the tool
# names the official SDK client lists (scripts/sweep-sdk-tools.mjs) against ours. Servers that need an API key get a
# dummy one: initialize and tools/list must work, or fail with an error that says why.
#   npm run build && bash scripts/sweep-third-party.sh [out.md]    (one Markdown row per server on stdout / out.md)
#   SWEEP_ONLY=azure-devops bash scripts/sweep-third-party.sh      (only the servers whose label contains the text)
# Raw outputs are kept in $SWEEP_DIR (default: a new temp folder, printed at the start). Each request is bounded by
# $SWEEP_TIMEOUT_MS (default 60000; the first run downloads every package: give it more).
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
OUT=${1:-/dev/stdout}
SWEEP_DIR=${SWEEP_DIR:-$(mktemp -d /tmp/mcp-sweep-XXXX)}
TIMEOUT_MS=${SWEEP_TIMEOUT_MS:-60000}
echo "sweep: raw output in $SWEEP_DIR" >&2
mkdir -p "$SWEEP_DIR/fs" "$SWEEP_DIR/home" "$SWEEP_DIR/panda"
# @pandacss/mcp reads the project's panda.config in its working folder (without one it exits).
echo "export default { include: ['./src/**/*.ts'], outdir: 'styled-system' }" >"$SWEEP_DIR/panda/panda.config.mjs"
[ -f dist/cli.js ] || { echo "sweep: dist/cli.js missing: npm run build first" >&2; exit 2; }

# Servers that write to the home folder get one of the sweep's own, and npx keeps using the usual package cache.
SWEEP_HOME="HOME=$SWEEP_DIR/home npm_config_cache=$(npm config get cache)"

# A local server-everything over Streamable HTTP for mcp-remote to proxy.
HTTP_PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
PORT=$HTTP_PORT node node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp >"$SWEEP_DIR/everything-http.log" 2>&1 &
HTTP_PID=$!
trap 'kill $HTTP_PID 2>/dev/null' EXIT
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/$HTTP_PORT) 2>/dev/null && break; sleep 0.2; done

# label | command line (`npx -y <package> …`) | tool to call ("-": none) | its arguments | extra environment
# (NAME=value, space separated) | working folder (default: this repository)
SERVERS=(
  "memory|npx -y @modelcontextprotocol/server-memory|read_graph|{}|MEMORY_FILE_PATH=$SWEEP_DIR/memory.jsonl"
  "sequential-thinking|npx -y @modelcontextprotocol/server-sequential-thinking|sequentialthinking|{\"thought\":\"one\",\"nextThoughtNeeded\":false,\"thoughtNumber\":1,\"totalThoughts\":1}|"
  "filesystem|npx -y @modelcontextprotocol/server-filesystem $SWEEP_DIR/fs|list_allowed_directories|{}|"
  "everything (npm, stdio)|npx -y @modelcontextprotocol/server-everything stdio|echo|{\"message\":\"hi\"}|"
  "mcp-remote → everything (streamableHttp)|npx -y mcp-remote http://127.0.0.1:$HTTP_PORT/mcp|echo|{\"message\":\"hi\"}|$SWEEP_HOME"
  "playwright|npx -y @playwright/mcp --headless --isolated --browser chromium --executable-path /usr/bin/chromium|browser_navigate|{\"url\":\"about:blank\"}||$SWEEP_DIR/home"  # it writes .playwright-mcp/ into its first root
  "azure-devops|npx -y @azure-devops/mcp sweep-org --authentication envvar|-||ADO_MCP_AUTH_TOKEN=sweep-dummy-token"
  "pandacss|npx -y @pandacss/mcp|get_conditions|{}||$SWEEP_DIR/panda"
  "context7|npx -y @upstash/context7-mcp|resolve-library-id|{\"libraryName\":\"react\",\"query\":\"react\"}|"
  "desktop-commander|npx -y @wonderwhy-er/desktop-commander|get_config|{}|$SWEEP_HOME"
  "brave-search|npx -y @brave/brave-search-mcp-server|-||BRAVE_API_KEY=sweep-dummy-key"
  "github (archived)|npx -y @modelcontextprotocol/server-github|-||GITHUB_PERSONAL_ACCESS_TOKEN=sweep-dummy-token"
  "notion|npx -y @notionhq/notion-mcp-server|-||NOTION_TOKEN=sweep-dummy-token"
  "chrome-devtools|npx -y chrome-devtools-mcp|-||"
  "executeautomation playwright|npx -y @executeautomation/playwright-mcp-server|-||"
  "kubernetes|npx -y mcp-server-kubernetes|-||$SWEEP_HOME"
  "currents|npx -y @currents/mcp|-||CURRENTS_API_KEY=sweep-dummy-key"
  "apify|npx -y @apify/actors-mcp-server|-||APIFY_TOKEN=sweep-dummy-token"
  "firecrawl|npx -y firecrawl-mcp|-||FIRECRAWL_API_KEY=fc-sweep-dummy-key"
  "tavily|npx -y tavily-mcp|-||TAVILY_API_KEY=tvly-sweep-dummy-key"
  "browsermcp|npx -y @browsermcp/mcp|-||"
  "sentry|npx -y @sentry/mcp-server --access-token=sweep-dummy-token|-||"
)

echo "| server | npm package@version | serverInfo | era · protocol | tools ours/SDK | call | notes |" >"$OUT"
echo "| --- | --- | --- | --- | --- | --- | --- |" >>"$OUT"
index=0
for entry in "${SERVERS[@]}"; do
  index=$((index + 1))
  IFS='|' read -r label cmdline tool toolArgs envList cwd <<<"$entry"
  [[ -n "${SWEEP_ONLY:-}" && "$label" != *"$SWEEP_ONLY"* ]] && continue
  cwd=${cwd:-$REPO}
  dir="$SWEEP_DIR/$(printf %02d $index)"
  mkdir -p "$dir"
  envFlags=()
  envJson='{}'
  for pair in $envList; do
    envFlags+=(--env "$pair")
    envJson=$(node -e 'const [j,p]=process.argv.slice(1);const o=JSON.parse(j);const i=p.indexOf("=");o[p.slice(0,i)]=p.slice(i+1);console.log(JSON.stringify(o))' "$envJson" "$pair")
  done
  # Run from the working folder too: the CLI's root (roots/list) is its own folder, and playwright writes there.
  cli() { (cd "$cwd" && node "$REPO/dist/cli.js" "$@" --stdio "$cmdline" --cwd "$cwd" --timeout "$TIMEOUT_MS" "${envFlags[@]}" </dev/null); }
  echo "sweep: [$index] $label" >&2
  package=$(awk '{print $3}' <<<"$cmdline")
  packageVersion=$(npm view "$package" version 2>/dev/null || echo '?')
  cli info >"$dir/info.json" 2>"$dir/info.err"; infoRc=$?
  cli tools >"$dir/tools.json" 2>"$dir/tools.err"; toolsRc=$?
  if [ "$tool" != "-" ]; then cli call "$tool" "$toolArgs" >"$dir/call.json" 2>"$dir/call.err"; callRc=$?; else callRc=none; fi
  # shellcheck disable=SC2086
  node scripts/sweep-sdk-tools.mjs "$(node -e 'console.log(JSON.stringify(process.argv[1].split(" ")))' "$cmdline")" "$envJson" "$cwd" >"$dir/sdk.txt" 2>"$dir/sdk.err" </dev/null; sdkRc=$?
  node - "$dir" "$label" "$infoRc" "$toolsRc" "$callRc" "$sdkRc" "$tool" "$package@$packageVersion" >>"$OUT" <<'NODE'
const fs = require('fs');
const [dir, label, infoRc, toolsRc, callRc, sdkRc, tool, packageSpec] = process.argv.slice(2);
const read = (f) => { try { return fs.readFileSync(`${dir}/${f}`, 'utf8'); } catch { return ''; } };
const json = (f) => { try { return JSON.parse(read(f)); } catch { return undefined; } };
const firstLine = (text) => (text.trim().split('\n').find((l) => l.trim()) ?? '').slice(0, 140).replace(/\|/g, '\\|');
const info = json('info.json');
const tools = json('tools.json');
const ours = Array.isArray(tools) ? tools.map((t) => t.name).sort() : undefined;
const sdk = sdkRc === '0' ? read('sdk.txt').split('\n').filter(Boolean) : undefined;
const notes = [];
if (infoRc !== '0') notes.push(`info exit ${infoRc}: ${firstLine(read('info.err'))}`);
if (toolsRc !== '0') notes.push(`tools exit ${toolsRc}: ${firstLine(read('tools.err'))}`);
if (sdk === undefined) notes.push(`SDK: ${firstLine(read('sdk.err'))}`);
const same = ours && sdk && JSON.stringify(ours) === JSON.stringify(sdk);
if (ours && sdk && !same) notes.push(`differ: ours only ${ours.filter((n) => !sdk.includes(n)).join(',') || '-'}; SDK only ${sdk.filter((n) => !ours.includes(n)).join(',') || '-'}`);
let call = 'not called';
if (callRc !== 'none') {
  const result = json('call.json');
  const text = result?.content?.find?.((c) => c.type === 'text')?.text ?? '';
  call = callRc === '0' ? `ok (${tool}): ${firstLine(text.replace(/\s+/g, ' ')).slice(0, 70)}` : `error (${tool}): ${firstLine(text || read('call.err'))}`;
}
const version = info ? `${info.serverInfo?.name ?? '?'} ${info.serverInfo?.version ?? '?'}` : '-';
const era = info ? `${info.era} · ${info.protocolVersion}` : '-';
const count = `${ours ? ours.length : '-'}/${sdk ? sdk.length : '-'}${same ? ' (same names)' : ''}`;
console.log(`| ${label} | ${packageSpec} | ${version} | ${era} | ${count} | ${call} | ${notes.join('; ').replace(/\|/g, '\\|')} |`);
NODE
done
echo "sweep: done; rows in $OUT, raw output in $SWEEP_DIR" >&2
