/**
 * The real @modelcontextprotocol/server-filesystem, started with no directory arguments, so the only
 * directories it may touch are the roots this client provides; then the roots change at runtime.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { Emitter } from '../../../src/protocol/disposable';
import type { Root } from '../../../src/protocol/types';
import {
  FILESYSTEM_SERVER,
  assertProcessGone,
  collectingLogger,
  delay,
  textOf,
  trackedStdio,
} from '../../support/testSupport';

let base: string;
let first: string;
let second: string;
let outside: string;
let roots: Root[] = [];
const rootsChanged = new Emitter<void>();
let listRootsCalls = 0;
let client: McpClient;
let pid: () => number | undefined;

function rootFor(dir: string): Root {
  return { uri: pathToFileURL(dir).href, name: path.basename(dir) };
}

before(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-fs-test-')));
  first = path.join(base, 'first');
  second = path.join(base, 'second');
  outside = path.join(base, 'outside');
  for (const dir of [first, second, outside]) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(first, 'hello.txt'), 'hello from the first root\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not for the server\n');
  fs.writeFileSync(path.join(second, 'other.txt'), 'second root file\n');
  roots = [rootFor(first)];

  const tracked = trackedStdio({ command: process.execPath, args: [FILESYSTEM_SERVER], shutdownGraceMs: 1000 });
  pid = tracked.pid;
  client = new McpClient({
    serverName: 'filesystem',
    transport: tracked.transport,
    logger: collectingLogger(),
    requestTimeoutMs: 15_000,
    host: {
      roots: {
        listRoots: () => {
          listRootsCalls++;
          return roots;
        },
        onDidChangeRoots: rootsChanged.event,
      },
    },
  });
  await client.connect();
  await client.listTools();
});

after(async () => {
  await client?.close();
  rootsChanged.dispose();
  const id = pid?.();
  if (id !== undefined) await assertProcessGone(id, 'server-filesystem');
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

async function allowedDirectories(): Promise<string[]> {
  const { result } = await client.callTool('list_allowed_directories');
  return textOf(result.content).split('\n').slice(1).filter(Boolean);
}

/** The server fetches roots asynchronously (after initialized, after list_changed): poll, bounded. */
async function waitForAllowed(expected: string[]): Promise<void> {
  let last: string[] = [];
  for (let i = 0; i < 100; i++) {
    last = await allowedDirectories();
    if (JSON.stringify(last) === JSON.stringify(expected)) return;
    await delay(50);
  }
  assert.deepEqual(last, expected, 'allowed directories');
}

describe('server-filesystem with client roots', { timeout: 60_000 }, () => {
  test('the roots capability is declared with listChanged', { timeout: 5_000 }, () => {
    assert.deepEqual(client.capabilities.roots, { listChanged: true });
  });

  test('list_allowed_directories shows the root the client provides', { timeout: 15_000 }, async () => {
    await waitForAllowed([first]);
    assert.ok(listRootsCalls >= 1, 'the server asked for roots/list');
  });

  test('read and write a file inside the root', { timeout: 15_000 }, async () => {
    const read = await client.callTool('read_text_file', { path: path.join(first, 'hello.txt') });
    assert.notEqual(read.result.isError, true);
    assert.equal(textOf(read.result.content), 'hello from the first root\n');
    assert.equal(read.outputValidation?.kind, 'valid');

    const target = path.join(first, 'written.txt');
    const write = await client.callTool('write_file', { path: target, content: 'written through MCP' });
    assert.notEqual(write.result.isError, true, textOf(write.result.content));
    assert.equal(fs.readFileSync(target, 'utf8'), 'written through MCP');
  });

  test('access outside the roots is refused', { timeout: 15_000 }, async () => {
    const read = await client.callTool('read_text_file', { path: path.join(outside, 'secret.txt') });
    assert.equal(read.result.isError, true);
    assert.match(textOf(read.result.content), /Access denied/);
    const write = await client.callTool('write_file', { path: path.join(outside, 'evil.txt'), content: 'x' });
    assert.equal(write.result.isError, true);
    assert.equal(fs.existsSync(path.join(outside, 'evil.txt')), false);
  });

  test(
    'changing the roots: the server re-fetches them after notifications/roots/list_changed',
    { timeout: 20_000 },
    async () => {
      const callsBefore = listRootsCalls;
      roots = [rootFor(second)];
      rootsChanged.fire();
      await waitForAllowed([second]);
      assert.ok(listRootsCalls > callsBefore, 'roots/list was requested again');

      const read = await client.callTool('read_text_file', { path: path.join(second, 'other.txt') });
      assert.equal(textOf(read.result.content), 'second root file\n');
      const old = await client.callTool('read_text_file', { path: path.join(first, 'hello.txt') });
      assert.equal(old.result.isError, true, 'the old root is no longer allowed');
      assert.match(textOf(old.result.content), /Access denied/);
    },
  );
});
