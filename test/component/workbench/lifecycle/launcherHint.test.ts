/**
 * A package launcher that fails with nothing on stderr (npx that could not install the package, as the issue-23
 * sweep met with two servers) gets a hint in the error, through the real stdio transport and client.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { LocalError } from '../../../../src/protocol/errors';
import { silentLauncherHint } from '../../../../src/protocol/node/stdio';
import { summarizeStartFailure } from '../../../../src/workbench/lifecycle/startFailure';
import { collectingLogger, trackedStdio } from '../../../support/testSupport';

/** An executable named `name` in a folder of its own that exits with `code`, writing `stderr` if given. */
function fakeLauncher(name: string, code: number, stderr = ''): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-launcher-'));
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    `#!${process.execPath}\n${stderr ? `process.stderr.write(${JSON.stringify(stderr)});\n` : ''}process.exit(${code});\n`,
    { mode: 0o755 },
  );
  return file;
}

async function connectError(command: string, args: string[]): Promise<LocalError> {
  const { transport } = trackedStdio({ command, args, shutdownGraceMs: 500 });
  const client = new McpClient({
    serverName: 'launched',
    transport,
    logger: collectingLogger(),
    initializeTimeoutMs: 10_000,
  });
  const error = await client.connect().then(
    () => assert.fail('connected'),
    (caught: unknown) => caught,
  );
  await client.close();
  assert.ok(error instanceof LocalError, String(error));
  return error;
}

test(
  'npx that exits 1 with nothing on stderr: the error says it may have failed to install the package',
  { skip: process.platform === 'win32' ? 'a #! script is not a program on Windows' : false, timeout: 20_000 },
  async () => {
    const error = await connectError(fakeLauncher('npx', 1), ['-y', 'some-mcp-server']);
    assert.equal(error.kind, 'connection-closed');
    assert.match(
      error.message,
      /exited with code 1, with nothing on stderr: "npx" may have failed to download or install the package/,
    );
    // The one line a notification or the CLI shows keeps the hint.
    assert.match(summarizeStartFailure(error), /^exited with code 1, with nothing on stderr: "npx" may have failed/);
    assert.deepEqual(error.detail, { kind: 'process-exited', code: 1, silentLauncher: 'npx' });
  },
);

test(
  'a launcher that says why on stderr, or any other program, gets no such hint',
  { skip: process.platform === 'win32' ? 'a #! script is not a program on Windows' : false, timeout: 20_000 },
  async () => {
    const talkative = await connectError(fakeLauncher('npx', 1, 'npm error 404 Not Found\n'), [
      '-y',
      'missing-package',
    ]);
    assert.match(talkative.message, /exited with code 1; last stderr lines:\nnpm error 404 Not Found/);
    assert.doesNotMatch(talkative.message, /may have failed/);
    const other = await connectError(fakeLauncher('my-server', 1), []);
    assert.doesNotMatch(other.message, /may have failed/);
  },
);

test('silentLauncherHint knows the launchers by their program name', () => {
  assert.match(silentLauncherHint('/usr/local/bin/npx', ['-y', 'x'], 1) ?? '', /"npx"/);
  assert.match(silentLauncherHint('C:\\Program Files\\nodejs\\npx.cmd', [], 1) ?? '', /"npx"/);
  assert.match(silentLauncherHint('uvx', ['mcp-server-fetch'], 2) ?? '', /"uvx"/);
  assert.match(silentLauncherHint('pnpm', ['dlx', 'x'], 1) ?? '', /"pnpm dlx"/);
  assert.equal(silentLauncherHint('pnpm', ['run', 'x'], 1), undefined);
  assert.equal(silentLauncherHint('npx', [], 0), undefined);
  assert.equal(silentLauncherHint('npx', [], null), undefined);
  assert.equal(silentLauncherHint('node', ['server.js'], 1), undefined);
});
