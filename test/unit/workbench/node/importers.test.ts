import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  importServers,
  knownImportSources,
  uniqueName,
  type ImportCandidate,
  type ImportResult,
  type ImportSourceKind,
} from '../../../../src/workbench/node/importers';
import { importKindForFile } from '../../../../src/workbench/node/importSources';
import { translateVariables } from '../../../../src/workbench/node/importVariables';
import { parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';
import { literalSecrets, withPasswordInputs } from '../../../../src/extension/features/config/importSecrets';
import { IMPORT_FIXTURES, importFixturePath } from '../../../fixtures/configs/importFixtures';
import { repoRoot } from '../../../support/paths';

const FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'configs');

function load(kind: ImportSourceKind, file: string, takenNames: string[] = []): ImportResult {
  const filePath = path.join(FIXTURES, file);
  return importServers(kind, readFileSync(filePath, 'utf8'), filePath, { takenNames, platform: 'linux' });
}

const byName = (result: ImportResult) => new Map(result.found.map((candidate) => [candidate.name, candidate]));

function argsOf(candidate: ImportCandidate | undefined): string[] | undefined {
  return candidate?.entry.type === 'stdio' ? candidate.entry.args : undefined;
}

test('Claude Desktop: stdio servers, numbers in env, literal ${...} and ignored url entries are noted, other keys ignored', () => {
  const result = load('claude-desktop', 'claude_desktop_config.json');
  const found = byName(result);
  assert.deepEqual([...found.keys()], ['filesystem', 'brave-search', 'templated', 'remote-docs']);
  assert.deepEqual(found.get('filesystem')?.entry, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/Users/username/Desktop', '/Users/username/Downloads'],
  });
  assert.deepEqual(found.get('filesystem')?.notes, []);
  assert.deepEqual(found.get('brave-search')?.entry, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-brave-search'],
    env: { BRAVE_API_KEY: 'BSA-example-key', APPDATA: 'C:\\Users\\user\\AppData\\Roaming\\', PORT: '8080' },
  });
  assert.match(
    found.get('templated')?.notes[0] ?? '',
    /^args\[0\]: "\$\{HOME\}\/server\.js" is passed literally by the source client, but VS Code will substitute/,
  );
  assert.deepEqual(found.get('remote-docs')?.entry, { type: 'http', url: 'https://docs.example.com/mcp' });
  assert.match(found.get('remote-docs')?.notes[0] ?? '', /Claude Desktop itself ignores "url" entries/);
  assert.deepEqual(result.skipped, [
    { name: 'broken', reason: 'missing command: the entry has local-server fields but no "command"' },
  ]);
  for (const candidate of result.found) {
    assert.equal(candidate.source, 'claude-desktop');
    assert.equal(candidate.filePath, path.join(FIXTURES, 'claude_desktop_config.json'));
  }
});

test('Cursor: comments and trailing commas, VS Code variables kept, ${pathSeparator} resolved, auth → oauth.clientId', () => {
  const result = load('cursor', 'cursor-mcp.json');
  const found = byName(result);
  assert.deepEqual(found.get('local')?.entry, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', 'mcp-server'],
    env: { API_KEY: '${env:MY_API_KEY}' },
    envFile: '${workspaceFolder}/.env',
  });
  assert.deepEqual(found.get('remote')?.entry, {
    type: 'http',
    url: 'https://example.com/mcp',
    headers: { Authorization: 'Bearer ${env:TOKEN}' },
  });
  assert.deepEqual(found.get('remote')?.definition, {
    kind: 'http',
    name: 'remote',
    url: 'https://example.com/mcp',
    headers: { Authorization: 'Bearer ${env:TOKEN}' },
    transport: 'auto',
  });
  assert.deepEqual(found.get('oauth')?.entry, {
    type: 'http',
    url: 'https://mcp.example.com/mcp',
    oauth: { clientId: '${env:CID}' },
  });
  assert.deepEqual(found.get('oauth')?.notes, [
    '"auth" imported as "oauth.clientId"; CLIENT_SECRET, scopes dropped (VS Code asks for a client secret when needed)',
  ]);
  assert.deepEqual(found.get('streamable')?.entry, { type: 'http', url: 'https://stream.example.com/mcp' });
  assert.deepEqual(argsOf(found.get('paths')), ['${workspaceFolder}/server.py', '--root=${userHome}/data']);
  assert.deepEqual(result.skipped, [
    {
      name: 'websocket',
      reason: 'unknown transport "ws" (expected stdio, local, http, streamable-http, streamableHttp or sse)',
    },
  ]);
  const windows = importServers('cursor', readFileSync(path.join(FIXTURES, 'cursor-mcp.json'), 'utf8'), 'mcp.json', {
    platform: 'win32',
  });
  assert.deepEqual(argsOf(byName(windows).get('paths')), ['${workspaceFolder}\\server.py', '--root=${userHome}\\data']);
});

