import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  addInputToConfig,
  addServerToConfig,
  ConfigEditError,
  detectFormatting,
  removeServerFromConfig,
  renameServer,
} from '../../../../src/workbench/config/jsoncEdit';
import { parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';
import { repoRoot } from '../../../support/paths';

const FIXTURE = readFileSync(path.join(repoRoot, 'test', 'fixtures', 'configs', 'vscode-mcp.jsonc'), 'utf8');
const serverNames = (text: string) => parseMcpConfig(text).servers.map((s) => s.name);

test('adds a server to a commented file: every comment and existing line survives, indentation matches', () => {
  const result = addServerToConfig(FIXTURE, 'time', { type: 'stdio', command: 'uvx', args: ['mcp-server-time'] });
  for (const line of FIXTURE.split('\n').filter((l) => l.includes('//') || l.includes('/*')))
    assert.ok(result.includes(line), line);
  assert.deepEqual(serverNames(result), ['perplexity', 'fetch', 'github', 'legacy', 'time']);
  assert.match(result, /\n {4}"time": \{\n {6}"type": "stdio",\n {6}"command": "uvx",/);
  assert.deepEqual(parseMcpConfig(result).problems, []);
  // Only additions: the original lines are all there, unchanged and in order (the one-line entries stay one line).
  assert.ok(isSubsequence(FIXTURE.split('\n'), result.split('\n')), result);
});

test('appends after a last member that has a trailing comment and no comma', () => {
  const text = '{\n  "servers": {\n    "a": { "command": "node" } // last one\n    // end of list\n  }\n}\n';
  assert.equal(
    addServerToConfig(text, 'b', { command: 'x' }),
    '{\n  "servers": {\n    "a": { "command": "node" }, // last one\n    "b": {\n      "command": "x"\n    }\n    // end of list\n  }\n}\n',
  );
  // Members sharing one line: no layout to follow, jsonc-parser formats the insertion.
  assert.deepEqual(
    serverNames(addServerToConfig('{ "servers": { "a": { "command": "node" } } }', 'b', { command: 'x' })),
    ['a', 'b'],
  );
});

function isSubsequence(needles: string[], haystack: string[]): boolean {
  let index = 0;
  for (const line of haystack) if (index < needles.length && line === needles[index]) index++;
  return index === needles.length;
}

test('creates { "servers": {} } for an empty or comment-only file', () => {
  assert.equal(
    addServerToConfig('', 'a', { command: 'node' }),
    '{\n\t"servers": {\n\t\t"a": {\n\t\t\t"command": "node"\n\t\t}\n\t}\n}\n',
  );
  const commented = addServerToConfig('// my servers\n', 'a', { command: 'node' }, { insertSpaces: true, tabSize: 2 });
  assert.equal(commented, '// my servers\n{\n  "servers": {\n    "a": {\n      "command": "node"\n    }\n  }\n}\n');
  assert.deepEqual(serverNames(addServerToConfig('{}', 'a', { url: 'https://x' })), ['a']);
  assert.deepEqual(serverNames(addServerToConfig('{ "inputs": [] }', 'a', { command: 'node' })), ['a']);
});

test('refuses to edit a file that is not valid JSONC and says where it is broken', () => {
  const broken = '{\n  "servers": {\n    "a": { "command": "node" \n    "b": {}\n  }\n}';
  assert.throws(
    () => addServerToConfig(broken, 'c', { command: 'x' }),
    (error: unknown) => {
      return (
        error instanceof ConfigEditError &&
        /not valid JSONC \(expected a comma at line 4, column 5\).*nothing was changed/.test(error.message)
      );
    },
  );
  assert.throws(() => addServerToConfig('[1, 2]', 'c', { command: 'x' }), /must contain a JSON object/);
  assert.throws(
    () => addServerToConfig('{ "servers": [] }', 'c', { command: 'x' }),
    /"servers" in mcp.json is not an object/,
  );
  assert.throws(() => removeServerFromConfig('{ "servers": { ', 'c'), ConfigEditError);
});

test('refuses duplicate names and unknown servers', () => {
  assert.throws(() => addServerToConfig(FIXTURE, 'fetch', { command: 'x' }), /a server named "fetch" already exists/);
  assert.throws(() => removeServerFromConfig(FIXTURE, 'nope'), /no server named "nope" to remove/);
  assert.throws(() => renameServer(FIXTURE, 'nope', 'x'), /no server named "nope" to rename/);
  assert.throws(() => renameServer(FIXTURE, 'fetch', 'github'), /a server named "github" already exists/);
  assert.throws(() => addServerToConfig(FIXTURE, ' ', { command: 'x' }), /cannot be empty/);
});

test('a file that only has "mcpServers" gets the new server there (that is the key that is read)', () => {
  const text = '{\n  "mcpServers": {\n    "a": { "command": "node" }\n  }\n}\n';
  const result = addServerToConfig(text, 'b', { command: 'python' });
  assert.deepEqual(serverNames(result), ['a', 'b']);
  assert.equal(result.includes('"servers"'), false);
  assert.deepEqual(serverNames(removeServerFromConfig(result, 'a')), ['b']);
});

test('removes a server and keeps the other comments', () => {
  const result = removeServerFromConfig(FIXTURE, 'github');
  assert.deepEqual(serverNames(result), ['perplexity', 'fetch', 'legacy']);
  assert.ok(result.includes('/* Local servers */'));
  assert.ok(result.includes('// Asked once, then kept in secret storage.'));
  assert.deepEqual(parseMcpConfig(result).problems, []);
});

test('removes a multi-line entry, its trailing comment, and the comma a new last member no longer needs', () => {
  const first = removeServerFromConfig(FIXTURE, 'perplexity');
  assert.equal(first, FIXTURE.replace(/ {4}"perplexity": \{\n[\s\S]*?\n {4}\},\n/, ''));
  const text =
    '{\n  "servers": {\n    "a": { "command": "node" }, // keep me\n    "b": { "command": "x" } // b\'s note\n  }\n}\n';
  assert.equal(
    removeServerFromConfig(text, 'b'),
    '{\n  "servers": {\n    "a": { "command": "node" } // keep me\n  }\n}\n',
  );
  assert.equal(
    removeServerFromConfig(text, 'a'),
    '{\n  "servers": {\n    "b": { "command": "x" } // b\'s note\n  }\n}\n',
  );
  assert.deepEqual(serverNames(removeServerFromConfig('{"servers":{"a":{"command":"n"},"b":{"command":"m"}}}', 'a')), [
    'b',
  ]);
});

test('renames a server in place: only the key text changes', () => {
  const result = renameServer(FIXTURE, 'fetch', 'web-fetch');
  assert.equal(result, FIXTURE.replace('"fetch": {', '"web-fetch": {'));
  assert.deepEqual(serverNames(result), ['perplexity', 'web-fetch', 'github', 'legacy']);
  assert.equal(renameServer(FIXTURE, 'fetch', 'fetch'), FIXTURE);
  assert.ok(renameServer(FIXTURE, 'fetch', 'say "hi"').includes('"say \\"hi\\"": {'));
});

test('adds inputs: appended to an existing array, or a new array first in the file; duplicate ids refused', () => {
  const appended = addInputToConfig(FIXTURE, {
    type: 'promptString',
    id: 'github-token',
    description: 'GitHub token',
    password: true,
  });
  assert.deepEqual(
    parseMcpConfig(appended).inputs.map((i) => i.id),
    ['perplexity-key', 'github-token'],
  );
  assert.ok(appended.includes('// Asked once, then kept in secret storage.'));
  assert.throws(
    () => addInputToConfig(appended, { type: 'promptString', id: 'github-token' }),
    /input with id "github-token" already exists/,
  );

  const fresh = addInputToConfig('{\n  "servers": {}\n}\n', {
    type: 'pickString',
    id: 'env',
    options: ['dev', 'prod'],
    default: 'dev',
  });
  assert.ok(fresh.indexOf('"inputs"') < fresh.indexOf('"servers"'), fresh);
  assert.deepEqual(parseMcpConfig(fresh).inputs, [
    {
      type: 'pickString',
      id: 'env',
      description: undefined,
      password: false,
      default: 'dev',
      options: ['dev', 'prod'],
    },
  ]);
  assert.throws(
    () => addInputToConfig('{ "inputs": {} }', { type: 'promptString', id: 'x' }),
    /"inputs" is not an array/,
  );
});

test('keeps CRLF line endings and tab indentation', () => {
  const text = '{\r\n\t"servers": {\r\n\t\t"a": { "command": "node" }\r\n\t}\r\n}\r\n';
  const result = addServerToConfig(text, 'b', { command: 'python', args: [] });
  assert.equal(result.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF introduced');
  assert.match(result, /\r\n\t\t"b": \{\r\n\t\t\t"command": "python",/);
});

test('detectFormatting', () => {
  assert.deepEqual(detectFormatting('{\n    "a": {\n        "b": 1\n    }\n}'), {
    tabSize: 4,
    insertSpaces: true,
    eol: '\n',
  });
  assert.deepEqual(detectFormatting('{\r\n  "a": 1\r\n}'), { tabSize: 2, insertSpaces: true, eol: '\r\n' });
  assert.deepEqual(detectFormatting('{\n\t"a": 1\n}'), { tabSize: 4, insertSpaces: false, eol: '\n' });
  assert.deepEqual(detectFormatting('/**\n * docs\n */\n{\n  "a": 1\n}'), {
    tabSize: 2,
    insertSpaces: true,
    eol: '\n',
  });
  assert.deepEqual(detectFormatting('{"a":1}'), { tabSize: 4, insertSpaces: false, eol: '\n' });
});

test('explicit formatting options override detection', () => {
  const result = addServerToConfig('{"servers":{}}', 'a', { command: 'node' }, { insertSpaces: true, tabSize: 3 });
  assert.match(result, /\n {9}"command": "node"/);
});
