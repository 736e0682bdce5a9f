/**
 * The core's errors as a zh-CN person reads them (first-hour report 1.11): each error carries its structured detail
 * (ErrorDetail, set where it is thrown), the extension words it through the real zh-CN bundle
 * (src/extension/ui/coreErrorKinds.ts), formatted the way vscode.l10n.t formats, and what the server, the config or
 * the machine supplied (command, PATH, input name, method, milliseconds, stderr, URL) comes through verbatim. The
 * errors are the core's own, from real processes, sockets and resolvers: a core message reworded keeps its
 * translation, and an error that loses its detail fails here.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CORE_ERROR_TEMPLATES,
  sayErrorDetail,
  sayStartFailure,
  type CoreErrorTemplate,
} from '../../../../../src/extension/platform/ui/coreErrorKinds';
import { OAuthAuthorizer } from '../../../../../src/protocol/auth/oauthAuthorizer';
import { memoryAuthStore } from '../../../../../src/protocol/auth/types';
import { McpClient } from '../../../../../src/protocol/client';
import { InMemoryEraMemory } from '../../../../../src/protocol/eras/eraMemory';
import {
  McpError,
  errorDetail,
  errorMessage,
  type ErrorDetail,
  type ErrorDetailKind,
} from '../../../../../src/protocol/errors';
import { StdioTransport } from '../../../../../src/protocol/node/stdio';
import { UNREACHABLE_WORDS } from '../../../../../src/protocol/transports/httpShared';
import {
  describeStartFailure,
  summarizeStartFailure,
  type StartFailure,
} from '../../../../../src/workbench/lifecycle/startFailure';
import { resolveCommand } from '../../../../../src/workbench/node/commandResolution';
import { loopbackUserAgent } from '../../../../../src/workbench/node/auth/loopbackUserAgent';
import { resolveVariables } from '../../../../../src/workbench/config/variables';
import { sendJson, startSignInOnlyServer, startTestServer, type TestServer } from '../../../../fixtures/http/server';
import { HOSTILE_SERVER, startError } from '../../../../support/testSupport';
import { readBundle, zhCnTranslate } from '../../../../support/l10nSupport';

const bundle = readBundle();
const zh = zhCnTranslate(bundle);
const zhCore = (template: CoreErrorTemplate, ...args: string[]) => zh(template, ...args);
const english = (template: CoreErrorTemplate, ...args: string[]) =>
  template.replace(/\{(\d+)\}/g, (match, index: string) => args[Number(index)] ?? match);

/** What the extension shows in zh-CN for an error: its detail said through the bundle; an error without one fails. */
function inChinese(error: unknown): string {
  const detail = errorDetail(error);
  assert.ok(detail, `no detail on: ${errorMessage(error)}`);
  return sayErrorDetail(detail, zhCore);
}
/** What the extension shows in zh-CN for a start failure (startServer.ts). */
const startInChinese = (error: unknown, stderrTail: readonly string[] = []) =>
  sayStartFailure(describeStartFailure(errorMessage(error), errorDetail(error), stderrTail), zhCore);

const CJK = /[\u4e00-\u9fff]/;
/** Words of the core's English templates; none may be left in a translated part. */
const ENGLISH_LEFT =
  /not found|not executable|Check the path|permission denied|cannot start|is not a directory|does not exist|is not running|closed its input|no value was given|timed out|era probe|initialize was not answered|exited with code|killed by|unreachable:|sign-in was not|slow to answer|no sign of life|nothing on stderr|command is empty|answered| with error| from /;

function assertChinese(said: string, verbatim: readonly string[]): void {
  assert.match(said, CJK, said);
  assert.doesNotMatch(said, ENGLISH_LEFT, said);
  for (const value of verbatim) assert.ok(said.includes(value), `${JSON.stringify(value)} is not verbatim in: ${said}`);
}

/**
 * Every kind, in every form a template has; `satisfies` makes a new kind fail to compile until it has samples here,
 * and the exhaustive switch in coreErrorKinds.ts until it is worded there.
 */
