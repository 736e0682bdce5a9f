import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileEraMemory, cacheDirectory, cliEraMemory, eraMemoryKey } from '../../../../src/cli/eraMemory';
import { McpClient } from '../../../../src/protocol/client';
import { InMemoryEraMemory, type EraMemorySlot } from '../../../../src/protocol/eras/eraMemory';
import { eraChoiceReason } from '../../../../src/protocol/eras/select';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { LocalError } from '../../../../src/protocol/errors';
import { HOSTILE_SERVER, REPO_ROOT, assertProcessGone, trackedStdio } from '../../../support/testSupport';

const CORE_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'core', 'coreServer.mjs');
/**
 * Far longer than the test's own timeout: a start that waited it out would fail the test, so passing shows the
 * probe decided early without asserting any timing.
 */
const PROBE_TIMEOUT_MS = 10 * 60_000;

const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
});

function start(flags: string[], memory: EraMemorySlot): { client: McpClient; sent: string[] } {
  const sent: string[] = [];
  const client = new McpClient({
    serverName: 'silent-legacy',
    transport: new StdioTransport({
      command: process.execPath,
      args: [CORE_SERVER, '--ignore-unknown', ...flags],
      shutdownGraceMs: 1000,
    }),
    era: 'auto',
    eraProbeTimeoutMs: PROBE_TIMEOUT_MS,
    eraProbeGraceMs: 300,
    eraMemory: memory,
    requestTimeoutMs: PROBE_TIMEOUT_MS,
    trace: (direction, message) => {
      if (direction === 'send') sent.push(String((message as { method?: unknown }).method));
    },
  });
  clients.push(client);
  return { client, sent };
}

for (const evidence of ['--stderr-banner', '--hello-notification']) {
  test(
    `a server that ignores server/discover: decided from what it says first (${evidence}), then remembered`,
    { timeout: 60_000 },
    async () => {
      const memory: EraMemorySlot = { memory: new InMemoryEraMemory(), key: `silent-legacy ${evidence}` };
      const first = start([evidence], memory);
      const session = await first.client.connect();
      assert.equal(session.kind, 'handshake');
      assert.deepEqual(first.sent.slice(0, 2), ['server/discover', 'initialize'], 'probed, then the handshake');
      assert.match(eraChoiceReason('auto', session), /slow to answer the probe/);
      assert.equal(await memory.memory.get(memory.key), 'handshake', 'the era is remembered for the definition');
      await first.client.close();

      const second = start([evidence], memory);
      const again = await second.client.connect();
      assert.equal(again.kind, 'handshake');
      assert.ok(!second.sent.includes('server/discover'), `the second start does not probe: ${second.sent.join(', ')}`);
      assert.equal(second.sent[0], 'initialize');
      assert.match(eraChoiceReason('auto', again), /last start/);
    },
  );
}

test('a 2026-07-28 server is remembered as such and still answers discover', { timeout: 60_000 }, async () => {
  const memory: EraMemorySlot = { memory: new InMemoryEraMemory(), key: 'modern' };
  const sent: string[] = [];
  const client = new McpClient({
    serverName: 'modern',
    transport: new StdioTransport({
      command: process.execPath,
      args: [CORE_SERVER, '--modern'],
      shutdownGraceMs: 1000,
    }),
    era: 'auto',
    eraMemory: memory,
    trace: (direction, message) => direction === 'send' && sent.push(String((message as { method?: unknown }).method)),
  });
  clients.push(client);
  const session = await client.connect();
  assert.equal(session.kind, 'modern');
  assert.equal(await memory.memory.get('modern'), 'modern');
  assert.match(eraChoiceReason('auto', session), /answered server\/discover/);
});

