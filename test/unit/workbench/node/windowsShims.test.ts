/**
 * The Windows shim wiring, simulated on any platform: what the extension's pre-spawn check (planStdioLaunch, used by
 * checkCommand) hands to createTransport, and what the stdio transport then passes to spawn. On Windows, `npx` is
 * `npx.cmd`, which Node only runs through cmd.exe (CVE-2024-27980); the arguments must reach spawn already quoted
 * and with windowsVerbatimArguments, or Node would quote them a second time.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { createTransport, planStdioLaunch, type ResolvedServer } from '../../../../src/workbench/node/launch';
import { buildEnvironment, StdioTransport, stdioSpawnOptions } from '../../../../src/protocol/node/stdio';

type StdioServer = Extract<ResolvedServer, { kind: 'stdio' }>;

let root = '';
let nodejs = '';
let tools = '';

before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mcp-winshim-'));
  nodejs = path.join(root, 'nodejs');
  tools = path.join(root, 'tools');
  await mkdir(nodejs, { recursive: true });
  await mkdir(tools, { recursive: true });
  await writeFile(path.join(nodejs, 'npx.cmd'), '@echo off\r\n');
  await writeFile(path.join(nodejs, 'node.exe'), '');
  await writeFile(path.join(tools, 'serve.bat'), '@echo off\r\n');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

function stdio(command: string, args: string[], env: Record<string, string | null> = {}, cwd?: string): StdioServer {
  return { kind: 'stdio', name: 'test', command, args, env, cwd, envFile: undefined };
}

const windowsHost = (PATH: string, extra: Record<string, string> = {}) => ({
  platform: 'win32' as const,
  env: { Path: PATH, PATHEXT: '.COM;.EXE;.BAT;.CMD', ...extra },
});

test('win32: npx resolves to npx.cmd and runs through cmd.exe /d /s /c with every argument quoted', async () => {
  const plan = await planStdioLaunch(
    stdio('npx', ['-y', '@modelcontextprotocol/server-everything', 'C:\\my dir\\']),
    windowsHost(nodejs),
  );
  assert.equal(plan.kind, 'ready');
  assert.ok(plan.kind === 'ready');
  const shim = path.join(nodejs, 'npx.cmd');
  assert.deepEqual(plan.launch, {
    command: 'cmd.exe',
    args: ['/d', '/s', '/c', `""${shim}" "-y" "@modelcontextprotocol/server-everything" "C:\\my dir\\\\""`],
    windowsVerbatimArguments: true,
  });
});

test('win32: the host ComSpec is used, never one from the server env a workspace controls', async () => {
  const host = windowsHost(nodejs, { ComSpec: 'C:\\Windows\\system32\\cmd.exe' });
  const plan = await planStdioLaunch(stdio('npx', ['x'], { COMSPEC: 'C:\\evil.exe' }), host);
  assert.ok(plan.kind === 'ready');
  assert.equal(plan.launch.command, 'C:\\Windows\\system32\\cmd.exe');
});

test("win32: the server's own env PATH and a cwd-relative .bat are honoured", async () => {
  const viaEnv = await planStdioLaunch(stdio('npx', [], { PATH: nodejs }), windowsHost(tools));
  assert.ok(viaEnv.kind === 'ready');
  assert.equal(viaEnv.launch.command, 'cmd.exe');
  const relative = await planStdioLaunch(stdio('./serve.bat', ['--port', '3000'], {}, tools), windowsHost(''));
  assert.ok(relative.kind === 'ready', JSON.stringify(relative));
  assert.equal(relative.launch.args.at(-1), `""${tools}/./serve.bat" "--port" "3000""`);
});

test("win32: env names are case-insensitive: the server's PATH replaces the inherited Path", () => {
  const env = buildEnvironment(
    { Path: 'C:\\old', ComSpec: 'cmd.exe', Keep: '1' },
    { PATH: 'C:\\new', comspec: null },
    'win32',
  );
  assert.deepEqual(env, { PATH: 'C:\\new', Keep: '1' });
  const posix = buildEnvironment({ Path: '/old' }, { PATH: '/new' }, 'linux');
  assert.deepEqual(posix, { Path: '/old', PATH: '/new' });
});

test('win32: an .exe is spawned by the full path found (no second search from the working directory), without cmd.exe', async () => {
  const plan = await planStdioLaunch(stdio('node', ['server.js']), windowsHost(nodejs));
  assert.deepEqual(plan, { kind: 'ready', launch: { command: `${nodejs}/node.exe`, args: ['server.js'] } });
});

test('win32: an argument cmd.exe would expand is refused with the reason, before anything is spawned', async () => {
  await assert.rejects(
    planStdioLaunch(stdio('npx', ['-y', 'pkg', '--token=%SECRET%']), windowsHost(nodejs)),
    /argument 3 .*contains "%".*cmd\.exe interprets/,
  );
  await assert.rejects(planStdioLaunch(stdio('npx', ['a & calc']), windowsHost(nodejs)), /contains "&"/);
});

test('win32: a missing command is reported with the PATH searched', async () => {
  const plan = await planStdioLaunch(stdio('uvx', []), windowsHost(nodejs));
  assert.equal(plan.kind, 'not-found');
  assert.ok(plan.kind === 'not-found');
  assert.deepEqual(plan.searched, [nodejs]);
  assert.match(plan.hint, /uvx not found on PATH .*extensions tried: \.com \.exe \.bat \.cmd/);
});

test('POSIX: the command is spawned by the absolute path found on PATH, arguments as written', async () => {
  const plan = await planStdioLaunch(stdio('node', ['-v']), {
    platform: 'linux',
    env: { PATH: path.dirname(process.execPath) },
  });
  assert.deepEqual(plan, {
    kind: 'ready',
    launch: { command: path.join(path.dirname(process.execPath), 'node'), args: ['-v'] },
  });
});

test('createTransport passes the launch to the stdio transport, which passes windowsVerbatimArguments to spawn', async () => {
  const plan = await planStdioLaunch(stdio('npx', ['-y', 'server']), windowsHost(nodejs));
  assert.ok(plan.kind === 'ready');
  const transport = createTransport(stdio('npx', ['-y', 'server']), { launch: plan.launch });
  assert.ok(transport instanceof StdioTransport);
  const options = (
    transport as unknown as { options: { command: string; args: string[]; windowsVerbatimArguments?: boolean } }
  ).options;
  assert.equal(options.command, 'cmd.exe');
  assert.deepEqual(options.args, plan.launch.args);
  assert.equal(options.windowsVerbatimArguments, true);

  const spawnOptions = stdioSpawnOptions(options, {}, 'win32');
  assert.equal(spawnOptions.windowsVerbatimArguments, true);
  assert.equal(spawnOptions.shell, false);
  assert.equal(spawnOptions.detached, false, 'no process group on Windows');
  assert.equal(spawnOptions.windowsHide, true);
  const plain = stdioSpawnOptions({ cwd: root }, {}, 'linux');
  assert.equal(plain.windowsVerbatimArguments, undefined, 'not set unless the launch asks for it');
  assert.equal(plain.detached, false, 'no new session on Linux: the tree is found through /proc (processTree.ts)');
  assert.equal(stdioSpawnOptions({ cwd: root }, {}, 'darwin').detached, true, 'own process group elsewhere on POSIX');
});

test('without a launch, createTransport spawns the configured command (the CLI path)', async () => {
  const transport = createTransport(stdio(process.execPath, ['-e', 'process.stdin.resume()']));
  assert.ok(transport instanceof StdioTransport);
  const options = (transport as unknown as { options: { command: string; windowsVerbatimArguments?: boolean } })
    .options;
  assert.equal(options.command, process.execPath);
  assert.equal(options.windowsVerbatimArguments, undefined);
});
