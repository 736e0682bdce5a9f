/**
 * A server entry that does not load names its server, the reason, and where its name is in the file: the Servers view
 * shows it as an error row that opens the file there.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';

test('entries with schema errors are problems that say where the entry is; the others load', () => {
  const text = [
    '{',
    '  // a comment, as mcp.json allows',
    '  "servers": {',
    '    "good": { "command": "node" },',
    '    "nourl": {"type":"http"},',
    '      "badtype": { "type": "htp", "url": "http://127.0.0.1:1/mcp" }',
    '  }',
    '}',
  ].join('\n');
  const parsed = parseMcpConfig(text);
  assert.deepEqual(
    parsed.servers.map((server) => server.name),
    ['good'],
  );
  const byServer = new Map(parsed.problems.map((problem) => [problem.server, problem]));
  const nourl = byServer.get('nourl');
  assert.match(nourl?.message ?? '', /an http server needs a "url" string/);
  assert.deepEqual(nourl?.at, { line: 5, column: 5, offset: text.indexOf('"nourl"'), length: '"nourl"'.length });
  const badtype = byServer.get('badtype');
  assert.match(badtype?.message ?? '', /htp/);
  assert.deepEqual(badtype?.at, { line: 6, column: 7, offset: text.indexOf('"badtype"'), length: '"badtype"'.length });
});

test('the place is found under "mcpServers" too, and a file-level problem has none', () => {
  const parsed = parseMcpConfig('{"mcpServers": {"x": 3}, "inputs": 4}');
  const entry = parsed.problems.find((problem) => problem.server === 'x');
  assert.equal(entry?.at?.offset, '{"mcpServers": {'.length);
  const file = parsed.problems.find((problem) => problem.server === undefined);
  assert.ok(file && file.at === undefined, JSON.stringify(parsed.problems));
});
