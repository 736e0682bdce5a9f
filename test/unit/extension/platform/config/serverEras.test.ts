/**
 * `mcpWorkbench.serverEras` (src/extension/platform/config/serverEras.ts, vscode-free): the era of a `.vscode/mcp.json` server
 * can be set where no schema flags it, since VS Code's own mcp.json schema says "Property era is not allowed".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyServerEras } from '../../../../../src/extension/platform/config/serverEras';
import { eraPreferenceOf, parseMcpConfig } from '../../../../../src/workbench/config/mcpConfig';

const servers = parseMcpConfig(
  JSON.stringify({
    servers: {
      plain: { command: 'node', args: ['server.mjs'] },
      written: { command: 'node', era: 'legacy' },
      remote: { type: 'http', url: 'https://example.com/mcp' },
    },
  }),
).servers;

test('the setting gives a server without "era" its era; an "era" written in the entry wins', () => {
  const { definitions, problems } = applyServerEras(servers, {
    plain: '2026-07-28',
    written: '2026-07-28',
    remote: 'legacy',
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(
    definitions.map((d) => [d.name, eraPreferenceOf(d)]),
    [
      ['plain', '2026-07-28'],
      ['written', 'legacy'],
      ['remote', 'legacy'],
    ],
  );
});

test('"handshake", the old era\'s one name in the UI, is accepted in the setting and in mcp.json like its earlier name "legacy"', () => {
  const { definitions, problems } = applyServerEras(servers, { plain: 'handshake' });
  assert.deepEqual(problems, []);
  assert.equal(eraPreferenceOf(definitions[0]), 'legacy');
  const written = parseMcpConfig(JSON.stringify({ servers: { a: { command: 'node', era: 'handshake' } } }));
  assert.deepEqual(written.problems, []);
  assert.equal(eraPreferenceOf(written.servers[0]), 'legacy');
});

test('a value that is not an era is named as a problem and changes nothing; no setting changes nothing', () => {
  const { definitions, problems } = applyServerEras(servers, { plain: 'modern' });
  assert.equal(eraPreferenceOf(definitions[0]), 'auto');
  assert.deepEqual(problems, [
    'mcpWorkbench.serverEras["plain"] must be "auto", "2026-07-28", "handshake", got "modern"',
  ]);
  assert.deepEqual(applyServerEras(servers, undefined).definitions, servers);
});
