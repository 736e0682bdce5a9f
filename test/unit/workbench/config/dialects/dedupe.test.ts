import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dedupeServers } from '../../../../../src/workbench/config/dialects';
import type { ServerDefinition } from '../../../../../src/workbench/config/mcpConfig';

const local = (name: string, env: Record<string, string> = {}): ServerDefinition => ({
  kind: 'stdio',
  name,
  command: 'npx',
  args: ['-y', 'pkg'],
  env,
});
const remote = (name: string, url: string): ServerDefinition => ({
  kind: 'http',
  name,
  url,
  headers: {},
  transport: 'auto',
});

test('the same command line and env (or URL) in two files is one row with both sources, named by the first', () => {
  const rows = dedupeServers([
    { definition: local('docs', { A: '1', B: '2' }), source: '.mcp.json' },
    { definition: local('documentation', { B: '2', A: '1' }), source: '~/.cursor/mcp.json' },
    { definition: local('docs', { A: 'other' }), source: '~/.claude.json' },
    { definition: remote('r', 'https://r/mcp'), source: '.vscode/mcp.json' },
    { definition: remote('r2', 'https://r/mcp'), source: '.github/mcp.json' },
  ]);
  assert.deepEqual(
    rows.map((row) => [row.definition.name, row.sources]),
    [
      ['docs', ['.mcp.json', '~/.cursor/mcp.json']],
      ['docs', ['~/.claude.json']],
      ['r', ['.vscode/mcp.json', '.github/mcp.json']],
    ],
  );
});

test('sources the caller keeps apart (a workspace file and a home-folder file) stay two rows', () => {
  const rows = dedupeServers(
    [
      { definition: local('a'), source: { scope: 'workspace' } },
      { definition: local('a'), source: { scope: 'user' } },
      { definition: local('a'), source: { scope: 'user' } },
    ],
    (first, other) => first.scope === other.scope,
  );
  assert.deepEqual(
    rows.map((row) => row.sources.length),
    [1, 2],
  );
});