const SAMPLES = {
  'command-not-found': [{ kind: 'command-not-found', command: 'x', searched: '/bin' }],
  'command-empty': [{ kind: 'command-empty' }],
  'path-not-found': [
    { kind: 'path-not-found', command: './srv.js', lookedFor: '/w/srv.js' },
    { kind: 'path-not-found', command: './srv.js', cwd: '/w', lookedFor: '/w/srv.js' },
  ],
  'not-executable': [{ kind: 'not-executable', path: '/w/srv.sh' }],
  'input-without-value': [{ kind: 'input-without-value', input: 'token' }],
  'timed-out': [{ kind: 'timed-out', method: 'tools/call', ms: 5 }],
  'probe-grace-ran-out': [{ kind: 'probe-grace-ran-out', server: 's', upMs: 1, graceMs: 2 }],
  'start-timed-out': [
    { kind: 'start-timed-out', totalMs: 9, probeMs: 9, reason: { kind: 'no-sign-of-life' } },
    { kind: 'start-timed-out', totalMs: 9, probeMs: 5, reason: { kind: 'slow' }, initializeMs: 4 },
    {
      kind: 'start-timed-out',
      totalMs: 9,
      probeMs: 5,
      reason: { kind: 'grace-ran-out', server: 's', upMs: 1, graceMs: 2 },
      initializeMs: 4,
    },
  ],
  'process-exited': [
    { kind: 'process-exited', code: 1 },
    { kind: 'process-exited', code: 1, silentLauncher: 'npx' },
  ],
  'process-killed': [{ kind: 'process-killed', signal: 'SIGKILL' }],
  'process-gone': [
    { kind: 'process-gone', how: 'not running' },
    { kind: 'process-gone', how: 'closed its input' },
  ],
  'permission-denied': [{ kind: 'permission-denied', command: './x' }],
  'cwd-unusable': [
    { kind: 'cwd-unusable', command: 'node', cwd: '/w/package.json', problem: 'is not a directory' },
    { kind: 'cwd-unusable', command: 'node', cwd: '/w/gone', problem: 'does not exist' },
  ],
  unreachable: UNREACHABLE_WORDS.map((words) => ({ kind: 'unreachable', words, url: 'http://127.0.0.1:9/mcp' })),
  'sign-in-unfinished': [{ kind: 'sign-in-unfinished', seconds: 300 }],
  'http-status': [
    { kind: 'http-status', status: 502, url: 'http://127.0.0.1:9/mcp' },
    { kind: 'http-status', status: 401, url: 'http://127.0.0.1:9/mcp', statusText: 'Unauthorized' },
    { kind: 'http-status', status: 500, url: 'http://127.0.0.1:9/mcp', body: 'boom' },
    { kind: 'http-status', status: 500, url: 'http://127.0.0.1:9/mcp', statusText: 'Internal Server Error', body: 'x' },
  ],
  'server-error': [{ kind: 'server-error', server: 's', method: 'tools/call', code: -32602, message: 'bad {0}' }],
} satisfies { [K in ErrorDetailKind]: Extract<ErrorDetail, { kind: K }>[] };

/** A start failure's own short forms (startServer.ts). */
const START_FAILURES: StartFailure[] = [
  { kind: 'detail', detail: { kind: 'process-exited', code: 3 }, lastStderr: 'fatal' },
  { kind: 'detail', detail: { kind: 'process-exited', code: 1, silentLauncher: 'npx' } },
  { kind: 'detail', detail: { kind: 'process-killed', signal: 'SIGKILL' } },
];

test('every kind of error detail is said in English and in zh-CN from the bundle, and every template is in the bundle with its placeholders', () => {
  const used = new Set<string>();
  const recording = (template: CoreErrorTemplate, ...args: string[]) => (used.add(template), zh(template, ...args));
  const details: ErrorDetail[] = Object.values(SAMPLES).flat();
  for (const detail of details) {
    assertChinese(sayErrorDetail(detail, recording), []);
    assert.doesNotMatch(sayErrorDetail(detail, english), CJK);
  }
  for (const failure of START_FAILURES) assertChinese(sayStartFailure(failure, recording), []);
  assert.deepEqual(
    [...CORE_ERROR_TEMPLATES].filter((template) => !used.has(template)),
    [],
    'templates no detail here reaches',
  );
  const placeholders = (text: string) =>
    [...text.matchAll(/\{\d+\}/g)]
      .map((match) => match[0])
      .sort()
      .join(',');
  for (const template of CORE_ERROR_TEMPLATES) {
    assert.ok(template in bundle, `missing from l10n/bundle.l10n.zh-cn.json: ${template}`);
    assert.equal(placeholders(bundle[template]), placeholders(template), template);
  }
});

