import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIALECTS, dialectForFile, type Dialect, type DialectRead } from '../../../../../src/workbench/config/dialects';
import { hasSyntaxErrors, parseMcpConfig, type ServerDefinition } from '../../../../../src/workbench/config/mcpConfig';
import { resolveVariables } from '../../../../../src/workbench/config/variables';

const origin = { path: '/repo/x', workspaceFolder: '/repo' };
const read = (dialect: Dialect, text: string): DialectRead => dialect.read(text, origin);
const names = (result: DialectRead) => result.servers.map((server) => server.definition.name);
const server = (result: DialectRead, name: string) => {
  const found = result.servers.find((item) => item.definition.name === name);
  assert.ok(found, `${name} in ${JSON.stringify(result)}`);
  return found;
};
const stdio = (command: string, args: string[] = [], extra: Partial<ServerDefinition> = {}): ServerDefinition =>
  ({ kind: 'stdio', name: 's', command, args, env: {}, ...extra }) as ServerDefinition;

test('.mcp.json: both shapes, every type VS Code accepts, inputs refused, fields VS Code does not read are notes', () => {
  const wrapped = read(
    DIALECTS['dot-mcp'],
    `{
      // project servers
      "inputs": [{ "type": "promptString", "id": "k" }],
      "mcpServers": {
        "a": { "type": "stdio", "command": "node", "args": ["a.js"] },
        "b": { "type": "local", "command": "b", "cwd": "/tmp" },
        "c": { "type": "http", "url": "https://c.example/mcp" },
        "d": { "type": "sse", "url": "https://d.example/sse" },
        "e": { "type": "streamable-http", "url": "https://e.example/mcp" },
        "f": { "type": "websocket", "url": "wss://f" }
      }
    }`,
  );
  assert.deepEqual(names(wrapped), ['a', 'b', 'c', 'd', 'e']);
  const d = server(wrapped, 'd').definition;
  assert.equal(d.kind === 'http' && d.transport, 'sse');
  assert.match(server(wrapped, 'b').notes.join('\n'), /"cwd" not read: \.mcp\.json holds only/);
  const b = server(wrapped, 'b').definition;
  assert.equal(b.kind === 'stdio' && b.cwd, undefined);
  assert.ok(wrapped.problems.some((p) => /"inputs" is not supported/.test(p.message)));
  const bad = wrapped.problems.find((p) => p.server === 'f');
  assert.match(bad?.message ?? '', /unknown server type "websocket"/);
  assert.equal(bad?.at?.line, 10, 'the row opens the file at the entry');
  const bare = read(DIALECTS['dot-mcp'], '{ "x": { "command": "x" }, "y": { "url": "https://y.example" } }');
  assert.deepEqual(names(bare), ['x', 'y']);
});

test("Claude Code: user and this folder's project servers; ${VAR:-default} is honoured; the project entry wins", async () => {
  const text = JSON.stringify({
    numStartups: 3,
    mcpServers: {
      shared: { command: 'user-version' },
      mine: { type: 'stdio', command: 'tool', env: { TOKEN: '${API_TOKEN:-fallback}' } },
    },
    projects: {
      '/repo': { mcpServers: { shared: { command: 'project-version' } } },
      '/other': { mcpServers: { elsewhere: { command: 'no' } } },
    },
  });
  const result = read(DIALECTS['claude-code'], text);
  assert.deepEqual(names(result).sort(), ['mine', 'shared']);
  const shared = server(result, 'shared').definition;
  assert.equal(shared.kind === 'stdio' && shared.command, 'project-version');
  assert.ok(result.problems.some((p) => p.server === 'shared' && /takes precedence/.test(p.message)));
  const mine = server(result, 'mine').definition;
  assert.ok(mine.kind === 'stdio');
  const context = { userHome: '/h', input: async () => undefined };
  assert.equal(await resolveVariables(mine.env.TOKEN ?? '', { ...context, env: {} }), 'fallback');
  assert.equal(await resolveVariables(mine.env.TOKEN ?? '', { ...context, env: { API_TOKEN: 'set' } }), 'set');
});

test('Copilot: local type, the tools allow-list (kept on the server, not dropped) and oauthClientId are read', () => {
  const result = read(
    DIALECTS.copilot,
    JSON.stringify({
      mcpServers: {
        all: { type: 'local', command: 'x', tools: ['*'] },
        some: { type: 'local', command: 'y', tools: ['read', 'list'] },
        remote: { type: 'http', url: 'https://r.example/mcp', oauthClientId: 'cid', tools: ['*'] },
      },
    }),
  );
  assert.deepEqual(server(result, 'all').notes, []);
  assert.equal(server(result, 'all').allowedTools, undefined, '"*" is every tool');
  assert.deepEqual(server(result, 'some').allowedTools, ['read', 'list']);
  assert.deepEqual(server(result, 'some').notes, [], 'honoured, not "dropped"');
  const remote = server(result, 'remote').definition;
  assert.equal(remote.kind === 'http' && remote.oauth?.clientId, 'cid');
});

