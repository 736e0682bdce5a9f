/**
 * The core's English errors as a zh-CN person reads them (first-hour report 1.11): each text the recognizer knows
 * (src/extension/platform/ui/coreErrorKinds.ts) is said through the real zh-CN bundle, formatted the way vscode.l10n.t formats,
 * and what the server, the config or the machine supplied (command, PATH, input name, method, milliseconds, stderr,
 * URL) comes through verbatim. The texts are the core's own, from real processes, sockets and resolvers.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CORE_ERROR_TEMPLATES,
  recognizeCoreErrors,
  sayCoreError,
  translateCoreErrors,
  type CoreErrorKind,
  type CoreErrorTemplate,
} from '../../src/extension/platform/ui/coreErrorKinds';
import { OAuthAuthorizer } from '../../src/protocol/auth/oauthAuthorizer';
import { memoryAuthStore } from '../../src/protocol/auth/types';
import { McpClient } from '../../src/protocol/client';
import { InMemoryEraMemory } from '../../src/protocol/eras/eraMemory';
import { errorMessage } from '../../src/protocol/errors';
import { StdioTransport } from '../../src/protocol/node/stdio';
import { UNREACHABLE_WORDS, summarizeStartFailure } from '../../src/workbench/lifecycle/startFailure';
import { resolveCommand } from '../../src/workbench/node/commandResolution';
import { loopbackUserAgent } from '../../src/workbench/node/auth/loopbackUserAgent';
import { resolveVariables } from '../../src/workbench/config/variables';
import { sendJson, startTestServer, type TestServer } from '../fixtures/http/server';
import { HOSTILE_SERVER, startError } from './testSupport';
import { readBundle, zhCnTranslate } from './l10nSupport';

const bundle = readBundle();
const zh = zhCnTranslate(bundle);
const zhCore = (template: CoreErrorTemplate, ...args: string[]) => zh(template, ...args);
/** What the extension shows in zh-CN, before localizeCoreError appends the English in brackets. */
const inChinese = (message: string) => translateCoreErrors(message, zhCore);

const CJK = /[\u4e00-\u9fff]/;
/** Words of the core's English templates; none may be left in a translated part. */
const ENGLISH_LEFT = /not found|not executable|Check the path|permission denied|cannot start|is not a directory|does not exist|is not running|closed its input|no value was given|timed out|era probe|initialize was not answered|exited with code|killed by|unreachable:|sign-in was not/;

function assertChinese(said: string, verbatim: readonly string[]): void {
  assert.match(said, CJK, said);
  assert.doesNotMatch(said, ENGLISH_LEFT, said);
  for (const value of verbatim) assert.ok(said.includes(value), `${JSON.stringify(value)} is not verbatim in: ${said}`);
}

/** One text per kind, in the core's words; `satisfies` makes a new kind fail to compile until it has one here. */
const SAMPLES = {
  'command-not-found': 'x not found on PATH (searched: /bin). Use an absolute path, set cwd, or add its folder to PATH through env.',
  'path-not-found': './srv.js not found (looked for /w/srv.js). Check the path, or use an absolute path.',
  'not-executable': '/w/srv.sh exists but is not executable: run chmod +x on it, or use the interpreter as the command (e.g. "node", "python")',
  'input-without-value': 'cannot resolve ${input:token}: no value was given',
  'timed-out': 'tools/call timed out after 5 ms',
  'start-timed-out': 'the start timed out after 9 ms: the era probe took 9 ms (the server showed no sign of life and server/discover was not answered in time), which left no time for initialize',
  'launcher-silent': 'with nothing on stderr: "npx" may have failed to download or install the package; run the same command in a terminal to see why',
  'permission-denied': 'permission denied running "./x": is it executable?',
  'cwd-unusable': 'cannot start "node": cwd /w/package.json is not a directory',
  'process-exited': 'the server process exited with code 1',
  'process-gone': 'the server process is not running',
  'process-killed': 'the server process was killed by SIGKILL',
  unreachable: 'unreachable: host not found',
  'sign-in-unfinished': 'the sign-in was not finished within 300 s',
} satisfies Record<CoreErrorKind['kind'], string>;