test('Cline: disabled servers marked, autoApprove/timeout noted, streamableHttp, transportType, untyped url, nested CLI format', () => {
  const result = load('cline', 'cline_mcp_settings.json');
  const found = byName(result);
  const local = found.get('local-server');
  assert.deepEqual(local?.entry, {
    type: 'stdio',
    command: 'node',
    args: ['/path/to/server.js'],
    env: { API_KEY: '${env:MY_KEY}' },
    cwd: '/path',
  });
  assert.equal(local?.disabled, false);
  assert.deepEqual(local?.notes, [
    '"autoApprove" (read_file) dropped: mcp.json has no per-tool auto-approval; approve tools in MCP Workbench instead',
    '"timeout" (60 s) dropped: mcp.json has no per-server timeout',
  ]);
  const remote = found.get('remote-server');
  assert.deepEqual(remote?.entry, {
    type: 'http',
    url: 'https://example.com/mcp',
    headers: { Authorization: 'Bearer x' },
  });
  assert.equal(remote?.disabled, true);
  assert.deepEqual(
    remote?.notes,
    ['disabled in Cline: imported anyway but marked disabled'],
    'an empty autoApprove needs no note',
  );
  assert.deepEqual(found.get('legacy-sse')?.entry, { type: 'sse', url: 'http://localhost:3001/sse' });
  const legacy = found.get('legacy-sse')?.definition;
  assert.equal(legacy?.kind === 'http' ? legacy.transport : undefined, 'sse');
  assert.deepEqual(found.get('untyped-url')?.entry, { type: 'http', url: 'http://localhost:3002/events' });
  assert.match(
    found.get('untyped-url')?.notes[0] ?? '',
    /Cline treats a url without "type" as SSE; imported as "http", which tries Streamable HTTP first and falls back to SSE/,
  );
  assert.deepEqual(found.get('nested-cli')?.entry, { type: 'stdio', command: 'uvx', args: ['mcp-server-git'] });
  assert.deepEqual(found.get('nested-cli')?.notes, [
    '"autoApprove" (git_status, git_log) dropped: mcp.json has no per-tool auto-approval; approve tools in MCP Workbench instead',
    '"remoteConfigured" dropped: not a field of VS Code\'s mcp.json',
  ]);
  assert.deepEqual(result.skipped, [
    { name: 'no-command', reason: 'missing command: the entry has local-server fields but no "command"' },
    { name: 'bad-args', reason: '"args" must be an array of strings, not one string: split it into items' },
    { name: 'bad-env', reason: '"env.NESTED" must be a string, a number or null' },
  ]);
});

test('workspace .mcp.json (Claude Code): ${VAR} and ${VAR:-default} become ${env:VAR}, the dropped default is noted', () => {
  const result = load('workspace-mcp-json', 'claude-code.mcp.json');
  const found = byName(result);
  assert.deepEqual(found.get('api')?.entry, {
    type: 'http',
    url: '${env:API_BASE_URL}/mcp',
    headers: { Authorization: 'Bearer ${env:API_KEY}' },
  });
  assert.deepEqual(found.get('api')?.notes, [
    'url: default "https://api.example.com" of ${API_BASE_URL:-https://api.example.com} dropped: VS Code has no defaults; an unset API_BASE_URL becomes empty',
  ]);
  assert.deepEqual(found.get('db')?.entry, {
    type: 'stdio',
    command: 'npx',
    args: ['-y', '@bytebase/dbhub', '--dsn', '${env:DATABASE_URL}'],
  });
  assert.deepEqual(found.get('sse')?.entry, { type: 'sse', url: 'http://localhost:8080/sse' });
  assert.deepEqual(result.skipped, []);
  // The unwrapped form is accepted too.
  const bare = importServers(
    'workspace-mcp-json',
    '{ "time": { "command": "uvx", "args": ["mcp-server-time"] } }',
    '.mcp.json',
  );
  assert.deepEqual(
    bare.found.map((c) => c.name),
    ['time'],
  );
});

