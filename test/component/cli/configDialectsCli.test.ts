/** `--config` with any client's file and `--from-client`, against server-everything (dist/cli.js, `npm run build`). */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, test } from 'node:test';
import { EVERYTHING_SERVER } from '../../support/testSupport';
import { CLI_PATH, runCli, type CliRun } from '../../support/cliRun';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-dialects-'));
const home = path.join(root, 'home');
const project = path.join(root, 'project');
fs.mkdirSync(home);
fs.mkdirSync(project);

type Run = CliRun;

/** Runs the CLI with HOME in the temporary folder: the person's real files are never read. */
function cli(args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: project,
    env: { ...process.env, HOME: home, USERPROFILE: home, XDG_CACHE_HOME: path.join(root, 'cache') },
    timeoutMs: 30_000,
  });
}

const everything = (arg = 'stdio') => ({ command: process.execPath, args: [EVERYTHING_SERVER, arg] });
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const serverName = (run: Run) => (JSON.parse(run.stdout) as { serverInfo: { name: string } }).serverInfo.name;

test('--config reads a workspace-root .mcp.json (a bare map, with a comment) and starts its server', async () => {
  write(path.join(project, '.mcp.json'), `// hand-written\n${JSON.stringify({ docs: everything() })}`);
  const run = await cli(['info', '--config', path.join(project, '.mcp.json')]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(serverName(run), /everything/i);
});

test("--config reads Codex's config.toml", async () => {
  const toml = `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n`;
  write(path.join(home, '.codex', 'config.toml'), toml);
  const run = await cli(['info', '--config', path.join(home, '.codex', 'config.toml')]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(serverName(run), /everything/i);
});

test("--from-client claude: this folder's project server in ~/.claude.json, with ${VAR:-default} honoured", async () => {
  const arg = '${EVERYTHING_TRANSPORT:-stdio}';
  write(
    path.join(home, '.claude.json'),
    JSON.stringify({
      numStartups: 2,
      projects: { [fs.realpathSync(project)]: { mcpServers: { mine: everything(arg) } } },
    }),
  );
  const run = await cli(['info', '--from-client', 'claude', '--server', 'mine']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(serverName(run), /everything/i);
});

test('--from-client copilot says what it does not honour (a tools allow-list) on stderr', async () => {
  write(
    path.join(home, '.copilot', 'mcp-config.json'),
    JSON.stringify({ mcpServers: { gh: { type: 'local', ...everything(), tools: ['echo'] } } }),
  );
  const run = await cli(['info', '--from-client', 'copilot', '--server', 'gh']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /note: gh: "tools" allowlist \(echo\)/);
});

test('usage errors: an unknown client, several servers without --server, a file too large', async () => {
  const unknown = await cli(['info', '--from-client', 'emacs']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--from-client must be one of claude, cursor, copilot, vscode, codex, claude-desktop/);
  write(
    path.join(home, '.cursor', 'mcp.json'),
    JSON.stringify({ mcpServers: { one: everything(), two: everything() } }),
  );
  const several = await cli(['info', '--from-client', 'cursor']);
  assert.equal(several.code, 2);
  assert.match(several.stderr, /--server is required; .* defines: one, two/);
  write(path.join(project, 'huge.json'), `{"mcpServers":{},"x":"${'x'.repeat(1024 * 1024)}"}`);
  const huge = await cli(['info', '--config', path.join(project, 'huge.json')]);
  assert.equal(huge.code, 2);
  assert.match(huge.stderr, /larger than the 1024 KB/);
});

test("gateway --config with Codex's config.toml and no --server serves every server of it, read as Codex reads it", async () => {
  const file = path.join(root, 'codex-home', 'config.toml');
  const server = (name: string) =>
    `[mcp_servers.${name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n`;
  write(file, `# Codex's own format\n${server('first')}\n${server('second')}`);
  const child = spawn(process.execPath, [CLI_PATH, 'gateway', '--config', file, '--json'], {
    cwd: project,
    env: { ...process.env, HOME: home, USERPROFILE: home, XDG_CACHE_HOME: path.join(root, 'cache') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const line = await Promise.race([
      new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
      exited.then((code) => Promise.reject(new Error(`the gateway exited with ${code} before serving: ${stderr}`))),
    ]);
    const { servers } = JSON.parse(line) as { servers: { name: string; url: string }[] };
    assert.deepEqual(
      servers.map((server) => server.name),
      ['first', 'second'],
    );
    for (const server of servers) assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  } finally {
    child.kill('SIGTERM');
    assert.equal(await exited, 0, stderr);
  }
});

after(() => fs.rmSync(root, { recursive: true, force: true }));
