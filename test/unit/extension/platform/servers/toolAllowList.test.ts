/**
 * Copilot's `tools` allow-list, read from `.github/mcp.json` and `~/.copilot/mcp-config.json`
 * (src/workbench/config/dialects/copilot.ts) and applied where the extension offers tools
 * (src/extension/platform/servers/toolAllowList.ts, vscode-free): the tree shows, and a call reaches, only the listed
 * tools, as Copilot offers them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { offeredTools, toolAllowed } from '../../../../../src/extension/platform/servers/toolAllowList';
import { DIALECTS } from '../../../../../src/workbench/config/dialects';

const tools = [{ name: 'get_issue' }, { name: 'list_issues' }, { name: 'delete_repo' }];

function allowListOf(dialect: 'github' | 'copilot', entry: object): string[] | undefined {
  const read = DIALECTS[dialect].read(JSON.stringify({ mcpServers: { gh: entry } }), { path: '/w/.github/mcp.json' });
  assert.deepEqual(read.problems, []);
  return read.servers[0].allowedTools;
}

test('.github/mcp.json with a tools list: only those tools are offered, the rest hidden (and logged by name)', () => {
  const allowed = allowListOf('github', { type: 'local', command: 'gh-mcp', tools: ['get_issue', 'list_issues'] });
  assert.deepEqual(allowed, ['get_issue', 'list_issues']);
  const logged: string[] = [];
  const offered = offeredTools(tools, allowed, { info: (line) => logged.push(line) });
  assert.deepEqual(
    offered.map((tool) => tool.name),
    ['get_issue', 'list_issues'],
  );
  assert.deepEqual(logged, ['Hidden by the "tools" allow-list: delete_repo']);
  assert.equal(toolAllowed('delete_repo', allowed), false, 'a call to a hidden tool is refused');
  assert.equal(toolAllowed('get_issue', allowed), true);
});

test('"*", no tools key, or a malformed one offer every tool; an empty list offers none', () => {
  for (const entry of [
    { type: 'local', command: 'x', tools: ['*'] },
    { type: 'local', command: 'x', tools: ['get_issue', '*'] },
    { type: 'local', command: 'x' },
  ]) {
    const allowed = allowListOf('copilot', entry);
    assert.equal(allowed, undefined, JSON.stringify(entry));
    assert.equal(offeredTools(tools, allowed).length, 3);
    assert.equal(toolAllowed('delete_repo', allowed), true);
  }
  const malformed = DIALECTS.copilot.read(
    JSON.stringify({ mcpServers: { gh: { type: 'local', command: 'x', tools: 'get_issue' } } }),
    { path: '/h/.copilot/mcp-config.json' },
  ).servers[0];
  assert.equal(malformed.allowedTools, undefined);
  assert.match(malformed.notes.join(), /"tools" allowlist .* dropped/, 'not read as a list: said on the row');
  const none = allowListOf('copilot', { type: 'local', command: 'x', tools: [] });
  assert.deepEqual(none, []);
  assert.deepEqual(offeredTools(tools, none), []);
  assert.equal(toolAllowed('get_issue', none), false);
});

test('other clients have no allow-list: a "tools" key in Cursor\'s file is not one', () => {
  const read = DIALECTS.cursor.read(JSON.stringify({ mcpServers: { c: { command: 'x', tools: ['get_issue'] } } }), {
    path: '/w/.cursor/mcp.json',
  });
  assert.equal(read.servers[0].allowedTools, undefined);
});