/** Extra texts so every template is said at least once: the cwd form, the other start-timeout forms and probe reasons, every unreachable. */
const MORE_TEXTS = [
  './srv.js not found relative to cwd /w (looked for /w/srv.js). Check the path, or use an absolute path.',
  'cannot start "node": cwd /w/gone does not exist',
  'the server closed its input',
  'the start timed out after 9 ms: the era probe took 5 ms (the server was slow to answer the probe (server/discover was not answered in time)), then initialize was not answered for 4 ms',
  'the start timed out after 9 ms: the era probe took 5 ms (s was slow to answer the probe: it was up 1 ms after start but left server/discover unanswered for 2 ms more), then initialize was not answered for 4 ms',
  ...UNREACHABLE_WORDS.map((words) => `unreachable: ${words} (http://127.0.0.1:9/mcp)`),
];

test('every kind the recognizer knows is said in zh-CN from the bundle, and every template is in the bundle with its placeholders', () => {
  const used = new Set<string>();
  const recording = (template: CoreErrorTemplate, ...args: string[]) => (used.add(template), zh(template, ...args));
  for (const [kind, text] of Object.entries(SAMPLES)) {
    const recognized = recognizeCoreErrors(text);
    assert.deepEqual(recognized.map((item) => [item.error.kind, item.start, item.end]), [[kind, 0, text.length]], text);
    assertChinese(sayCoreError(recognized[0].error, recording), []);
  }
  for (const text of MORE_TEXTS) assertChinese(translateCoreErrors(text, recording), []);
  assert.deepEqual([...CORE_ERROR_TEMPLATES].filter((template) => !used.has(template)), [], 'templates no text here reaches');
  const placeholders = (text: string) => [...text.matchAll(/\{\d+\}/g)].map((match) => match[0]).sort().join(',');
  for (const template of CORE_ERROR_TEMPLATES) {
    assert.ok(template in bundle, `missing from l10n/bundle.l10n.zh-cn.json: ${template}`);
    assert.equal(placeholders(bundle[template]), placeholders(template), template);
  }
});

test('report 1.11: "nodee not found on PATH (searched: …)", from the real resolver, in Chinese with the command and PATH verbatim', async () => {
  const missing = await resolveCommand('nodee', { env: { PATH: '/usr/bin:/opt/my tools/bin' }, platform: 'linux' });
  assert.ok(missing.kind === 'not-found');
  // What checkCommand throws in zh-CN (its own words through vscode.l10n.t), then what the row and notification show.
  const message = zh('Command "{0}" was not found: {1}', 'nodee', missing.hint);
  assert.equal(
    inChinese(message),
    '找不到命令“nodee”：在 PATH 中找不到 nodee（已搜索：/usr/bin, /opt/my tools/bin）。请使用绝对路径、设置 cwd，或通过 env 将其所在文件夹加入 PATH。',
  );
});

