import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MementoEraMemory } from '../../../../../src/extension/platform/servers/eraMemory';
import type { ServerEntry } from '../../../../../src/extension/platform/config/serverEntry';

/** A Memento as VS Code's globalState behaves: values kept by key, update resolves once stored. */
function memento() {
  const values = new Map<string, unknown>();
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
  };
}

const entry = (args: string[]) => ({ definition: { type: 'stdio', command: 'node', args } }) as unknown as ServerEntry;

test('the extension remembers the era of a server definition in globalState, keyed by a hash of the definition', async () => {
  const state = memento();
  const memory = new MementoEraMemory(state);
  const slot = memory.slotFor(entry(['old-server.mjs']));
  assert.equal(await slot.memory.get(slot.key), undefined);
  await slot.memory.set(slot.key, 'handshake');
  // A new window reads the same globalState.
  const again = new MementoEraMemory(state).slotFor(entry(['old-server.mjs']));
  assert.equal(again.key, slot.key);
  assert.equal(await again.memory.get(again.key), 'handshake');
  // A changed definition is another server: it probes again.
  const changed = memory.slotFor(entry(['old-server.mjs', '--new-flag']));
  assert.notEqual(changed.key, slot.key);
  assert.equal(await changed.memory.get(changed.key), undefined);
  // The state holds only hashes, never the command line.
  assert.doesNotMatch(JSON.stringify([...state.values.values()]), /old-server/);
});

const stdioEntry = (id: string, args: string[], extra: Record<string, unknown> = {}) =>
  ({ id, name: id, definition: { kind: 'stdio', command: 'node', args, env: {}, ...extra } }) as unknown as ServerEntry;

test('in one window, a server with era auto opens in the era it answered with at its last start, without the probe', () => {
  const memory = new MementoEraMemory(memento());
  const dev = stdioEntry('ws#dev', ['server.mjs'], { dev: { watch: ['*.mjs'], exclude: [], debug: { type: 'node' } } });
  const first = memory.window.choose(dev, 'auto');
  assert.deepEqual(first, { preference: 'auto' }, 'the first start probes');
  memory.window.started(dev, first, 'handshake');
  assert.deepEqual(memory.window.choose(dev, 'auto'), { preference: 'legacy', remembered: 'handshake' });
  assert.deepEqual(
    memory.window.choose(dev, 'auto'),
    { preference: 'legacy', remembered: 'handshake' },
    'every restart',
  );

  const modern = stdioEntry('ws#modern', ['modern.mjs']);
  memory.window.started(modern, memory.window.choose(modern, 'auto'), 'modern');
  assert.deepEqual(memory.window.choose(modern, 'auto'), { preference: '2026-07-28', remembered: 'modern' });

  // A window's memory is its own: a new window (the same globalState) probes again.
  assert.deepEqual(new MementoEraMemory(memento()).window.choose(dev, 'auto'), { preference: 'auto' });
});

test("the window's era is forgotten on a change of that server's definition and after a failed start in it", () => {
  const memory = new MementoEraMemory(memento());
  const entry = stdioEntry('ws#app', ['server.mjs']);
  memory.window.started(entry, memory.window.choose(entry, 'auto'), 'handshake');

  const changed = stdioEntry('ws#app', ['server.mjs', '--port', '1']);
  assert.deepEqual(memory.window.choose(changed, 'auto'), { preference: 'auto' }, 'a changed definition probes');
  assert.deepEqual(memory.window.choose(entry, 'auto'), { preference: 'auto' }, 'and the old era is gone');

  memory.window.started(entry, memory.window.choose(entry, 'auto'), 'modern');
  const choice = memory.window.choose(entry, 'auto');
  assert.equal(choice.remembered, 'modern');
  assert.equal(memory.window.failed(entry, choice), true, 'a failed start in the remembered era forgets it');
  assert.deepEqual(memory.window.choose(entry, 'auto'), { preference: 'auto' }, 'so the next start probes again');
  assert.equal(
    memory.window.failed(entry, { preference: 'auto' }),
    false,
    'a failed probing start has nothing to forget',
  );
});

test('only era auto over stdio is remembered: a pinned era and an HTTP server are left as configured', () => {
  const memory = new MementoEraMemory(memento());
  const pinned = stdioEntry('ws#pinned', ['s.mjs']);
  memory.window.started(pinned, memory.window.choose(pinned, '2026-07-28'), 'modern');
  assert.deepEqual(memory.window.choose(pinned, 'auto'), { preference: 'auto' }, 'a pinned start teaches nothing');
  assert.deepEqual(memory.window.choose(pinned, 'legacy'), { preference: 'legacy' });
  const http = {
    id: 'ws#remote',
    name: 'remote',
    definition: { kind: 'http', url: 'http://127.0.0.1:1/mcp', headers: {}, transport: 'auto' },
  } as unknown as ServerEntry;
  memory.window.started(http, memory.window.choose(http, 'auto'), 'handshake');
  assert.deepEqual(memory.window.choose(http, 'auto'), { preference: 'auto' });
});
