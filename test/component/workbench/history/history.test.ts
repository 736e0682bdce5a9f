/** The session history model (src/workbench/history): bounds, masking, and CLI commands that the real CLI runs. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { cliCommand, shellQuote } from '../../../../src/workbench/history/cliCommand';
import { HistoryLog, type HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { MASK } from '../../../../src/workbench/secrets';
import { EVERYTHING_SERVER, REPO_ROOT, startEverythingHttp } from '../../../support/testSupport';

/** A stdio server whose `env {name}` tool answers with that variable of its environment (how secrets reach it). */
const ENV_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'hostile-host-server.mjs');

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');

function toolCall(
  serverName: string,
  toolName: string,
  args: Record<string, unknown> = {},
  result: unknown = { content: [] },
): HistoryRecord {
  return {
    server: { id: `id-${serverName}`, name: serverName },
    startedAt: Date.now(),
    durationMs: 5,
    operation: { kind: 'tool', toolName, arguments: args },
    outcome: { kind: 'succeeded' },
    result,
  };
}

/** Runs a shell command line, as a person pasting the copied command would. */
function sh(
  commandLine: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', commandLine],
      { cwd: REPO_ROOT, timeout: 30_000, killSignal: 'SIGKILL', env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          reject(new Error(`${commandLine} did not exit normally: ${error.message}\n${stderr}`));
        else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

describe('HistoryLog', () => {
  test('keeps the newest entries in a ring: the oldest goes first, ids keep increasing', () => {
    const log = new HistoryLog({ capacity: 3 });
    for (let index = 1; index <= 5; index++) log.record(toolCall('a', `tool${index}`));
    assert.equal(log.size, 3);
    assert.deepEqual(
      log.entries().map((entry) => (entry.operation.kind === 'tool' ? entry.operation.toolName : '')),
      ['tool3', 'tool4', 'tool5'],
    );
    assert.deepEqual(
      log.entries().map((entry) => entry.id),
      [3, 4, 5],
    );
    assert.equal(log.get(1), undefined, 'a dropped entry is gone');
  });

  test('per server, newest first; clearing one server keeps the others', () => {
    const log = new HistoryLog();
    log.record(toolCall('b', 'first'));
    log.record(toolCall('a', 'second'));
    log.record(toolCall('b', 'third'));
    assert.deepEqual(log.serverNames(), ['a', 'b']);
    assert.deepEqual(
      log.of('b').map((entry) => entry.id),
      [3, 1],
    );
    const changes: string[][] = [];
    log.onDidChange((change) => changes.push([change.kind, ...change.serverNames]));
    log.clear('b');
    assert.deepEqual(log.serverNames(), ['a']);
    assert.deepEqual(changes, [['cleared', 'b']]);
    log.record(toolCall('a', 'fourth'));
    assert.equal(log.of('a')[0]?.id, 4, 'ids are not reused after Clear');
    log.clear();
    assert.equal(log.size, 0);
    assert.equal(log.resultChars, 0);
  });

  test('a large result is kept as a prefix with its original size, and all results together stay within budget', () => {
    const log = new HistoryLog({ maxResultChars: 1000, maxTotalResultChars: 2500 });
    const big = log.record(toolCall('a', 'big', {}, { content: [{ type: 'text', text: 'x'.repeat(5000) }] }));
    assert.equal(big.result.kind, 'truncated');
    if (big.result.kind === 'truncated') {
      assert.equal(big.result.text.length, 1000);
      assert.ok(big.result.originalChars > 5000);
    }
    const medium = { content: [{ type: 'text', text: 'y'.repeat(800) }] };
    log.record(toolCall('a', 'm1', {}, medium));
    log.record(toolCall('a', 'm2', {}, medium));
    assert.ok(log.resultChars <= 2500, `kept ${log.resultChars} chars`);
    const kinds = log.entries().map((entry) => entry.result.kind);
    assert.deepEqual(kinds, ['dropped', 'kept', 'kept'], 'the oldest result gave way; its entry stays');
    assert.equal(log.size, 3);
  });

  test('masks secrets in arguments, results and error messages', () => {
    const log = new HistoryLog();
    const entry = log.record(
      toolCall(
        'a',
        'login',
        { user: 'ann', password: 'hunter22', note: 'key is s3cr3t-value' },
        { content: [{ type: 'text', text: 'token s3cr3t-value ok' }] },
      ),
      ['s3cr3t-value'],
    );
    assert.equal(entry.operation.kind, 'tool');
    if (entry.operation.kind === 'tool') {
      assert.equal(entry.operation.arguments.password, MASK);
      assert.equal(entry.operation.arguments.user, 'ann');
      assert.equal(entry.operation.arguments.note, `key is ${MASK}`);
    }
    assert.ok(!JSON.stringify(entry).includes('s3cr3t-value'), JSON.stringify(entry));
    const failed = log.record({
      ...toolCall('a', 'x'),
      outcome: { kind: 'failed', message: 'rejected Bearer abcdefghijkl' },
    });
    assert.deepEqual(failed.outcome, { kind: 'failed', message: `rejected Bearer ${MASK}` });
  });
});

describe('CLI command of a history entry', () => {
  test('quotes for a POSIX shell', () => {
    assert.equal(shellQuote('echo'), 'echo');
    assert.equal(shellQuote('{"a":"it\'s"}'), `'{"a":"it'\\''s"}'`);
    assert.equal(shellQuote(''), "''");
  });

  test('sampling and elicitation have no CLI command', () => {
    const target = { kind: 'url', url: 'http://127.0.0.1:1/mcp' } as const;
    assert.equal(cliCommand({ kind: 'sampling', request: 'hi' }, target), undefined);
    assert.equal(cliCommand({ kind: 'elicitation', mode: 'form', message: 'name?' }, target), undefined);
  });

  test(
    'the copied tool call runs in a shell through --stdio and gives the same answer',
    { timeout: 30_000 },
    async () => {
      const log = new HistoryLog();
      const entry = log.record(toolCall('everything', 'echo', { message: 'it\'s a "test" $HOME `x`' }));
      const command = cliCommand(
        entry.operation,
        { kind: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        `${shellQuote(process.execPath)} ${shellQuote(CLI)}`,
      );
      assert.ok(command);
      const run = await sh(command);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Echo: it's a \\"test\\" \$HOME `x`/);
    },
  );

  test('the copied resource read and prompt get run through --config/--server', { timeout: 30_000 }, async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'history-cli-'));
    try {
      const config = path.join(folder, 'mcp json with spaces.json');
      fs.writeFileSync(
        config,
        JSON.stringify({ servers: { 'my server': { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } } }),
      );
      const target = { kind: 'config', configPath: config, serverName: 'my server' } as const;
      const program = `${shellQuote(process.execPath)} ${shellQuote(CLI)}`;
      const read = cliCommand(
        { kind: 'resource', uri: 'demo://resource/static/document/architecture.md' },
        target,
        program,
      );
      const prompt = cliCommand({ kind: 'prompt', promptName: 'simple-prompt', arguments: {} }, target, program);
      assert.ok(read && prompt);
      const readRun = await sh(read);
      assert.equal(readRun.code, 0, readRun.stderr);
      assert.match(readRun.stdout, /architecture\.md/);
      const promptRun = await sh(prompt);
      assert.equal(promptRun.code, 0, promptRun.stderr);
      assert.match(promptRun.stdout, /messages/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  const program = `${shellQuote(process.execPath)} ${shellQuote(CLI)}`;

  test(
    'a server using ${input:…}: the line carries --input with a placeholder, stops naming it when unset, runs once set',
    { timeout: 30_000 },
    async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'history-cli-'));
      try {
        const config = path.join(folder, 'mcp.json');
        fs.writeFileSync(
          config,
          JSON.stringify({
            inputs: [{ type: 'promptString', id: 'api-token', password: true }],
            servers: {
              envs: { command: process.execPath, args: [ENV_SERVER], env: { API_TOKEN: '${input:api-token}' } },
            },
          }),
        );
        const entry = new HistoryLog().record(toolCall('envs', 'env', { name: 'API_TOKEN' }));
        const command = cliCommand(
          entry.operation,
          { kind: 'config', configPath: config, serverName: 'envs', inputIds: ['api-token'] },
          program,
        );
        assert.ok(command);
        assert.match(command, /--input api-token="\$\{MCP_INPUT_API_TOKEN:\?/);
        const unset = await sh(command, { MCP_INPUT_API_TOKEN: '' });
        assert.notEqual(unset.code, 0);
        assert.match(unset.stderr, /MCP_INPUT_API_TOKEN/, 'the shell names what to set');
        const run = await sh(command, { MCP_INPUT_API_TOKEN: 'tok-from-the-person' });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /tok-from-the-person/);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  test(
    'a masked argument and a secret env value become placeholders (never mask characters); env is kept',
    { timeout: 30_000 },
    async () => {
      const log = new HistoryLog();
      const entry = log.record(toolCall('everything', 'echo', { message: 'pa55-word-value' }), ['pa55-word-value']);
      assert.equal(
        JSON.stringify(entry.operation).includes(MASK),
        true,
        'History masked the argument (positive control)',
      );
      const target = {
        kind: 'stdio',
        command: process.execPath,
        args: [EVERYTHING_SERVER, 'stdio'],
        env: { API_KEY: 'literal-key-in-settings', PLAIN: 'kept' },
      } as const;
      const command = cliCommand(entry.operation, target, program);
      assert.ok(command);
      assert.ok(!command.includes(MASK), command);
      assert.ok(!command.includes('literal-key-in-settings'), command);
      assert.match(command, /--env PLAIN=kept/);
      assert.match(command, /--env API_KEY="\$\{API_KEY:\?/);
      const run = await sh(command, { MCP_ARG_MESSAGE: 'typed-again', API_KEY: 'k' });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Echo: typed-again/);

      const envEntry = log.record(toolCall('envs', 'env', { name: 'API_KEY' }));
      const envCommand = cliCommand(envEntry.operation, { ...target, args: [ENV_SERVER] }, program);
      assert.ok(envCommand);
      const envRun = await sh(envCommand, { API_KEY: 'the-key-from-the-environment' });
      assert.equal(envRun.code, 0, envRun.stderr);
      assert.match(envRun.stdout, /the-key-from-the-environment/, 'the env value reached the server');
    },
  );

  test(
    'a URL query secret and a header become placeholders; the line runs against a real HTTP server',
    { timeout: 30_000 },
    async () => {
      const { server, url } = await startEverythingHttp();
      try {
        const withKey = `${url}${url.includes('?') ? '&' : '?'}api_key=sk-live-in-the-url&region=eu`;
        const entry = new HistoryLog().record(toolCall('everything', 'echo', { message: 'over http' }));
        const command = cliCommand(
          entry.operation,
          { kind: 'url', url: withKey, headers: { Authorization: 'Bearer abcdefghijkl', 'X-Trace': 'on' } },
          program,
        );
        assert.ok(command);
        assert.ok(!command.includes('sk-live-in-the-url') && !command.includes('abcdefghijkl'), command);
        assert.match(command, /api_key='"\$\{MCP_URL_API_KEY:\?/);
        assert.match(command, /region=eu/);
        assert.match(command, /--header 'Authorization: Bearer '"\$\{MCP_HEADER_AUTHORIZATION:\?/);
        assert.match(command, /--header 'X-Trace: on'/);
        const run = await sh(command, { MCP_URL_API_KEY: 'k', MCP_HEADER_AUTHORIZATION: 'token' });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /Echo: over http/);
      } finally {
        server.kill();
      }
    },
  );
});

test("History masks at the sink: the secrets the host knows for the entry's server, though the caller passed none", () => {
  const log = new HistoryLog({}, (serverId) => (serverId === 'id-db' ? ['db-pa55word-1234'] : []));
  const entry = log.record({
    ...toolCall('db', 'query', { dsn: 'postgres://u:db-pa55word-1234@h/x' }),
    outcome: { kind: 'failed', message: 'auth failed for db-pa55word-1234' },
  });
  assert.ok(!JSON.stringify(entry).includes('db-pa55word-1234'), JSON.stringify(entry));
  const other = log.record(toolCall('other', 'query', { dsn: 'db-pa55word-1234' }));
  assert.ok(
    JSON.stringify(other).includes('db-pa55word-1234'),
    "another server's entry is masked with its own secrets only (positive control)",
  );
});
