/**
 * Copy Server to…'s conversion and write (src/extension/features/config/copyPlan.ts, vscode-free): what the target
 * cannot express refuses the copy with the reasons (a password input into `.mcp.json`); a copy into Cursor's file is
 * in the format Cursor documents (`mcpServers`; `command`/`args`/`env`, or `url`/`headers`; `${env:…}`), added to
 * the file keeping its comments, order and other keys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { planCopy, type CopySource } from '../../../../../src/extension/features/config/copyPlan';
import { DIALECTS } from '../../../../../src/workbench/config/dialects';
import { parseServerEntry, type InputDefinition } from '../../../../../src/workbench/config/mcpConfig';

const words = { inputsElsewhere: (label: string) => `${label} keeps its inputs elsewhere` };

function source(name: string, entry: object, inputs: InputDefinition[] = []): CopySource {
  const definition = parseServerEntry(name, entry);
  assert.ok(typeof definition !== 'string', String(definition));
  return { name, definition, inputs };
}

const apiKey: InputDefinition = { id: 'api-key', type: 'promptString', description: 'API key', password: true };
const withSecret = source(
  'weather',
  { type: 'stdio', command: 'npx', args: ['-y', '@example/weather-mcp'], env: { WEATHER_API_KEY: '${input:api-key}' } },
  [apiKey],
);

test('a password input cannot go into .mcp.json: refused with the reason, nothing to write', () => {
  const before = '{\n  // ours\n  "mcpServers": {}\n}\n';
  const plan = planCopy(withSecret, { dialect: 'dot-mcp', text: before, origin: { path: '/w/.mcp.json' } }, words);
  assert.equal(plan.kind, 'refused');
  assert.ok(plan.kind === 'refused');
  assert.match(plan.reasons.join('; '), /WEATHER_API_KEY: \$\{input:api-key\} is a prompted value/);
});

test("nor into Cursor's file, which has no inputs: the server would get the words, not the secret", () => {
  const plan = planCopy(withSecret, { dialect: 'cursor', text: '', origin: { path: '/w/.cursor/mcp.json' } }, words);
  assert.ok(plan.kind === 'refused');
  assert.match(plan.reasons.join('; '), /input/);
});

test("a stdio server copied to Cursor's mcp.json is in Cursor's documented format, keeping the file's comments and servers", () => {
  const server = source('docs', {
    type: 'stdio',
    command: 'node',
    args: ['${workspaceFolder}/server.mjs', '--verbose'],
    env: { TOKEN: '${env:DOCS_TOKEN}', LEVEL: 'info' },
  });
  const before =
    '// Cursor\n{\n  "mcpServers": {\n    "docs": { "url": "https://docs.example.com/mcp" }\n  },\n  "other": 1\n}\n';
  const plan = planCopy(server, { dialect: 'cursor', text: before, origin: { path: '/w/.cursor/mcp.json' } }, words);
  assert.ok(plan.kind === 'write', JSON.stringify(plan));
  assert.equal(plan.name, 'docs-2', 'a name the file does not use yet');
  assert.ok(plan.text.startsWith('// Cursor\n'), plan.text);
  const root = parse(plan.text) as { mcpServers: Record<string, Record<string, unknown>>; other: number };
  assert.equal(root.other, 1);
  assert.deepEqual(Object.keys(root.mcpServers), ['docs', 'docs-2']);
  const copied = root.mcpServers['docs-2'];
  // Cursor's documented stdio fields: type (optional), command, args, env, envFile.
  for (const key of Object.keys(copied)) assert.ok(['type', 'command', 'args', 'env', 'envFile'].includes(key), key);
  assert.equal(copied.command, 'node');
  assert.deepEqual(copied.args, ['${workspaceFolder}/server.mjs', '--verbose']);
  assert.deepEqual(copied.env, { TOKEN: '${env:DOCS_TOKEN}', LEVEL: 'info' });
  assert.ok(copied.type === undefined || copied.type === 'stdio');
  // Cursor's reading of the written file gives back the same server.
  const reread = DIALECTS.cursor.read(plan.text, { path: '/w/.cursor/mcp.json', workspaceFolder: '/w' });
  assert.deepEqual(reread.problems, []);
  const again = reread.servers.find((one) => one.definition.name === 'docs-2');
  assert.ok(again?.definition.kind === 'stdio');
  assert.deepEqual(again.definition.env, { TOKEN: '${env:DOCS_TOKEN}', LEVEL: 'info' });
  assert.ok(plan.at, 'where the entry is, to open the file at it');
});

test("an HTTP server copied to Cursor's mcp.json is a url with headers", () => {
  const server = source('remote', {
    type: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { 'X-Team': '${env:TEAM}' },
  });
  const plan = planCopy(server, { dialect: 'cursor', text: '', origin: { path: '/home/me/.cursor/mcp.json' } }, words);
  assert.ok(plan.kind === 'write', JSON.stringify(plan));
  const copied = (parse(plan.text) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers.remote;
  for (const key of Object.keys(copied)) assert.ok(['type', 'url', 'headers', 'auth'].includes(key), key);
  assert.equal(copied.url, 'https://mcp.example.com/mcp');
  assert.deepEqual(copied.headers, { 'X-Team': '${env:TEAM}' });
});

test('into another .vscode/mcp.json the inputs go with the entry; an input already there is kept', () => {
  const plan = planCopy(
    withSecret,
    { dialect: 'vscode-workspace', text: '{\n  "servers": {}\n}\n', origin: { path: '/other/.vscode/mcp.json' } },
    words,
  );
  assert.ok(plan.kind === 'write', JSON.stringify(plan));
  const root = parse(plan.text) as { servers: Record<string, unknown>; inputs: InputDefinition[] };
  assert.deepEqual(
    root.inputs.map((input) => [input.id, input.password]),
    [['api-key', true]],
  );
  const twice = planCopy(
    withSecret,
    { dialect: 'vscode-workspace', text: plan.text, origin: { path: '/other/.vscode/mcp.json' } },
    words,
  );
  assert.ok(twice.kind === 'write');
  assert.equal((parse(twice.text) as { inputs: unknown[] }).inputs.length, 1);
  assert.deepEqual(Object.keys((parse(twice.text) as { servers: object }).servers), ['weather', 'weather-2']);
});

test("Codex's config.toml is read here but never written: the copy is refused", () => {
  const plan = planCopy(
    source('x', { type: 'stdio', command: 'x' }),
    { dialect: 'codex', text: '', origin: { path: '/h/.codex/config.toml' } },
    words,
  );
  assert.ok(plan.kind === 'refused');
});
