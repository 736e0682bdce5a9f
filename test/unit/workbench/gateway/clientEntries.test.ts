/** The entries Connect Another Client writes (src/workbench/gateway/clientEntries.ts): shapes per client, edits that keep the file. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { ConfigEditError } from '../../../../src/workbench/config/jsoncEdit';
import {
  clientEntry,
  clipboardSnippet,
  writeClientEntries,
  type GatewayEndpoint,
} from '../../../../src/workbench/gateway/clientEntries';

const ENDPOINT: GatewayEndpoint = {
  name: 'everything',
  url: 'http://127.0.0.1:4711/mcp',
  headers: { Authorization: `Bearer ${'ab'.repeat(32)}` },
};

describe('clientEntry', () => {
  test('each client gets its own shape: Claude Code and VS Code typed, Cursor by url, Copilot CLI with every tool', () => {
    const headers = { Authorization: ENDPOINT.headers.Authorization };
    assert.deepEqual(clientEntry('claudeCode', ENDPOINT), { type: 'http', url: ENDPOINT.url, headers });
    assert.deepEqual(clientEntry('vscodeUser', ENDPOINT), { type: 'http', url: ENDPOINT.url, headers });
    assert.deepEqual(clientEntry('cursor', ENDPOINT), { url: ENDPOINT.url, headers });
    assert.deepEqual(clientEntry('copilotCli', ENDPOINT), { type: 'http', url: ENDPOINT.url, headers, tools: ['*'] });
  });

  test('the secret travels in the header only, never in the URL', () => {
    const entry = clientEntry('claudeCode', ENDPOINT);
    assert.ok(!String(entry.url).includes('ab'.repeat(32)));
  });

  test('the clipboard holds an mcpServers object with every chosen server', () => {
    const other = { ...ENDPOINT, name: 'files', url: 'http://127.0.0.1:4712/mcp' };
    const parsed = JSON.parse(clipboardSnippet([ENDPOINT, other])) as { mcpServers: Record<string, { url: string }> };
    assert.deepEqual(Object.keys(parsed.mcpServers), ['everything', 'files']);
    assert.equal(parsed.mcpServers.files.url, other.url);
  });
});

describe('writeClientEntries', () => {
  test('a missing file becomes one holding the entry under the client key', () => {
    const { text, replaced } = writeClientEntries('vscodeUser', '', [ENDPOINT]);
    assert.deepEqual(parse(text), { servers: { everything: clientEntry('vscodeUser', ENDPOINT) } });
    assert.deepEqual(replaced, []);
  });

  test("the file's other servers, keys and comments stay, and its indentation is used", () => {
    const before = [
      '{',
      '  // my own servers',
      '  "mcpServers": {',
      '    "mine": { "command": "node", "args": ["server.js"] } // keep me',
      '  },',
      '  "other": true',
      '}',
      '',
    ].join('\n');
    const { text, replaced } = writeClientEntries('claudeCode', before, [ENDPOINT]);
    assert.match(text, /\/\/ my own servers/);
    assert.match(text, /\/\/ keep me/);
    assert.match(text, /\n {4}"everything": \{/);
    const parsed = parse(text) as { mcpServers: Record<string, unknown>; other: boolean };
    assert.deepEqual(Object.keys(parsed.mcpServers), ['mine', 'everything']);
    assert.equal(parsed.other, true);
    assert.deepEqual(replaced, []);
  });

  test('an entry of the same name is replaced and reported, so the confirmation can say so', () => {
    const before = '{ "mcpServers": { "everything": { "command": "npx" } } }';
    const { text, replaced } = writeClientEntries('cursor', before, [ENDPOINT]);
    assert.deepEqual(replaced, ['everything']);
    assert.deepEqual((parse(text) as { mcpServers: unknown }).mcpServers, {
      everything: clientEntry('cursor', ENDPOINT),
    });
  });

  test('a file with only a comment keeps it', () => {
    const { text } = writeClientEntries('copilotCli', '// servers for the CLI\n', [ENDPOINT]);
    assert.match(text, /^\/\/ servers for the CLI/);
    assert.deepEqual(Object.keys((parse(text) as { mcpServers: object }).mcpServers), ['everything']);
  });

  test('a file that cannot be read is refused rather than rewritten', () => {
    assert.throws(() => writeClientEntries('claudeCode', '{ "mcpServers": { ', [ENDPOINT]), ConfigEditError);
    assert.throws(() => writeClientEntries('claudeCode', '[1, 2]', [ENDPOINT]), ConfigEditError);
    assert.throws(() => writeClientEntries('claudeCode', '{ "mcpServers": [] }', [ENDPOINT]), ConfigEditError);
  });
});
