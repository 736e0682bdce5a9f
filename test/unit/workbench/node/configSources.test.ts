import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSourceFiles, SOURCE_DEFAULTS } from '../../../../src/workbench/node/configSources';

test("the workspace's files and VS Code's own are on by default; other clients' user files are off", () => {
  const files = configSourceFiles({ platform: 'linux', home: '/home/p', folders: ['/repo'] });
  const on = files.filter((file) => SOURCE_DEFAULTS[file.id]);
  assert.ok(
    on.every((file) => file.scope === 'workspace' || file.id === 'vscodeUser'),
    JSON.stringify(on),
  );
  const off = files.filter((file) => !SOURCE_DEFAULTS[file.id]).map((file) => file.label);
  assert.deepEqual(off, [
    '~/.copilot/mcp-config.json',
    '~/.cursor/mcp.json',
    '~/.claude.json',
    '~/.config/Claude/claude_desktop_config.json',
    '~/.codex/config.toml',
  ]);
});

test('files inside a folder are workspace files named relative to it; home files come from the given home', () => {
  const files = configSourceFiles({
    platform: 'linux',
    home: '/tmp/fake-home',
    folders: ['/a', '/b'],
    env: { CODEX_HOME: '/opt/codex', COPILOT_HOME: '/opt/copilot' },
    workspaceFile: '/w/app.code-workspace',
  });
  const dotMcp = files.filter((file) => file.id === 'dotMcp');
  assert.deepEqual(
    dotMcp.map((file) => [file.path, file.scope, file.label]),
    [
      ['/a/.mcp.json', 'workspace', '.mcp.json (a)'],
      ['/b/.mcp.json', 'workspace', '.mcp.json (b)'],
    ],
  );
  const byId = (id: string) => files.find((file) => file.id === id);
  assert.equal(byId('claudeCode')?.path, '/tmp/fake-home/.claude.json');
  assert.equal(byId('claudeCode')?.scope, 'user');
  assert.equal(byId('codex')?.path, '/opt/codex/config.toml');
  assert.equal(byId('copilot')?.path, '/opt/copilot/mcp-config.json');
  assert.equal(byId('codeWorkspace')?.scope, 'workspace');
  assert.deepEqual(
    files.filter((file) => file.clients.includes('claude')).map((file) => file.path),
    ['/a/.mcp.json', '/b/.mcp.json', '/tmp/fake-home/.claude.json'],
  );
});
