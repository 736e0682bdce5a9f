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
