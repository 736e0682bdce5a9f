import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { resolveCommand, windowsShimInvocation } from '../../../../src/workbench/node/commandResolution';

let root = '';
let bin1 = '';
let bin2 = '';
let winBin = '';
let project = '';

before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'mcp-cmd-'));
  bin1 = path.join(root, 'bin1');
  bin2 = path.join(root, 'bin2');
  winBin = path.join(root, 'nodejs');
  project = path.join(root, 'project');
  for (const dir of [bin1, bin2, winBin, project, path.join(project, 'scripts')]) await mkdir(dir, { recursive: true });
  await executable(path.join(bin2, 'npx'));
  await executable(path.join(bin1, 'uvx'));
  await executable(path.join(bin2, 'uvx')); // shadowed by bin1
  await writeFile(path.join(bin1, 'npx'), '#!/bin/sh\n'); // not executable: skipped, bin2's wins
  await mkdir(path.join(bin1, 'node')); // a directory is not a command
  await executable(path.join(bin2, 'node'));
  await executable(path.join(project, 'scripts', 'serve.sh'));
  await writeFile(path.join(project, 'plain.sh'), '#!/bin/sh\n');
  // Windows layout: npx is a .cmd shim, node is an .exe; permission bits do not matter there.
  await writeFile(path.join(winBin, 'npx.cmd'), '@echo off\r\n');
  await writeFile(path.join(winBin, 'node.exe'), '');
  await writeFile(path.join(winBin, 'setup.bat'), '');
  await writeFile(path.join(winBin, 'tool.ps1'), '');
});

after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function executable(file: string): Promise<void> {
  await writeFile(file, '#!/bin/sh\necho hi\n');
  await chmod(file, 0o755);
}

test('POSIX: searches PATH in order and needs the executable bit', async () => {
  const env = { PATH: [bin1, '', bin2].join(':') };
  assert.deepEqual(await resolveCommand('uvx', { env, platform: 'linux' }), {
    kind: 'found',
    path: path.join(bin1, 'uvx'),
  });
  assert.deepEqual(await resolveCommand('npx', { env, platform: 'darwin' }), {
    kind: 'found',
    path: path.join(bin2, 'npx'),
  });
  assert.deepEqual(await resolveCommand('node', { env, platform: 'linux' }), {
    kind: 'found',
    path: path.join(bin2, 'node'),
  });
});

test('POSIX: not found names the command, the PATH searched and what to do', async () => {
  const result = await resolveCommand('npx', { env: { PATH: bin1 }, platform: 'linux' });
  assert.equal(result.kind, 'not-found');
  assert.deepEqual(result.kind === 'not-found' && result.searched, [bin1]);
  assert.equal(
    result.kind === 'not-found' && result.hint,
    `npx not found on PATH (searched: ${bin1}). Use an absolute path, set cwd, or add its folder to PATH through env.`,
  );
  const empty = await resolveCommand('npx', { env: {}, platform: 'linux' });
  assert.match(empty.kind === 'not-found' ? empty.hint : '', /searched: PATH is empty/);
  const blank = await resolveCommand('  ', { env: {}, platform: 'linux' });
  assert.deepEqual(blank, {
    kind: 'not-found',
    searched: [],
    hint: 'the command is empty',
    detail: { kind: 'command-empty' },
  });
});

test('POSIX: relative and absolute paths resolve against cwd without searching PATH', async () => {
  const env = { PATH: bin2 };
  assert.deepEqual(await resolveCommand('./scripts/serve.sh', { env, cwd: project, platform: 'linux' }), {
    kind: 'found',
    path: path.join(project, 'scripts', 'serve.sh'),
  });
  const absolute = path.join(bin2, 'node');
  assert.deepEqual(await resolveCommand(absolute, { env: {}, cwd: project, platform: 'linux' }), {
    kind: 'found',
    path: absolute,
  });
  const missing = await resolveCommand('./nope.sh', { env, cwd: project, platform: 'linux' });
  assert.deepEqual(missing.kind === 'not-found' && missing.searched, [path.join(project, 'nope.sh')]);
  assert.match(missing.kind === 'not-found' ? missing.hint : '', /not found relative to cwd/);
  const plain = await resolveCommand('./plain.sh', { env, cwd: project, platform: 'linux' });
  assert.match(plain.kind === 'not-found' ? plain.hint : '', /exists but is not executable: run chmod \+x/);
});

