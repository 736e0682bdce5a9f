import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { FileEraMemory, cacheDirectory, cliEraMemory, eraMemoryKey } from '../../src/cli/eraMemory';
import { McpClient } from '../../src/protocol/client';
import { InMemoryEraMemory, type EraMemorySlot } from '../../src/protocol/eras/eraMemory';
import { eraChoiceReason } from '../../src/protocol/eras/select';
import { StdioTransport } from '../../src/protocol/node/stdio';
import { REPO_ROOT } from './testSupport';

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
    transport: new StdioTransport({ command: process.execPath, args: [CORE_SERVER, '--ignore-unknown', ...flags], shutdownGraceMs: 1000 }),
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
  test(`a server that ignores server/discover: decided from what it says first (${evidence}), then remembered`, { timeout: 60_000 }, async () => {
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
  });
}

test('a 2026-07-28 server is remembered as such and still answers discover', { timeout: 60_000 }, async () => {
  const memory: EraMemorySlot = { memory: new InMemoryEraMemory(), key: 'modern' };
  const sent: string[] = [];
  const client = new McpClient({
    serverName: 'modern',
    transport: new StdioTransport({ command: process.execPath, args: [CORE_SERVER, '--modern'], shutdownGraceMs: 1000 }),
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