test('Copilot CLI: type local, bare $VAR, tools allowlist noted ("*" is not), oauthClientId carried over, names deduped', () => {
  const result = load('copilot-cli', 'copilot-mcp-config.json', ['GitHub']);
  const found = byName(result);
  assert.deepEqual(found.get('playwright')?.entry, { type: 'stdio', command: 'npx', args: ['@playwright/mcp@latest'] });
  assert.deepEqual(found.get('playwright')?.notes, []);
  const github = found.get('github-2');
  assert.equal(github?.originalName, 'github');
  assert.equal(github?.definition.name, 'github-2');
  assert.deepEqual(github?.entry, {
    type: 'http',
    url: 'https://api.githubcopilot.com/mcp/',
    headers: { Authorization: 'Bearer ${env:GITHUB_PERSONAL_ACCESS_TOKEN}' },
  });
  assert.deepEqual(github?.notes, [
    'renamed to "github-2": a server named "github" already exists',
    '"tools" allowlist (get_issue, list_issues) dropped: every tool of the server is available',
  ]);
  assert.deepEqual(found.get('sentry')?.entry, {
    type: 'http',
    url: 'https://mcp.sentry.dev/mcp',
    oauth: { clientId: 'abc123' },
  });
});

test('Windsurf: serverUrl, disabled and disabledTools', () => {
  const found = byName(load('windsurf', 'windsurf-mcp_config.json'));
  assert.deepEqual(found.get('figma')?.entry, { type: 'http', url: 'https://mcp.figma.com/mcp' });
  assert.deepEqual(found.get('git')?.disabled, true);
  assert.deepEqual(found.get('git')?.notes, [
    'disabled in Windsurf: imported anyway but marked disabled',
    '"disabledTools" (git_push) dropped: disable tools in MCP Workbench instead',
  ]);
});

test('every imported entry written into mcp.json loads back as the same definition', () => {
  const taken: string[] = [];
  const servers: Record<string, unknown> = {};
  const expected = [];
  for (const [kind, file] of IMPORT_FIXTURES) {
    const filePath = importFixturePath(file);
    for (const candidate of importServers(kind, readFileSync(filePath, 'utf8'), filePath, {
      takenNames: taken,
      platform: 'linux',
    }).found) {
      taken.push(candidate.name);
      servers[candidate.name] = candidate.entry;
      expected.push(candidate.definition);
    }
  }
  assert.equal(new Set(taken).size, taken.length, 'names are unique across sources');
  const parsed = parseMcpConfig(JSON.stringify({ servers }));
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.servers, expected);
});

test('whole-file problems: invalid JSON with line and column, wrong shapes, empty files', () => {
  const broken = '{\n  "mcpServers": {\n    "a": { "command": "node" }\n    "b": {}\n  }\n}\n';
  assert.deepEqual(importServers('claude-desktop', broken, '/c/config.json'), {
    found: [],
    skipped: [{ name: '/c/config.json', reason: 'invalid JSON: expected a comma at line 4, column 5' }],
  });
  assert.deepEqual(importServers('cursor', '[]', 'x.json').skipped, [
    { name: 'x.json', reason: 'the file must contain a JSON object' },
  ]);
  assert.deepEqual(importServers('cursor', '{ "mcpServers": [] }', 'x.json').skipped, [
    { name: 'x.json', reason: '"mcpServers" must be an object that maps names to servers' },
  ]);
  assert.deepEqual(importServers('cursor', '', 'x.json'), { found: [], skipped: [] });
  assert.deepEqual(importServers('claude-desktop', '{ "preferences": {} }', 'x.json'), { found: [], skipped: [] });
  // VS Code's own "servers" key is accepted too.
  assert.deepEqual(
    importServers('cursor', '{ "servers": { "a": { "command": "node" } } }', 'x.json').found.map((c) => c.name),
    ['a'],
  );
});

