/**
 * The host-neutral guards behind consent: the URL a person approves is the URL that opens, consent dialogs show
 * hidden characters, grants are keyed by a server's identity, one server's flood of review requests is refused
 * without touching another's, and values from the person's data are collected at resolution and masked by value.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { McpClient } from '../../../src/protocol/client';
import { McpError } from '../../../src/protocol/errors';
import { StdioTransport } from '../../../src/protocol/node/stdio';
import type { ServerDefinition } from '../../../src/workbench/config/mcpConfig';
import { planStdioLaunch, previewServerDefinition, resolveServerWithSecrets } from '../../../src/workbench/node/launch';
import { SamplingCoordinator, type SamplingReviewer } from '../../../src/workbench/sampling/coordinator';
import { OpenAiCompatibleProvider } from '../../../src/workbench/sampling/openaiProvider';
import { MemoryPolicyStorage, SamplingPolicies } from '../../../src/workbench/sampling/policy';
import { ReviewQueue } from '../../../src/workbench/sampling/reviewQueue';
import { startOpenAiServer } from '../../fixtures/openai/openaiServer';
import { REPO_ROOT } from '../../support/testSupport';
import { maskText, MASK } from '../../../src/workbench/secrets';
import { isBareNameKey, lookupByIdentity, serverIdentityKey } from '../../../src/workbench/serverIdentity';
import { checkExternalUrl, escapeForDisplay } from '../../../src/workbench/urlPolicy';

test('checkExternalUrl: the string to show and to open is one normalised value', () => {
  const verdict = checkExternalUrl('HTTPS://Example.COM:443/a/../b?q=1#top');
  assert.deepEqual(verdict, { kind: 'allowed', url: 'https://example.com/b?q=1#top', host: 'example.com' });
  assert.deepEqual(checkExternalUrl('http://localhost:8080/cb'), {
    kind: 'allowed',
    url: 'http://localhost:8080/cb',
    host: 'localhost:8080',
  });
});

test('checkExternalUrl refuses URLs whose text can show one host and open another', () => {
  const cases: [string, string][] = [
    ['https://accounts.example.com@evil.example/login', 'userinfo'],
    ['https://user:pw@evil.example/', 'userinfo'],
    ['https://:pw@evil.example/', 'userinfo'],
    ['https://@evil.example/', 'userinfo'],
    ['https://good.example\\@evil.example/', 'backslash'],
    ['https:\\\\evil.example/', 'backslash'],
    ['https://evil.example/\u202Elmth.xe', 'control-character'],
    ['https://good.example\u0000.evil.example/', 'control-character'],
    ['https://good.example/\nhttps://evil.example', 'control-character'],
    ['https://good.example/ path', 'control-character'],
    ['https://goo\u200Bgle.com/', 'control-character'],
    ['javascript:alert(1)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['vscode://ms-vscode.remote/x', 'scheme'],
    ['not a url', 'control-character'],
    ['example.com/no-scheme', 'unparsable'],
    ['', 'missing'],
  ];
  for (const [url, reason] of cases) {
    const verdict = checkExternalUrl(url);
    assert.equal(verdict.kind, 'refused', `${JSON.stringify(url)} must be refused`);
    assert.equal(verdict.kind === 'refused' && verdict.reason, reason, JSON.stringify(url));
  }
  assert.equal(checkExternalUrl(42).kind, 'refused');
  // What the extension words the refusal from (sayUrlRefusal), not the English detail.
  assert.deepEqual(pick(checkExternalUrl('https://evil.example/\u202Elmth.xe')), ['control-character', '\\u202E']);
  assert.deepEqual(pick(checkExternalUrl('file:///etc/passwd')), ['scheme', 'file:']);
});

function pick(verdict: ReturnType<typeof checkExternalUrl>): [string, string] | undefined {
  if (verdict.kind !== 'refused') return undefined;
  if (verdict.reason === 'control-character') return [verdict.reason, verdict.character];
  if (verdict.reason === 'scheme') return [verdict.reason, verdict.scheme];
  return [verdict.reason, ''];
}

test('escapeForDisplay writes control, bidi and zero-width characters as \\uXXXX', () => {
  assert.equal(escapeForDisplay('run-\u202Egpj.exe'), 'run-\\u202Egpj.exe');
  assert.equal(escapeForDisplay('line1\nline2\ttab'), 'line1\\u000Aline2\\u0009tab');
  assert.equal(escapeForDisplay('a\u200Bb\u2066c\uFEFF'), 'a\\u200Bb\\u2066c\\uFEFF');
  // A literal backslash-u cannot pass for an escaped character.
  assert.equal(escapeForDisplay('\\u202E'), '\\\\u202E');
  assert.equal(escapeForDisplay('node server.js --port 3000'), 'node server.js --port 3000');
});

test('identity keys: a workspace server named like a user server finds none of its entries', () => {
  const user = serverIdentityKey({ scope: 'user', name: 'github' });
  const workspace = serverIdentityKey({ scope: 'workspace', configPath: '/repo/.vscode/mcp.json', name: 'github' });
  assert.equal(user, 'user#github');
  assert.equal(workspace, 'workspace:/repo/.vscode/mcp.json#github');
  const legacy = { github: 'always' };
  assert.equal(lookupByIdentity(legacy, user), 'always', 'a bare name still applies to the user-level server');
  assert.equal(lookupByIdentity(legacy, workspace), undefined, 'but never to a workspace server');
  assert.equal(lookupByIdentity({ [workspace]: 'never', github: 'always' }, workspace), 'never');
  assert.equal(
    lookupByIdentity({ 'user#github': 'ask', github: 'always' }, user),
    'ask',
    'the identity key wins over the bare name',
  );
  assert.equal(lookupByIdentity({ constructor: 'always' }, 'workspace:/x#constructor'), undefined);
  assert.equal(lookupByIdentity({}, 'user#toString'), undefined);
  assert.ok(isBareNameKey('github') && !isBareNameKey(user) && !isBareNameKey(workspace));
});

test('ReviewQueue refuses a flood from one server with -32603 and still lines up another server', async () => {
  const queue = new ReviewQueue<string>({ maxPendingPerServer: 3 });
  const never = new AbortController();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const held = [0, 1, 2].map((index) =>
    queue.run('flood', `f${index}`, never.signal, () => gate.then(() => index), 'workspace:/w#flood'),
  );
  await assert.rejects(
    queue.run('flood', 'f3', never.signal, async () => 3, 'workspace:/w#flood'),
    (error: unknown) =>
      error instanceof McpError && error.code === -32603 && /too many requests from flood/.test(error.message),
  );
  assert.equal(queue.size, 3, 'the refused request never entered the queue');
  const other = queue.run('calm', 'c0', never.signal, async () => 'calm answered', 'user#calm');
  assert.equal(queue.size, 4);
  release();
  assert.deepEqual(await Promise.all(held), [0, 1, 2]);
  assert.equal(await other, 'calm answered');
  // Once the person answered, the server may ask again.
  assert.equal(await queue.run('flood', 'again', never.signal, async () => 'ok', 'workspace:/w#flood'), 'ok');
});

test('resolveServerWithSecrets collects envFile, ${env:}, ${input:} and header values whatever their names', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'mcpw-secrets-'));
  const envFile = path.join(folder, '.env');
  await writeFile(envFile, 'SHADE=envfile-value-123\nEMPTY=\n');
  const stdio: ServerDefinition = {
    kind: 'stdio',
    name: 'colourful',
    command: process.execPath,
    args: ['--flag=${input:color}'],
    env: { COLOR: '${env:MCPW_UNIT_SECRET}', PLAIN: 'visible', API_TOKEN: 'literal-token-000' },
    envFile,
  } as ServerDefinition;
  const context = {
    userHome: os.homedir(),
    env: { MCPW_UNIT_SECRET: 'from-env-456' },
    input: async () => 'typed-input-789',
  };
  const { resolved, secrets } = await resolveServerWithSecrets(stdio, context);
  assert.ok(resolved.kind === 'stdio');
  assert.equal(resolved.env.COLOR, 'from-env-456');
  assert.deepEqual(
    new Set(secrets),
    new Set(['envfile-value-123', 'from-env-456', 'typed-input-789', 'literal-token-000']),
  );
  const line = `spawned with COLOR=from-env-456 SHADE=envfile-value-123 --flag=typed-input-789 PLAIN=visible`;
  assert.equal(maskText(line, secrets), `spawned with COLOR=${MASK} SHADE=${MASK} --flag=${MASK} PLAIN=visible`);

  const http: ServerDefinition = {
    kind: 'http',
    name: 'tenant',
    url: 'https://mcp.example/${input:tenant}',
    headers: { 'X-Colour': 'literal-header-value' },
    transport: 'auto',
  };
  const fromHttp = await resolveServerWithSecrets(http, { ...context, input: async () => 'tenant-abc' });
  assert.deepEqual(new Set(fromHttp.secrets), new Set(['tenant-abc', 'literal-header-value']));
});

test('previewServerDefinition asks nothing and reads no file', async () => {
  const definition = {
    kind: 'stdio',
    name: 'preview',
    command: 'node',
    args: ['${input:token}'],
    env: { HOME_DIR: '${userHome}', COLOR: '${env:MCPW_PREVIEW}' },
    envFile: '${userHome}/does-not-exist/.env',
  } as ServerDefinition;
  const { resolved: preview, secrets } = await previewServerDefinition(definition, {
    userHome: '/home/someone',
    env: { MCPW_PREVIEW: 'env-secret-1' },
  });
  assert.ok(preview.kind === 'stdio');
  assert.deepEqual(secrets, ['env-secret-1'], 'env values are secrets to mask; input placeholders are not');
  assert.deepEqual(preview.args, ['${input:token}']);
  assert.equal(preview.envFile, '/home/someone/does-not-exist/.env');
  assert.equal(preview.env.HOME_DIR, '/home/someone');
});

test('a stdio launch spawns the absolute path found, and skips relative PATH entries', async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'mcpw-path-'));
  const binary = path.join(folder, 'tool');
  await writeFile(binary, '#!/bin/sh\n', { mode: 0o755 });
  const server = {
    kind: 'stdio',
    name: 'tool',
    command: 'tool',
    args: ['a'],
    env: { PATH: '.' },
    cwd: folder,
  } as ServerDefinition & { kind: 'stdio' };
  const relativeOnly = await planStdioLaunch(server, { platform: 'linux', env: {} });
  assert.equal(relativeOnly.kind, 'not-found', 'a PATH of "." must not find the tool in the working directory');
  const found = await planStdioLaunch({ ...server, env: { PATH: folder } }, { platform: 'linux', env: {} });
  assert.ok(found.kind === 'ready');
  assert.deepEqual(found.launch, { command: binary, args: ['a'] });
});

test('sampling: a workspace server named like a pre-approved user server is still reviewed, and its choice is its own', async () => {
  const model = await startOpenAiServer([{ kind: 'text', text: 'model answer' }]);
  try {
    const provider = new OpenAiCompatibleProvider({
      baseUrl: model.baseUrl,
      model: 'test-model',
      apiKey: 'sk-unit',
      stream: false,
    });
    const policies = new SamplingPolicies(new MemoryPolicyStorage());
    await policies.set('user#github', 'always');
    const reviewed: string[] = [];
    const reviewer: SamplingReviewer = {
      reviewRequest: async (review) => (reviewed.push(review.serverKey), { kind: 'reject', policy: 'never' }),
      reviewResponse: async (_review, response) => ({ kind: 'approve', text: response.text }),
    };
    const coordinator = new SamplingCoordinator({ providers: () => [provider], policies, reviewer });
    const params = {
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }],
      maxTokens: 8,
    };
    const signal = new AbortController().signal;
    const user = await coordinator.createMessage(params, { serverName: 'github', serverKey: 'user#github', signal });
    assert.equal((user.content as { text?: string }).text, 'model answer', 'the user server is pre-approved');
    const workspaceKey = 'workspace:/repo/.vscode/mcp.json#github';
    await assert.rejects(
      coordinator.createMessage(params, { serverName: 'github', serverKey: workspaceKey, signal }),
      /rejected/,
    );
    assert.deepEqual(reviewed, [workspaceKey], 'only the workspace server was reviewed');
    assert.equal(policies.get(workspaceKey), 'never', 'its "never" is stored under its own identity');
    assert.equal(policies.get('user#github'), 'always', "and leaves the user server's grant alone");
  } finally {
    await model.close();
  }
});

test(
  'a server that exits while its sampling request waits for review withdraws that request (the signal aborts)',
  { timeout: 15_000 },
  async () => {
    const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'hostile-host-server.mjs');
    const transport = new StdioTransport({ command: process.execPath, args: [fixture], env: {} });
    let reachedHost!: () => void;
    const reached = new Promise<void>((resolve) => (reachedHost = resolve));
    const aborted = new Promise<string>((resolve) => {
      const client = new McpClient({
        serverName: 'exits',
        transport,
        host: {
          sampling: {
            createMessage: (_request, context) =>
              new Promise((_resolve, reject) => {
                context.signal.addEventListener('abort', () => {
                  resolve(`aborted for ${context.serverName}`);
                  reject(new Error('cancelled'));
                });
                reachedHost();
              }),
          },
        },
      });
      void client.connect().then(async () => {
        await client.callTool('flood', { count: 1, kind: 'sampling' }, {});
        await reached;
        assert.ok(transport.pid, 'the fixture runs');
        process.kill(transport.pid, 'SIGKILL');
      });
    });
    assert.equal(await aborted, 'aborted for exits');
  },
);