test("in English, the words come from the same detail: the values verbatim, whatever the core's message says", async () => {
  const missing = await resolveCommand('nodee', { env: { PATH: '/usr/bin:/opt/my tools/bin' }, platform: 'linux' });
  assert.ok(missing.kind === 'not-found');
  assert.equal(
    sayErrorDetail(missing.detail, english),
    'nodee was not found on PATH (searched: /usr/bin, /opt/my tools/bin). Use an absolute path, set cwd, or add its folder to PATH through env.',
  );
});

test('report 1.11: "nodee not found on PATH (searched: …)", from the real resolver, in Chinese with the command and PATH verbatim', async () => {
  const missing = await resolveCommand('nodee', { env: { PATH: '/usr/bin:/opt/my tools/bin' }, platform: 'linux' });
  assert.ok(missing.kind === 'not-found');
  // What checkCommand throws in zh-CN (its own words through vscode.l10n.t), then what the row and notification show.
  const message = zh('Command "{0}" was not found: {1}', 'nodee', sayErrorDetail(missing.detail, zhCore));
  assert.equal(
    message,
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
      const said = zh('Command "{0}" was not found: {1}', command, sayErrorDetail(missing.detail, zhCore));
      assertChinese(said, verbatim);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('report 1.11: "cannot resolve ${input:api-key}: no value was given", from the real resolver, in Chinese with the input verbatim', async () => {
  const error = await resolveVariables('--key=${input:api-key}', {
    env: {},
    userHome: '/home/u',
    input: async () => undefined,
  }).then(
    () => assert.fail('resolved without a value'),
    (caught: unknown) => caught,
  );
  const said = inChinese(error);
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
  const client = new McpClient({
    serverName: 'silent',
    transport: new StdioTransport({ command: process.execPath, args: ['-e', SILENT_ON_CALLS], shutdownGraceMs: 200 }),
    era: 'legacy',
  });
  try {
    await client.connect();
    const error = await client.callTool('wait', {}, { timeoutMs: 200 }).then(
      () => assert.fail('the call was answered'),
      (caught: unknown) => caught,
    );
    const ms = /^silent: tools\/call timed out after (\d+) ms$/.exec(errorMessage(error))?.[1];
    assert.ok(ms, errorMessage(error));
    // What callTool.ts shows: its own words through vscode.l10n.t around the core's.
    const said = zh('Calling {0} failed: {1}', 'wait', inChinese(error));
    assert.equal(
      said,
      zh('Calling {0} failed: {1}', 'wait', zh('{0} got no answer within {1} ms (timed out)', 'tools/call', ms)),
    );
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
  test(
    `the start timeout after the era probe (${form}) is said in Chinese in full, with its numbers verbatim`,
    { timeout: 20_000 },
    async () => {
      const client = new McpClient({
        serverName: 'mute-server',
        transport: new StdioTransport({
          command: process.execPath,
          args: [HOSTILE_SERVER, 'mute'],
          shutdownGraceMs: 200,
        }),
        era: 'auto',
        eraProbeTimeoutMs: probeTimeoutMs,
        eraMemory: { memory: new InMemoryEraMemory(), key: `wording ${probeTimeoutMs}` },
        requestTimeoutMs,
      });
      const error = await client.connect().then(
        () => assert.fail('the mute server started'),
        (caught: unknown) => caught,
      );
      await client.close();
      const message = errorMessage(error);
      const numbers =
        /^mute-server: the start timed out after (\d+) ms: the era probe took (\d+) ms \(.*\), (?:then initialize was not answered for (\d+) ms|which left no time for initialize)$/.exec(
          message,
        );
      assert.ok(numbers, message);
      const [, totalMs, probeMs, initializeMs] = numbers;
      const reason = zh('the server showed no sign of life and server/discover was not answered in time');
      const expected =
        initializeMs === undefined
          ? zh(
              'the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize',
              totalMs,
              probeMs,
              reason,
            )
          : zh(
              'the start timed out after {0} ms: the era probe took {1} ms ({2}), then initialize was not answered for {3} ms',
              totalMs,
              probeMs,
              reason,
              initializeMs,
            );
      assert.equal(inChinese(error), expected);
      assertChinese(inChinese(error), [totalMs, probeMs, ...(initializeMs ? [initializeMs] : [])]);
      assert.doesNotMatch(inChinese(error), /server showed|no sign of life|not answered in time/);
    },
  );
}

test("start failures' summaries: a process that exited (its stderr verbatim) or was killed, an endpoint nobody listens on", async () => {
  const script = "console.error('fatal: API_TOKEN {0} is not set'); process.exit(3)";
  const exited = await startError(
    { kind: 'stdio', name: 'probe', command: process.execPath, args: ['-e', script], env: {} },
    'legacy',
  );
  assert.equal(summarizeStartFailure(exited), 'exited with code 3: fatal: API_TOKEN {0} is not set');
  assert.equal(startInChinese(exited), `${zh('exited with code {0}', '3')}: fatal: API_TOKEN {0} is not set`);
  assertChinese(startInChinese(exited), ['3', 'fatal: API_TOKEN {0} is not set']);
  // Outside a start failure (a crash, the tree row), the same detail in full words.
  assert.equal(inChinese(exited), zh('the server process exited with code {0}', '3'));

  const killed = await startError(
    {
      kind: 'stdio',
      name: 'probe',
      command: process.execPath,
      args: ['-e', "process.kill(process.pid, 'SIGKILL')"],
      env: {},
    },
    'legacy',
  );
  assert.equal(summarizeStartFailure(killed), 'was killed by SIGKILL');
  assert.equal(startInChinese(killed), zh('was killed by {0}', 'SIGKILL'));
  assert.equal(inChinese(killed), zh('the server process was killed by {0}', 'SIGKILL'));

  const port = await new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as net.AddressInfo;
      server.close(() => resolve(free));
    });
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const unreachable = await startError({ kind: 'http', name: 'probe', url, headers: {}, transport: 'auto' }, 'legacy');
  assert.equal(summarizeStartFailure(unreachable), `unreachable: connection refused (${url})`);
  assert.equal(startInChinese(unreachable), `${zh('unreachable: connection refused')} (${url})`);
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
    assert.equal(startInChinese(denied), zh('permission denied running "{0}": is it executable?', program));
    assertChinese(startInChinese(denied), [program]);
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
      [
        file,
        `cannot start "${process.execPath}": cwd ${file} is not a directory`,
        'cannot start "{0}": cwd {1} is not a directory',
      ],
      [
        missing,
        `cannot start "${process.execPath}": cwd ${missing} does not exist`,
        'cannot start "{0}": cwd {1} does not exist',
      ],
    ] as const) {
      const failed = await startError(
        { kind: 'stdio', name: 'probe', command: process.execPath, args: ['-e', '1'], env: {}, cwd },
        'legacy',
      );
      const summary = summarizeStartFailure(failed);
      assert.ok(summary.includes(english), summary);
      assert.doesNotMatch(summary, /not found|PATH/, summary);
      assert.equal(startInChinese(failed), zh(template, process.execPath, cwd));
      assertChinese(startInChinese(failed), [process.execPath, cwd]);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

describe('a sign-in left unfinished', () => {
  let server: TestServer;
  before(async () => {
    server = await startSignInOnlyServer();
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
    const error = await authorizer
      .onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' })
      .then(
        () => assert.fail('signed in'),
        (caught: unknown) => caught,
      );
    assert.equal(errorMessage(error), 'slow: the sign-in was not finished within 0.3 s');
    assert.equal(inChinese(error), zh('the sign-in was not finished within {0} s', '0.3'));
  });
});

test('what a server or a config supplies is never a template: its braces and core-like words stay as they are', async () => {
  const missing = await resolveCommand('{1}', { env: { PATH: '/opt/{0}/bin' }, platform: 'linux' });
  assert.ok(missing.kind === 'not-found');
  const said = sayErrorDetail(missing.detail, zhCore);
  assertChinese(said, ['{1}', '/opt/{0}/bin']);
  assert.ok(said.startsWith('在 PATH 中找不到 {1}（已搜索：/opt/{0}/bin）'), said);
  // A probe reason that is not the probe's own words (a server's error reply) is kept verbatim inside the Chinese.
  const serverWords = 'server/discover was answered with error -32000 (tools/call timed out after 5 ms {0})';
  const start: ErrorDetail = {
    kind: 'start-timed-out',
    totalMs: 9,
    probeMs: 9,
    reason: { kind: 'verbatim', text: serverWords },
  };
  assert.equal(
    sayErrorDetail(start, zhCore),
    zh(
      'the start timed out after {0} ms: the era probe took {1} ms ({2}), which left no time for initialize',
      '9',
      '9',
      serverWords,
    ),
  );
});

/** Answers the handshake and tools/list, and every tools/call with a JSON-RPC error whose message looks like a template. */
const ERRS_ON_CALLS = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const message = JSON.parse(line);
  const send = (body) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...body }) + '\\n');
  if (message.method === 'initialize') send({ result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'errs', version: '1' } } });
  else if (message.method === 'tools/list') send({ result: { tools: [{ name: 'fail', inputSchema: { type: 'object' } }] } });
  else if (message.method === 'tools/call') send({ error: { code: -32602, message: 'unknown city {0}: timed out' } });
});`;

test("a server's own JSON-RPC error, from a real call: the frame in Chinese, the server's message as it sent it", async () => {
  const client = new McpClient({
    serverName: 'errs',
    transport: new StdioTransport({ command: process.execPath, args: ['-e', ERRS_ON_CALLS], shutdownGraceMs: 200 }),
    era: 'legacy',
  });
  try {
    await client.connect();
    const error = await client.callTool('fail', {}).then(
      () => assert.fail('the call succeeded'),
      (caught: unknown) => caught,
    );
    // The English message (logs, CLI) is unchanged.
    assert.equal(errorMessage(error), 'errs: unknown city {0}: timed out (code -32602)');
    const detail = errorDetail(error);
    assert.ok(detail?.kind === 'server-error', errorMessage(error));
    assert.equal(
      sayErrorDetail(detail, english),
      'errs answered tools/call with error -32602: unknown city {0}: timed out',
    );
    const said = inChinese(error);
    assert.equal(said, 'errs 对 tools/call 返回了错误 -32602：unknown city {0}: timed out');
    assert.match(said, CJK);
    for (const verbatim of ['errs', 'tools/call', '-32602', 'unknown city {0}: timed out'])
      assert.ok(said.includes(verbatim), said);
  } finally {
    await client.close();
  }
});

test("an McpError of our own (one we answer a server with) has no detail: it is not worded as a server's answer", () => {
  assert.equal(errorDetail(new McpError(-1, 'the user rejected the sampling request')), undefined);
});

describe('an HTTP status from a real endpoint', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((request, res) => {
      if (request.url?.startsWith('/mcp')) {
        res.writeHead(503, 'Service Unavailable', { 'content-type': 'text/plain' });
        res.end('maintenance until   {0}\n');
        return;
      }
      return sendJson(res, 404, {});
    });
  });
  after(async () => {
    await server.close();
  });

  test('"HTTP 503 Service Unavailable from <url>: <body>", in Chinese with the status, the reason, the URL (secrets masked) and the body verbatim', async () => {
    const url = `${server.url}?api_key=sekrit`;
    const error = await startError({ kind: 'http', name: 'probe', url, headers: {}, transport: 'auto' }, 'legacy');
    const detail = errorDetail(error);
    assert.ok(detail?.kind === 'http-status', `${errorMessage(error)}: ${JSON.stringify(detail)}`);
    const shownUrl = `${server.url}?api_key=***`;
    assert.deepEqual(detail, {
      kind: 'http-status',
      status: 503,
      url: shownUrl,
      statusText: 'Service Unavailable',
      body: 'maintenance until {0}',
    });
    // In English, the words are the core's message's own.
    assert.ok(
      errorMessage(error).includes(sayErrorDetail(detail, english)),
      `${errorMessage(error)} / ${sayErrorDetail(detail, english)}`,
    );
    const said = inChinese(error);
    assert.equal(said, `${shownUrl} 返回了 HTTP 503 Service Unavailable：maintenance until {0}`);
    assertChinese(said, ['503', 'Service Unavailable', shownUrl, 'maintenance until {0}']);
    assert.doesNotMatch(said, /sekrit/);
    assert.equal(startInChinese(error), said);
  });
});