test('entry-level skip reasons', () => {
  const text = JSON.stringify({
    mcpServers: {
      notObject: 'npx server',
      empty: {},
      blankCommand: { command: '  ' },
      noUrl: { type: 'http' },
      badUrl: { type: 'sse', url: 'localhost:3000/sse' },
      badHeaders: { url: 'https://x.example/mcp', headers: { Authorization: ['a'] } },
      badCwd: { command: 'node', cwd: 5 },
      both: { command: 'node', url: 'https://x.example/mcp' },
    },
  });
  const result = importServers('cursor', text, 'x.json');
  assert.deepEqual(result.skipped, [
    { name: 'notObject', reason: 'the definition must be an object' },
    { name: 'empty', reason: 'missing "command" (for a local server) or "url" (for a remote one)' },
    { name: 'blankCommand', reason: 'missing command: a local (stdio) server needs a non-empty "command" string' },
    { name: 'noUrl', reason: 'missing url: a remote (http) server needs a non-empty "url" string' },
    { name: 'badUrl', reason: 'invalid url "localhost:3000/sse": expected http(s)://, unix:// or pipe://' },
    { name: 'badHeaders', reason: '"headers.Authorization" must be a string' },
    { name: 'badCwd', reason: '"cwd" must be a string' },
  ]);
  assert.deepEqual(
    result.found.map((c) => [c.name, c.entry.type, c.notes]),
    [['both', 'stdio', ['"url" ignored: the entry also has "command", so it was imported as a local server']]],
  );
});

test('uniqueName adds the first free numeric suffix, ignoring case', () => {
  assert.equal(uniqueName('fs', []), 'fs');
  assert.equal(uniqueName('fs', ['fs']), 'fs-2');
  assert.equal(uniqueName('fs', ['FS', 'fs-2', 'Fs-3']), 'fs-4');
  assert.equal(uniqueName('fs-2', ['fs-2']), 'fs-2-2');
  assert.equal(uniqueName('', []), 'server');
  assert.equal(uniqueName('a', new Set(['b'])), 'a');
});

test('translateVariables per dialect', () => {
  assert.deepEqual(translateVariables('$HOME/x ${env:A} ${B}', 'shell', 'args[0]', '/'), {
    value: '${env:HOME}/x ${env:A} ${env:B}',
    notes: [],
  });
  assert.deepEqual(translateVariables('$HOME', 'shell-braced', 'w', '/'), { value: '$HOME', notes: [] });
  assert.deepEqual(translateVariables('${command:pick}', 'vscode', 'args[1]', '/'), {
    value: '${command:pick}',
    notes: ['args[1]: unknown variable ${command:pick} kept as is; it will fail to resolve when the server starts'],
  });
  assert.deepEqual(translateVariables('${input:key}', 'vscode', 'w', '/'), { value: '${input:key}', notes: [] });
  assert.deepEqual(translateVariables('plain', 'literal', 'w', '/'), { value: 'plain', notes: [] });
});

