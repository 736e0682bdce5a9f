import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepEqual, diffServerDefinitions } from '../../../../src/workbench/config/diff';
import { parseMcpConfig, type ServerDefinition } from '../../../../src/workbench/config/mcpConfig';

const stdio = (name: string, extra: Partial<Extract<ServerDefinition, { kind: 'stdio' }>> = {}): ServerDefinition => ({
  kind: 'stdio',
  name,
  command: 'npx',
  args: ['-y', name],
  env: {},
  ...extra,
});

test('classifies added, removed, changed and unchanged servers by name', () => {
  const before = [stdio('a'), stdio('b'), stdio('c', { env: { KEY: 'one' } }), stdio('gone')];
  const after = [
    stdio('a'),
    stdio('b', { args: ['-y', 'b', '--verbose'] }),
    stdio('c', { env: { KEY: 'two' } }),
    stdio('new'),
  ];
  const diff = diffServerDefinitions(before, after);
  assert.deepEqual(
    diff.added.map((s) => s.name),
    ['new'],
  );
  assert.deepEqual(
    diff.removed.map((s) => s.name),
    ['gone'],
  );
  assert.deepEqual(
    diff.changed.map((s) => s.name),
    ['b', 'c'],
  );
  assert.deepEqual(
    diff.unchanged.map((s) => s.name),
    ['a'],
  );
  assert.deepEqual(diff.changed[1].before, before[2]);
  assert.deepEqual(diff.changed[1].after, after[2]);
});

test('key order and undefined properties do not count as changes; arg order and kind do', () => {
  const a: ServerDefinition = {
    kind: 'stdio',
    name: 's',
    command: 'node',
    args: ['x'],
    env: { A: '1', B: null },
    cwd: undefined,
  };
  const b: ServerDefinition = { env: { B: null, A: '1' }, args: ['x'], command: 'node', name: 's', kind: 'stdio' };
  assert.deepEqual(
    diffServerDefinitions([a], [b]).unchanged.map((s) => s.name),
    ['s'],
  );
  assert.equal(deepEqual({ args: ['1', '2'] }, { args: ['2', '1'] }), false);
  assert.equal(deepEqual({ env: { A: null } }, { env: {} }), false, 'null unsets a variable, unlike a missing key');
  const http: ServerDefinition = { kind: 'http', name: 's', url: 'https://x', headers: {}, transport: 'auto' };
  assert.deepEqual(
    diffServerDefinitions([a], [http]).changed.map((s) => s.name),
    ['s'],
  );
  assert.deepEqual(diffServerDefinitions([http], [{ ...http, transport: 'sse' }]).changed.length, 1);
  assert.deepEqual(
    diffServerDefinitions([http], [{ ...http, headers: { Authorization: 'Bearer ${input:t}' } }]).changed.length,
    1,
  );
});

test('works on what parseMcpConfig returns for an edited file: a comment-only edit changes nothing', () => {
  const original = parseMcpConfig(`{
    "servers": {
      "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] },
      "remote": { "type": "http", "url": "https://example.com/mcp" }
    }
  }`).servers;
  const edited = parseMcpConfig(`{
    // reformatted, comment added, remote's url changed, a server added
    "servers": {
      "remote": { "url": "https://example.com/mcp/v2", "type": "http" },
      "fs": {
        "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
        "command": "npx",
      },
      "time": { "command": "uvx", "args": ["mcp-server-time"] },
    },
  }`).servers;
  const diff = diffServerDefinitions(original, edited);
  assert.deepEqual(
    {
      added: diff.added.map((s) => s.name),
      removed: diff.removed.map((s) => s.name),
      changed: diff.changed.map((s) => s.name),
      unchanged: diff.unchanged.map((s) => s.name),
    },
    { added: ['time'], removed: [], changed: ['remote'], unchanged: ['fs'] },
  );
});

test('empty inputs', () => {
  assert.deepEqual(diffServerDefinitions([], []), { added: [], removed: [], changed: [], unchanged: [] });
  assert.deepEqual(
    diffServerDefinitions([stdio('x')], []).removed.map((s) => s.name),
    ['x'],
  );
});