test('Windows (simulated): PATHEXT finds npx.cmd as a shim and node.exe directly; Path is case-insensitive', async () => {
  const env = { Path: `${bin1};"${winBin}"`, PATHEXT: '.COM;.EXE;.BAT;.CMD' };
  assert.deepEqual(await resolveCommand('npx', { env, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/npx.cmd`,
    viaShim: 'cmd',
  });
  assert.deepEqual(await resolveCommand('node', { env, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/node.exe`,
  });
  assert.deepEqual(await resolveCommand('setup.bat', { env, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/setup.bat`,
    viaShim: 'cmd',
  });
  // Without PATHEXT the Windows default applies.
  assert.deepEqual(await resolveCommand('npx', { env: { PATH: winBin }, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/npx.cmd`,
    viaShim: 'cmd',
  });
  // .ps1 is not in PATHEXT, so PowerShell scripts are not runnable commands.
  const ps1 = await resolveCommand('tool', { env, platform: 'win32' });
  assert.equal(ps1.kind, 'not-found');
  assert.match(
    ps1.kind === 'not-found' ? ps1.hint : '',
    /^tool not found on PATH \(searched: .*; extensions tried: \.com \.exe \.bat \.cmd\)\. Use an absolute path/,
  );
});

test('Windows (simulated): a path with or without extension', async () => {
  const env = { PATH: '' };
  assert.deepEqual(await resolveCommand(`${winBin}/npx`, { env, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/npx.cmd`,
    viaShim: 'cmd',
  });
  assert.deepEqual(await resolveCommand(`${winBin}/node.exe`, { env, platform: 'win32' }), {
    kind: 'found',
    path: `${winBin}/node.exe`,
  });
  const missing = await resolveCommand('C:\\Program Files\\nodejs\\npx', { env, platform: 'win32' });
  assert.deepEqual(missing.kind === 'not-found' && missing.searched, ['C:\\Program Files\\nodejs\\npx']);
});

test('windowsShimInvocation quotes every argument for cmd.exe /d /s /c', () => {
  const invocation = windowsShimInvocation('C:\\Program Files\\nodejs\\npx.cmd', [
    '-y',
    '@modelcontextprotocol/server-filesystem',
    'C:\\My Docs\\',
    'say "hi"',
    '',
  ]);
  assert.deepEqual(invocation, {
    command: 'cmd.exe',
    args: [
      '/d',
      '/s',
      '/c',
      '""C:\\Program Files\\nodejs\\npx.cmd" "-y" "@modelcontextprotocol/server-filesystem" "C:\\My Docs\\\\" "say ""hi""" """',
    ],
    windowsVerbatimArguments: true,
  });
  assert.equal(
    windowsShimInvocation('x.cmd', [], 'C:\\Windows\\System32\\cmd.exe').command,
    'C:\\Windows\\System32\\cmd.exe',
  );
});

test('windowsShimInvocation refuses characters cmd.exe interprets even inside quotes', () => {
  for (const bad of ['%PATH%', 'a^b', 'a&calc', 'a|b', '<in', 'out>', 'hi!', 'two\nlines']) {
    assert.throws(
      () => windowsShimInvocation('C:\\nodejs\\npx.cmd', ['-y', bad]),
      (error: unknown) =>
        error instanceof Error &&
        /cannot run npx\.cmd through cmd\.exe safely: argument 2 \(.*\) contains/.test(error.message),
      bad,
    );
  }
  assert.throws(
    () => windowsShimInvocation('C:\\A&B\\npx.cmd', []),
    /the shim path "C:\\\\A&B\\\\npx.cmd" contains "&"/,
  );
});

test("the editor's own PATH folders are searched but not listed: the message shows the PATH a person set", async () => {
  const editorCli = path.join(root, 'editor', 'bin', 'remote-cli');
  await mkdir(editorCli, { recursive: true });
  await executable(path.join(editorCli, 'only-in-editor'));
  const options = {
    env: { PATH: [editorCli, bin1].join(path.delimiter) },
    platform: process.platform,
    isHostFolder: (directory: string) => directory.startsWith(path.join(root, 'editor')),
  };
  const missing = await resolveCommand('missing-tool', options);
  assert.equal(missing.kind, 'not-found');
  assert.equal(
    missing.kind === 'not-found' ? missing.hint : '',
    `missing-tool not found on PATH (searched: ${bin1}, and 1 folder of the editor itself). Use an absolute path, set cwd, or add its folder to PATH through env.`,
  );
  assert.deepEqual(missing.kind === 'not-found' ? missing.searched : [], [editorCli, bin1]);
  assert.equal((await resolveCommand('only-in-editor', options)).kind, 'found');
});