test('Cursor, Claude Desktop, .github/mcp.json and the draft standard read as their clients read them', () => {
  const cursor = read(
    DIALECTS.cursor,
    '{"mcpServers":{"l":{"command":"n","envFile":"${workspaceFolder}/.env","env":{"K":"${env:K}"}},"r":{"url":"https://r"}}}',
  );
  const local = server(cursor, 'l').definition;
  assert.equal(local.kind === 'stdio' && local.envFile, '${workspaceFolder}/.env');
  assert.equal(server(cursor, 'r').definition.kind, 'http');
  const desktop = read(
    DIALECTS['claude-desktop'],
    '{"preferences":{},"mcpServers":{"fs":{"command":"npx","args":["${HOME}"]},"u":{"url":"https://u"}}}',
  );
  assert.match(server(desktop, 'fs').notes.join(), /passed literally/);
  assert.match(server(desktop, 'u').notes.join(), /Claude Desktop itself ignores "url"/);
  const github = read(DIALECTS.github, '{"mcpServers":{"g":{"type":"local","command":"g","tools":["*"]}}}');
  assert.deepEqual(names(github), ['g']);
  const standard = read(
    DIALECTS.standard,
    '{"mcpServers":{"s":{"type":"stdio","command":"s","env":{"A":"${env:A|dflt}","B":"${value:lit}"}},"n":{"command":"n"}}}',
  );
  const s = server(standard, 's').definition;
  assert.deepEqual(s.kind === 'stdio' && s.env, { A: '${env:A:-dflt}', B: 'lit' });
  assert.match(standard.problems.find((p) => p.server === 'n')?.message ?? '', /"type" is required/);
});

test('VS Code family: .code-workspace mcp, devcontainer customizations and the user file, with inputs and spots', () => {
  const workspace = read(
    DIALECTS['code-workspace'],
    `{ "folders": [{ "path": "." }],
       "mcp": { "inputs": [{ "type": "promptString", "id": "t", "password": true }],
                "servers": { "w": { "command": "w", "env": { "T": "\${input:t}" } }, "bad": { "type": "http" } } } }`,
  );
  assert.deepEqual(names(workspace), ['w']);
  assert.deepEqual(
    workspace.inputs.map((i) => i.id),
    ['t'],
  );
  assert.equal(workspace.problems.find((p) => p.server === 'bad')?.at?.line, 3);
  const container = read(
    DIALECTS.devcontainer,
    '{"image":"x","customizations":{"vscode":{"mcp":{"servers":{"c":{"url":"https://c"}}}}}}',
  );
  assert.deepEqual(names(container), ['c']);
  assert.deepEqual(names(read(DIALECTS['vscode-user'], '{"servers":{"u":{"command":"u"}}}')), ['u']);
});

test('a half-written file is a syntax problem (the host keeps the last good servers); a huge one is refused', () => {
  for (const dialect of Object.values(DIALECTS)) {
    const half = dialect.id === 'codex' ? '[mcp_servers.a]\ncommand = "x' : '{"mcpServers": {"a": {"command": "x"';
    const result = read(dialect, half);
    assert.equal(result.servers.length, 0, dialect.id);
    assert.ok(hasSyntaxErrors({ ...result, servers: [] }), `${dialect.id}: ${JSON.stringify(result.problems)}`);
  }
  const huge = `{"mcpServers":{"a":{"command":"x","args":["${'x'.repeat(1024 * 1024)}"]}}}`;
  const refused = read(DIALECTS.cursor, huge);
  assert.equal(refused.servers.length, 0);
  assert.match(refused.problems[0]?.message ?? '', /over the 1024 KB/);
});

test('write + add round trip: comments and order survive, and the entry reads back as the same server', () => {
  const definition = stdio('node', ['server.js', '--port', '1'], { env: { KEY: '${env:KEY}' } });
  const files: Partial<Record<Dialect['id'], string>> = {
    'dot-mcp': '{\n  // keep me\n  "mcpServers": {\n    "first": { "command": "a" } // and me\n  }\n}\n',
    cursor: '{\n  "mcpServers": {\n    // cursor comment\n    "first": { "command": "a" }\n  }\n}\n',
    copilot: '{\n  "mcpServers": {\n    "first": { "type": "local", "command": "a", "tools": ["*"] } // c\n  }\n}\n',
    'claude-code': '{\n  "numStartups": 1, // c\n  "projects": { "/repo": { "mcpServers": {} } }\n}\n',
    'vscode-workspace': '{\n  // c\n  "servers": {\n    "first": { "command": "a" }\n  }\n}\n',
    'code-workspace': '{\n  "folders": [], // c\n  "mcp": { "servers": {} }\n}\n',
    devcontainer: '{\n  "image": "x", // c\n  "customizations": {}\n}\n',
    standard: '{\n  // c\n  "mcpServers": {}\n}\n',
  };
  for (const [id, text] of Object.entries(files)) {
    const dialect = DIALECTS[id as Dialect['id']];
    const written = dialect.id === 'dot-mcp' ? dialect.write(stdio('node', ['server.js'])) : dialect.write(definition);
    assert.ok('entry' in written, `${id}: ${JSON.stringify(written)}`);
    const edited = dialect.add?.(text, 'added', written.entry, origin) ?? '';
    for (const line of text.split('\n').filter((l) => l.includes('//'))) {
      const comment = line.slice(line.indexOf('//'));
      assert.ok(edited.includes(comment), `${id} lost ${comment}:\n${edited}`);
    }
    const back = server(read(dialect, edited), 'added').definition;
    assert.equal(back.kind === 'stdio' && back.command, 'node', id);
    if (text.includes('"first"')) assert.ok(edited.indexOf('"first"') < edited.indexOf('"added"'), id);
  }
  // An empty file becomes one the client reads.
  assert.deepEqual(
    names(read(DIALECTS['dot-mcp'], DIALECTS['dot-mcp'].add?.('', 'n', { command: 'n' }, origin) ?? '')),
    ['n'],
  );
  // A bare-map .mcp.json stays a bare map.
  const bare = DIALECTS['dot-mcp'].add?.('{\n  "x": { "command": "x" }\n}\n', 'y', { command: 'y' }, origin) ?? '';
  assert.ok(!bare.includes('mcpServers'), bare);
  assert.deepEqual(names(read(DIALECTS['dot-mcp'], bare)), ['x', 'y']);
});

