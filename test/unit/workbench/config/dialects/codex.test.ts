import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIALECTS } from '../../../../../src/workbench/config/dialects';
import { parseToml } from '../../../../../src/workbench/config/dialects/toml';

const CONFIG = `# Codex settings
model = "o4"

[mcp_servers.docs]
command = "npx"   # trailing comment
args = [
  "-y",
  '@acme/docs-mcp', # literal string
]
env = { "API_KEY" = "k", DEBUG = "1" }
startup_timeout_sec = 20

[mcp_servers."remote.one"]
url = "https://r.example/mcp"
bearer_token_env_var = "R_TOKEN"
http_headers = { "X-Team" = "a" }
enabled = false

[mcp_servers.nothing]
cwd = "/tmp"
`;

test('Codex config.toml: local and remote servers, headers from variables, unsupported fields and refusals noted', () => {
  const result = DIALECTS.codex.read(CONFIG, { path: '/h/.codex/config.toml' });
  const [docs, remote] = result.servers;
  assert.deepEqual(docs.definition, {
    kind: 'stdio',
    name: 'docs',
    command: 'npx',
    args: ['-y', '@acme/docs-mcp'],
    env: { API_KEY: 'k', DEBUG: '1' },
    cwd: undefined,
    envFile: undefined,
  });
  assert.match(docs.notes.join(), /"startup_timeout_sec" not honoured/);
  assert.equal(docs.at?.line, 4);
  assert.equal(remote.definition.name, 'remote.one');
  assert.deepEqual(remote.definition.kind === 'http' && remote.definition.headers, {
    'X-Team': 'a',
    Authorization: 'Bearer ${env:R_TOKEN}',
  });
  assert.match(remote.notes.join(), /turned off in Codex/);
  assert.equal(remote.at?.line, 13);
  assert.deepEqual(
    result.problems.map((p) => [p.server, p.at?.line]),
    [['nothing', 19]],
  );
});

test('TOML: multi-line strings, escapes and arrays of tables; errors name the line; nesting is bounded', () => {
  const parsed = parseToml('a = """\nline\\n two"""\nb = "\\u00e9\\t"\n[[x]]\nn = 1\n[[x]]\nn = 2_000\n');
  assert.deepEqual('value' in parsed && parsed.value, { a: 'line\n two', b: 'é\t', x: [{ n: 1 }, { n: 2000 }] });
  const broken = parseToml('[mcp_servers.a]\ncommand = "x\n');
  assert.ok('problem' in broken && broken.problem.line === 2, JSON.stringify(broken));
  const twice = parseToml('a = 1\na = 2\n');
  assert.ok('problem' in twice && /defined twice/.test(twice.problem.reason));
  const deep = parseToml(`a = ${'['.repeat(100_000)}`);
  assert.ok('problem' in deep && /nested more than/.test(deep.problem.reason));
});