test("the CLI's era memory keeps a hash of the definition in a small JSON file and survives a new process's read", () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'era-memory-'));
  const definition = 'stdio: node server.js --token=s3cret (cwd /srv)';
  const slot = cliEraMemory(definition, new FileEraMemory(directory));
  assert.equal(slot.memory.get(slot.key), undefined);
  void slot.memory.set(slot.key, 'handshake');
  // Another run reads the same file.
  assert.equal(new FileEraMemory(directory).get(eraMemoryKey(definition)), 'handshake');
  const stored = readFileSync(path.join(directory, 'era-memory.json'), 'utf8');
  assert.ok(!stored.includes('s3cret') && !stored.includes('server.js'), 'only a hash of the definition is stored');
  // A broken file is forgotten, never fatal.
  writeFileSync(path.join(directory, 'era-memory.json'), '{not json');
  assert.equal(new FileEraMemory(directory).get(eraMemoryKey(definition)), undefined);
  assert.equal(cacheDirectory({ XDG_CACHE_HOME: '/xdg' }), path.join('/xdg', 'mcp-workbench'));
});

/**
 * One start has one deadline. A server that reads and never answers anything (hostile 'mute') used to cost the
 * probe's wait and then initialize's whole timeout; now the start fails within the request timeout. The elapsed
 * bound is only an ordering: failure must come before the old probe-then-initialize wait would have ended.
 */
for (const { probeTimeoutMs, requestTimeoutMs, sends, rest } of [
  // The probe may wait as long as the request timeout: it spends the whole start, initialize is never sent.
  {
    probeTimeoutMs: PROBE_TIMEOUT_MS,
    requestTimeoutMs: 2000,
    sends: ['server/discover'],
    rest: /which left no time for initialize/,
  },
  // A shorter probe: initialize gets what is left of the start, not a full timeout of its own.
  {
    probeTimeoutMs: 1500,
    requestTimeoutMs: 3000,
    sends: ['server/discover', 'initialize'],
    rest: /then initialize was not answered for \d+ ms/,
  },
]) {
  test(
    `era auto, a server that never answers: the start fails within its ${requestTimeoutMs} ms timeout (probe up to ${probeTimeoutMs} ms)`,
    { timeout: 30_000 },
    async () => {
      const memory: EraMemorySlot = { memory: new InMemoryEraMemory(), key: `mute ${probeTimeoutMs}` };
      const sent: string[] = [];
      const { transport, pid } = trackedStdio({
        command: process.execPath,
        args: [HOSTILE_SERVER, 'mute'],
        shutdownGraceMs: 500,
      });
      const client = new McpClient({
        serverName: 'mute-server',
        transport,
        era: 'auto',
        eraProbeTimeoutMs: probeTimeoutMs,
        eraMemory: memory,
        requestTimeoutMs,
        trace: (direction, message) =>
          direction === 'send' && sent.push(String((message as { method?: unknown }).method)),
      });
      clients.push(client);
      // What the old code waited: the probe (bounded by the request timeout) and then a full initialize timeout.
      const oldWaitMs = Math.min(probeTimeoutMs, requestTimeoutMs) + requestTimeoutMs;
      const startedAt = Date.now();
      await assert.rejects(client.connect(), (error: unknown) => {
        assert.ok(error instanceof LocalError, String(error));
        assert.equal(error.kind, 'timeout');
        assert.match(
          error.message,
          new RegExp(
            `^mute-server: the start timed out after ${requestTimeoutMs} ms: the era probe took \\d+ ms \\(the server showed no sign of life and server/discover was not answered in time\\)`,
          ),
        );
        assert.match(error.message, rest);
        return true;
      });
      const elapsedMs = Date.now() - startedAt;
      assert.ok(
        elapsedMs < oldWaitMs,
        `failed after ${elapsedMs} ms, not before the ${oldWaitMs} ms the probe and a full initialize would take`,
      );
      assert.deepEqual(
        sent.filter((method) => method !== 'notifications/cancelled'),
        sends,
      );
      assert.ok(!sent.includes('notifications/cancelled'), 'neither the probe nor initialize is cancelled');
      assert.equal(
        await memory.memory.get(memory.key),
        undefined,
        'a server that said nothing is not remembered as either era',
      );
      assert.equal(client.state.kind, 'closed');
      const serverPid = pid();
      assert.ok(serverPid !== undefined);
      await assertProcessGone(serverPid, 'the server that never answered');
    },
  );
}