test('writing refuses, with the reason, what the target cannot express', () => {
  const secret = stdio('tool', [], { env: { TOKEN: '${input:token}' } });
  const refusal = (dialect: Dialect, definition: ServerDefinition) => {
    const result = dialect.write(definition);
    assert.ok('refused' in result, `${dialect.id} should refuse: ${JSON.stringify(result)}`);
    return result.refused.join('\n');
  };
  assert.match(
    refusal(DIALECTS['dot-mcp'], secret),
    /env.TOKEN: \$\{input:token\} is a prompted value \(an input\); \.mcp\.json has no inputs/,
  );
  assert.match(refusal(DIALECTS.cursor, secret), /a prompted value \(an input\); Cursor has no inputs/);
  assert.match(refusal(DIALECTS['claude-desktop'], stdio('x', [], { cwd: '/w' })), /no "cwd"/);
  const remote: ServerDefinition = { kind: 'http', name: 'r', url: 'https://r', headers: {}, transport: 'auto' };
  assert.match(refusal(DIALECTS['claude-desktop'], remote), /only local \(command\) servers/);
  assert.match(refusal(DIALECTS.codex, remote), /read here, not written/);
  assert.match(refusal(DIALECTS['claude-code'], stdio('x', [], { envFile: '.env' })), /no "envFile"/);
  const vscode = DIALECTS['vscode-workspace'].write(secret);
  assert.ok('entry' in vscode && JSON.stringify(vscode.entry).includes('${input:token}'));
  const claude = DIALECTS['claude-code'].write(stdio('x', [], { env: { A: '${env:A}' } }));
  assert.deepEqual('entry' in claude && claude.entry.env, { A: '${A}' });
  const cursorRemote = DIALECTS.cursor.write({ ...remote, oauth: { clientId: 'c' } });
  assert.deepEqual('entry' in cursorRemote && cursorRemote.entry.auth, { CLIENT_ID: 'c' });
});

test('the dialect is found from the file name, then the shape', () => {
  const id = (file: string, text?: string) => dialectForFile(file, text).id;
  assert.equal(id('/r/.vscode/mcp.json'), 'vscode-workspace');
  assert.equal(id('/r/.mcp.json'), 'dot-mcp');
  assert.equal(id('/r/.github/mcp.json'), 'github');
  assert.equal(id('/h/.copilot/mcp-config.json'), 'copilot');
  assert.equal(id('/r/.cursor/mcp.json'), 'cursor');
  assert.equal(id('/h/.claude.json'), 'claude-code');
  assert.equal(id('C:\\Users\\p\\AppData\\Roaming\\Claude\\claude_desktop_config.json'), 'claude-desktop');
  assert.equal(id('/h/.codex/config.toml'), 'codex');
  assert.equal(id('/r/app.code-workspace'), 'code-workspace');
  assert.equal(id('/r/.devcontainer/devcontainer.json'), 'devcontainer');
  assert.equal(id('/h/.config/Code/User/mcp.json'), 'vscode-user');
  assert.equal(id('/x/mcp.json', '{"mcpServers":{"a":{"type":"stdio","command":"a"}}}'), 'standard');
  assert.equal(id('/x/servers.json', '{"mcpServers":{"a":{"command":"a"}}}'), 'cursor');
  assert.equal(id('/x/servers.json', '{"servers":{"a":{"command":"a"}}}'), 'vscode-workspace');
});

test(".vscode/mcp.json reads exactly as parseMcpConfig does (today's behaviour is unchanged)", () => {
  const text = '{ "inputs": [], "servers": { "a": { "command": "a" }, "b": { "type": "htp" } } }';
  const read1 = read(DIALECTS['vscode-workspace'], text);
  const read2 = parseMcpConfig(text);
  assert.deepEqual(
    read1.servers.map((s) => s.definition),
    read2.servers,
  );
  assert.deepEqual(read1.problems, read2.problems);
});