test('knownImportSources: per-OS paths for every source', () => {
  const mac = knownImportSources('darwin', '/Users/me', ['/Users/me/proj']);
  const paths = (kind: ImportSourceKind) => mac.filter((s) => s.kind === kind).map((s) => s.path);
  assert.deepEqual(paths('claude-desktop'), [
    '/Users/me/Library/Application Support/Claude/claude_desktop_config.json',
  ]);
  assert.deepEqual(paths('cursor'), ['/Users/me/proj/.cursor/mcp.json', '/Users/me/.cursor/mcp.json']);
  assert.deepEqual(paths('windsurf'), ['/Users/me/.codeium/windsurf/mcp_config.json']);
  assert.deepEqual(paths('workspace-mcp-json'), ['/Users/me/proj/.mcp.json']);
  assert.deepEqual(paths('copilot-cli'), ['/Users/me/.copilot/mcp-config.json']);
  assert.ok(
    paths('cline').includes(
      '/Users/me/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    ),
  );
  assert.ok(paths('cline').includes('/Users/me/Documents/Cline/MCP/cline_mcp_settings.json'));
  assert.ok(paths('cline').includes('/Users/me/.cline/data/settings/cline_mcp_settings.json'));
  assert.deepEqual(mac.find((s) => s.kind === 'cursor')?.scope, 'workspace');
  assert.equal(mac.find((s) => s.kind === 'cursor')?.workspaceFolder, '/Users/me/proj');

  const win = knownImportSources('win32', 'C:\\Users\\me', ['C:\\src\\app'], {
    APPDATA: 'C:\\Users\\me\\AppData\\Roaming',
  });
  assert.equal(
    win.find((s) => s.kind === 'claude-desktop')?.path,
    'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
  );
  assert.equal(win.find((s) => s.kind === 'cursor')?.path, 'C:\\src\\app\\.cursor\\mcp.json');
  assert.ok(
    win.some(
      (s) =>
        s.path ===
        'C:\\Users\\me\\AppData\\Roaming\\Code - Insiders\\User\\globalStorage\\saoudrizwan.claude-dev\\settings\\cline_mcp_settings.json',
    ),
  );
  assert.equal(
    knownImportSources('win32', 'C:\\Users\\me', []).find((s) => s.kind === 'claude-desktop')?.path,
    'C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
  );

  const linux = knownImportSources('linux', '/home/me', [], {
    XDG_CONFIG_HOME: '/home/me/.xdg',
    CLINE_MCP_SETTINGS_PATH: '/opt/cline.json',
    CLINE_DIR: '/opt/cline',
  });
  assert.equal(linux.find((s) => s.kind === 'claude-desktop')?.path, '/home/me/.xdg/Claude/claude_desktop_config.json');
  assert.deepEqual(
    linux
      .filter((s) => s.kind === 'cline')
      .slice(0, 2)
      .map((s) => s.path),
    ['/opt/cline.json', '/opt/cline/data/settings/cline_mcp_settings.json'],
  );
  assert.ok(
    linux.some(
      (s) => s.path === '/home/me/.xdg/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    ),
  );
  assert.equal(
    knownImportSources('linux', '/home/me', []).find((s) => s.kind === 'claude-desktop')?.path,
    '/home/me/.config/Claude/claude_desktop_config.json',
  );
  assert.equal(new Set(linux.map((s) => s.label)).size, linux.length, 'labels tell the sources apart');
});

test('importKindForFile: a file a person picks is read in the dialect its name and folder say', () => {
  assert.equal(importKindForFile('/home/a/.cursor/mcp.json'), 'cursor');
  assert.equal(importKindForFile('C:\\Users\\a\\.codeium\\windsurf\\mcp_config.json'), 'windsurf');
  assert.equal(importKindForFile('/x/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json'), 'cline');
  assert.equal(importKindForFile('/repo/.mcp.json'), 'workspace-mcp-json');
  assert.equal(importKindForFile('/home/a/.copilot/mcp-config.json'), 'copilot-cli');
  assert.equal(importKindForFile('/somewhere/servers.json'), 'claude-desktop');
});

test('a literal Bearer token or API key from another client becomes a password input; placeholders stay as they are', () => {
  const remote = {
    type: 'http' as const,
    url: 'https://example.com/mcp',
    headers: { Authorization: 'Bearer sk-secret', 'X-Trace': 'on', 'X-Api-Key': '${env:KEY}' },
  };
  assert.deepEqual(literalSecrets(remote), [{ where: 'headers', key: 'Authorization' }]);
  const converted = withPasswordInputs('docs', remote);
  assert.deepEqual(converted.entry, {
    ...remote,
    headers: { Authorization: 'Bearer ${input:docs-authorization}', 'X-Trace': 'on', 'X-Api-Key': '${env:KEY}' },
  });
  assert.deepEqual(converted.inputs, [
    { type: 'promptString', id: 'docs-authorization', description: 'Authorization of docs', password: true },
  ]);
  assert.ok(!JSON.stringify(converted).includes('sk-secret'), 'the token is still written');
  const local = {
    type: 'stdio' as const,
    command: 'npx',
    env: { BRAVE_API_KEY: 'BSA-example-key', PORT: '8080', GITHUB_TOKEN: '${input:gh}' },
  };
  const again = withPasswordInputs('brave', local, ['brave-brave_api_key']);
  assert.deepEqual(again.entry, {
    ...local,
    env: { BRAVE_API_KEY: '${input:brave-brave_api_key-2}', PORT: '8080', GITHUB_TOKEN: '${input:gh}' },
  });
  assert.deepEqual(withPasswordInputs('plain', { type: 'stdio', command: 'node' }).inputs, []);
});