test('a command given as a path that is not there (with or without cwd) or not executable, from the real resolver', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'mcp-wording-'));
  try {
    const script = path.join(folder, 'srv.sh');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o644 });
    const cases = [
      { command: './missing.js', cwd: folder, verbatim: ['./missing.js', folder, path.join(folder, 'missing.js')] },
      { command: path.join(folder, 'missing.js'), cwd: undefined, verbatim: [path.join(folder, 'missing.js')] },
      { command: script, cwd: undefined, verbatim: [script] },
    ];
    for (const { command, cwd, verbatim } of cases) {
      const missing = await resolveCommand(command, { env: { PATH: '/usr/bin' }, platform: 'linux', cwd });
      assert.ok(missing.kind === 'not-found', command);
      const said = inChinese(zh('Command "{0}" was not found: {1}', command, missing.hint));
      assertChinese(said, verbatim);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('report 1.11: "cannot resolve ${input:api-key}: no value was given", from the real resolver, in Chinese with the input verbatim', async () => {
  const message = await resolveVariables('--key=${input:api-key}', { env: {}, userHome: '/home/u', input: async () => undefined }).then(
    () => assert.fail('resolved without a value'),
    (error: unknown) => errorMessage(error),
  );
  const said = inChinese(message);
  assertChinese(said, ['${input:api-key}']);
  assert.ok(said.includes('未为输入 ${input:api-key} 提供值'), said);
});

/** Answers the handshake and tools/list, and never tools/call. */
const SILENT_ON_CALLS = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const message = JSON.parse(line);
  const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
  if (message.method === 'initialize') answer({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'silent', version: '1' } });
  else if (message.method === 'tools/list') answer({ tools: [{ name: 'wait', inputSchema: { type: 'object' } }] });
});`;

test('report 1.11: "tools/call timed out after N ms", from a real call to a real server, in Chinese with the method and ms verbatim', async () => {
  const client = new McpClient({ serverName: 'silent', transport: new StdioTransport({ command: process.execPath, args: ['-e', SILENT_ON_CALLS], shutdownGraceMs: 200 }), era: 'legacy' });
  try {
    await client.connect();
    const message = await client.callTool('wait', {}, { timeoutMs: 200 }).then(
      () => assert.fail('the call was answered'),
      (error: unknown) => errorMessage(error),
    );
    const ms = /^silent: tools\/call timed out after (\d+) ms$/.exec(message)?.[1];
    assert.ok(ms, message);
    // What callTool.ts shows: its own words through vscode.l10n.t around the core's.
    const said = inChinese(zh('Calling {0} failed: {1}', 'wait', message));
    assert.equal(said, zh('Calling {0} failed: {1}', 'wait', `silent: ${zh('{0} got no answer within {1} ms (timed out)', 'tools/call', ms)}`));
    assertChinese(said, ['tools/call', ms]);
  } finally {
    await client.close();
  }
});

// The era probe's start timeout (autoEra.ts), both forms, from the hostile 'mute' server that never answers.
for (const { probeTimeoutMs, requestTimeoutMs, form } of [
  { probeTimeoutMs: 10 * 60_000, requestTimeoutMs: 800, form: 'which left no time for initialize' },
  { probeTimeoutMs: 500, requestTimeoutMs: 1200, form: 'then initialize was not answered for N ms' },
]) {
  test(`the start timeout after the era probe (${form}) is said in Chinese in full, with its numbers verbatim`, { timeout: 20_000 }, async () => {
    const client = new McpClient({
      serverName: 'mute-server',
      transport: new StdioTransport({ command: process.execPath, args: [HOSTILE_SERVER, 'mute'], shutdownGraceMs: 200 }),
      era: 'auto',
      eraProbeTimeoutMs: probeTimeoutMs,
      eraMemory: { memory: new InMemoryEraMemory(), key: `wording ${probeTimeoutMs}` },
      requestTimeoutMs,
    });
    const message = await client.connect().then(
      () => assert.fail('the mute server started'),
      (error: unknown) => errorMessage(error),
    );
    await client.close();
    const numbers = /^mute-server: the start timed out after (\d+) ms: the era probe took (\d+) ms \(.*\), (?:then initialize was not answered for (\d+) ms|which left no time for initialize)$/.exec(message);
    assert.ok(numbers, message);
    const [, totalMs, probeMs, initializeMs] = numbers;
    const reason = zh('the server showed no sign of life and server/discover was not answered in time');
    const expected =
      initializeMs === undefined
        ? zh('the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize', totalMs, probeMs, reason)
        : zh('the start timed out after {0} ms: the era probe took {1} ms ({2}), then initialize was not answered for {3} ms', totalMs, probeMs, reason, initializeMs);
    assert.equal(inChinese(message), `mute-server: ${expected}`);
    assertChinese(inChinese(message), [totalMs, probeMs, ...(initializeMs ? [initializeMs] : [])]);
    assert.doesNotMatch(inChinese(message), /server showed|no sign of life|not answered in time/);
  });
}


test("start failures' summaries: a process that exited (its stderr verbatim) or was killed, an endpoint nobody listens on", async () => {
  const script = "console.error('fatal: API_TOKEN {0} is not set'); process.exit(3)";
  const exited = summarizeStartFailure(await startError({ kind: 'stdio', name: 'probe', command: process.execPath, args: ['-e', script], env: {} }, 'legacy'));
  assert.equal(exited, 'exited with code 3: fatal: API_TOKEN {0} is not set');
  assert.equal(inChinese(exited), `${zh('the server process exited with code {0}', '3')}: fatal: API_TOKEN {0} is not set`);
  assertChinese(inChinese(exited), ['3', 'fatal: API_TOKEN {0} is not set']);

  const killed = summarizeStartFailure(await startError({ kind: 'stdio', name: 'probe', command: process.execPath, args: ['-e', "process.kill(process.pid, 'SIGKILL')"], env: {} }, 'legacy'));
  assert.equal(killed, 'was killed by SIGKILL');
  assert.equal(inChinese(killed), zh('the server process was killed by {0}', 'SIGKILL'));

  const port = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const unreachable = summarizeStartFailure(await startError({ kind: 'http', name: 'probe', url, headers: {}, transport: 'auto' }, 'legacy'));
  assert.equal(unreachable, `unreachable: connection refused (${url})`);
  assert.equal(inChinese(unreachable), `${zh('unreachable: connection refused')} (${url})`);
});

test("a program that cannot be run, from the real stdio transport, with the person's path verbatim (quotes and braces too)", async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'mcp-wording-'));
  try {
    const program = path.join(folder, 'server "{0}".sh');
    writeFileSync(program, '#!/bin/sh\n', { mode: 0o644 });
    const denied = await startError({ kind: 'stdio', name: 'probe', command: program, args: [], env: {} }, 'legacy');
    const english = `permission denied running "${program}": is it executable?`;
    const summary = summarizeStartFailure(denied);
    assert.ok(summary.includes(english), summary);
    assert.equal(inChinese(summary), summary.replace(english, zh('permission denied running "{0}": is it executable?', program)));
    assertChinese(inChinese(summary), [program]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a cwd that is a file or is not there, from the real stdio transport: said as such, not as a command off PATH', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'mcp-wording-'));
  try {
    const file = path.join(folder, 'package.json');
    writeFileSync(file, '{}');
    const missing = path.join(folder, 'gone');
    for (const [cwd, english, template] of [
      [file, `cannot start "${process.execPath}": cwd ${file} is not a directory`, 'cannot start "{0}": cwd {1} is not a directory'],
      [missing, `cannot start "${process.execPath}": cwd ${missing} does not exist`, 'cannot start "{0}": cwd {1} does not exist'],
    ] as const) {
      const failed = await startError({ kind: 'stdio', name: 'probe', command: process.execPath, args: ['-e', '1'], env: {}, cwd }, 'legacy');
      const summary = summarizeStartFailure(failed);
      assert.ok(summary.includes(english), summary);
      assert.doesNotMatch(summary, /not found|PATH/, summary);
      assert.equal(inChinese(summary), summary.replace(english, zh(template, process.execPath, cwd)));
      assertChinese(inChinese(summary), [process.execPath, cwd]);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

describe('a sign-in left unfinished', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((request, res) => {
      const origin = server.origin;
      if (request.url === '/.well-known/oauth-protected-resource/mcp') return sendJson(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      if (request.url === '/.well-known/oauth-authorization-server') {
        return sendJson(res, 200, { issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`, registration_endpoint: `${origin}/register` });
      }
      if (request.url === '/register') return sendJson(res, 201, { client_id: 'c1', token_endpoint_auth_method: 'none' });
      return sendJson(res, 404, {});
    });
  });
  after(async () => {
    await server.close();
  });

  test('"the sign-in was not finished within N s", from the real authorizer, in Chinese with the seconds verbatim', async () => {
    const authorizer = new OAuthAuthorizer({
      serverUrl: server.url,
      serverName: 'slow',
      store: memoryAuthStore(),
      signInTimeoutMs: 300,
      userAgent: loopbackUserAgent({ startedFrom: 'terminal', open: () => undefined }),
    });
    const message = await authorizer.onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' }).then(
      () => assert.fail('signed in'),
      (error: unknown) => errorMessage(error),
    );
    assert.equal(message, 'slow: the sign-in was not finished within 0.3 s');
    assert.equal(inChinese(message), `slow: ${zh('the sign-in was not finished within {0} s', '0.3')}`);
  });
});

test("what a server or a config supplies is never a template: its braces and core-like words stay as they are", async () => {
  const missing = await resolveCommand('{1}', { env: { PATH: '/opt/{0}/bin' }, platform: 'linux' });
  assert.ok(missing.kind === 'not-found');
  const said = inChinese(missing.hint);
  assertChinese(said, ['{1}', '/opt/{0}/bin']);
  assert.ok(said.startsWith('在 PATH 中找不到 {1}（已搜索：/opt/{0}/bin）'), said);
  // A probe reason that is not the probe's own words (a server's error reply) is kept verbatim inside the Chinese.
  const serverWords = 'server/discover was answered with error -32000 (tools/call timed out after 5 ms {0})';
  const start = `the start timed out after 9 ms: the era probe took 9 ms (${serverWords}), which left no time for initialize`;
  assert.equal(inChinese(start), zh('the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize', '9', '9', serverWords));
});
