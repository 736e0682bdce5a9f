/** The headless CLI (dist/cli.js, built by `npm run build`) against server-everything and bad inputs. */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, sendJson, type TestServer } from '../../fixtures/http/server';
import { EVERYTHING_SERVER, REPO_ROOT, assertProcessGone } from '../../support/testSupport';
import { freePort } from '../../support/net';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const STDIO = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;
/**
 * The CLI remembers per server definition which era a slow server needed (`$XDG_CACHE_HOME/mcp-workbench/`): these
 * runs keep that memory in a folder of their own, so neither the person's cache nor another test file's runs decide
 * whether a run probes.
 */
const CACHE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-test-cache-'));
const CLI_ENV: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: CACHE_HOME };

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI to completion (bounded: a CLI that hangs is killed and the test fails); the CLI itself stops the
 * server it started before exiting. `input` is written to its stdin, which is then closed.
 */
function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: options.cwd ?? REPO_ROOT,
        env: { XDG_CACHE_HOME: CACHE_HOME, ...(options.env ?? CLI_ENV) },
        timeout: 30_000,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
          return;
        }
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

const COUNTER_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'cli', 'counter-server.mjs');
const COUNTER = `${JSON.stringify(process.execPath)} ${JSON.stringify(COUNTER_SERVER)}`;

/** The pid the stdio transport announced in its --verbose "started … (pid N)" line. */
function announcedPid(stderr: string): number {
  const match = /started .* \(pid (\d+)\)$/m.exec(stderr);
  assert.ok(match, `no "started … (pid N)" line in:\n${stderr}`);
  return Number(match[1]);
}

/** The session's answers, one JSON value per stdout line. */
function answers(
  run: Run,
): { ok: boolean; result?: unknown; error?: { kind: string; message: string; code?: number } }[] {
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { ok: boolean });
}

function json<T>(run: Run): T {
  assert.equal(run.code, 0, `exit code 0 expected; stderr:\n${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

let workspace: string;
let configFile: string;

before(() => {
  // npm test builds once before the unit tests; rebuilding here would race with other files running dist/cli.js.
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run "npm run build" first (npm test does)`);
  workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-test-')));
  fs.mkdirSync(path.join(workspace, '.vscode'));
  configFile = path.join(workspace, '.vscode', 'mcp.json');
  fs.writeFileSync(
    configFile,
    `{
  // VS Code's format: JSONC with comments and trailing commas.
  "inputs": [
    { "type": "promptString", "id": "x", "description": "A secret", "password": true },
  ],
  "servers": {
    /* the reference server */
    "everything": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"],
      "env": { "WS_FOLDER": "\${workspaceFolder}", "SECRET_FROM_INPUT": "\${input:x}" },
    },
    "broken": { "command": 42 },
  },
}
`,
  );
});

after(() => {
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(CACHE_HOME, { recursive: true, force: true });
});

describe('mcp-workbench CLI', { timeout: 180_000, concurrency: 4 }, () => {
  test('tools', { timeout: 30_000 }, async () => {
    const tools = json<{ name: string }[]>(await cli(['tools', '--stdio', STDIO]));
    assert.ok(tools.some((t) => t.name === 'echo'));
    assert.ok(
      tools.some((t) => t.name === 'get-roots-list'),
      'the CLI declares roots, so the conditional tool appears',
    );
  });

  test('call echo', { timeout: 30_000 }, async () => {
    const result = json<{ content: { type: string; text: string }[] }>(
      await cli(['call', 'echo', '{"message":"hi"}', '--stdio', STDIO]),
    );
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: hi' }]);
  });

  test('call with structured output reports the validation verdict', { timeout: 30_000 }, async () => {
    const result = json<{ structuredContent: unknown; outputValidation: { kind: string } }>(
      await cli(['call', 'get-structured-content', '{"location":"Los Angeles"}', '--stdio', STDIO]),
    );
    assert.equal(result.outputValidation.kind, 'valid');
  });

  test('read', { timeout: 30_000 }, async () => {
    const result = json<{ contents: { uri: string; text: string }[] }>(
      await cli(['read', 'demo://resource/dynamic/text/3', '--stdio', STDIO]),
    );
    assert.equal(result.contents[0].uri, 'demo://resource/dynamic/text/3');
    assert.match(result.contents[0].text, /^Resource 3:/);
  });

  test('prompts and prompt', { timeout: 30_000 }, async () => {
    const prompts = json<{ name: string }[]>(await cli(['prompts', '--stdio', STDIO]));
    assert.ok(prompts.some((p) => p.name === 'args-prompt'));
    const prompt = json<{ messages: { content: { text: string } }[] }>(
      await cli(['prompt', 'args-prompt', '{"city":"Rome"}', '--stdio', STDIO]),
    );
    assert.equal(prompt.messages[0].content.text, "What's weather in Rome?");
  });

  test('complete', { timeout: 30_000 }, async () => {
    const completion = json<{ values: string[] }>(
      await cli(['complete', 'prompt', 'completable-prompt', 'department', 'Eng', '--stdio', STDIO]),
    );
    assert.deepEqual(completion.values, ['Engineering']);
  });

  test('info', { timeout: 30_000 }, async () => {
    const info = json<{
      serverInfo: { name: string };
      protocolVersion: string;
      transport: string;
      instructions: string;
    }>(await cli(['info', '--stdio', STDIO]));
    assert.equal(info.serverInfo.name, 'mcp-servers/everything');
    assert.equal(info.protocolVersion, '2025-11-25');
    assert.equal(info.transport, 'stdio');
    assert.match(info.instructions, /Everything Server/);
  });

  test('--config with comments, ${workspaceFolder} and ${input:x}', { timeout: 30_000 }, async () => {
    const result = json<{ content: { text: string }[] }>(
      await cli(['call', 'get-env', '--config', configFile, '--server', 'everything', '--input', 'x=s3cret value']),
    );
    const env = JSON.parse(result.content[0].text) as Record<string, string>;
    assert.equal(env.WS_FOLDER, workspace);
    assert.equal(env.SECRET_FROM_INPUT, 's3cret value');
  });

  test('--config without the input value is a usage error naming the input', { timeout: 30_000 }, async () => {
    const run = await cli(['info', '--config', configFile, '--server', 'everything'], {
      env: { ...process.env, MCP_INPUT_X: undefined },
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /input "x"/);
    assert.match(run.stderr, /--input x=/);
  });

  test('a bad server definition exits 2 naming the file and the server', { timeout: 30_000 }, async () => {
    const run = await cli(['info', '--config', configFile, '--server', 'broken']);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(configFile), run.stderr);
    assert.match(run.stderr, /server "broken"/);
    assert.equal(run.stdout, '');
  });

  test('a config file that is not JSON, or missing, exits 2 naming the file', { timeout: 30_000 }, async () => {
    const bad = path.join(workspace, 'bad.json');
    fs.writeFileSync(bad, '{ "servers": { "a": ');
    const run = await cli(['info', '--config', bad, '--server', 'a']);
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.includes(bad), run.stderr);
    const missing = path.join(workspace, 'missing.json');
    const gone = await cli(['info', '--config', missing]);
    assert.equal(gone.code, 2);
    assert.ok(gone.stderr.includes(missing), gone.stderr);
  });

  test(
    'a missing command exits 1, names the server, says command not found and shows PATH',
    { timeout: 30_000 },
    async () => {
      const run = await cli(['info', '--stdio', 'mcp-workbench-no-such-command-xyz --flag']);
      assert.equal(run.code, 1, run.stderr);
      // The name up front, as every other error has it (first-hour report 6.5: the command inside the message is not a name).
      assert.match(
        run.stderr,
        /^error \(transport\): mcp-workbench-no-such-command-xyz: command not found: "mcp-workbench-no-such-command-xyz"/,
      );
      assert.ok(run.stderr.includes(`PATH=${process.env.PATH ?? ''}`), run.stderr);
    },
  );

  test(
    'bad operands (JSON arguments, a missing name, a wrong level) exit 2 before the server is started',
    { timeout: 60_000 },
    async () => {
      // First-hour report 6.5: `call echo '{not json'` started the server, waited for its handshake, and only then said
      // the JSON was wrong. The server here leaves a file behind when it starts and exits at once, so a run that started
      // it ends with the file there (and a closed connection, exit 1).
      const cases: { args: string[]; message: RegExp }[] = [
        { args: ['call', 'echo', '{not json'], message: /^tool arguments must be a JSON object/ },
        { args: ['call', 'echo', '[1]'], message: /^tool arguments must be a JSON object/ },
        { args: ['prompt', 'simple', '"text"'], message: /^prompt arguments must be a JSON object/ },
        { args: ['read'], message: /^read needs a resource URI/ },
        { args: ['complete', 'tool', 'x', 'y'], message: /^complete needs: prompt <name>/ },
        { args: ['set-level', 'loud'], message: /^level must be one of debug/ },
      ];
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-operands-'));
      const runs = await Promise.all(
        cases.map(({ args }, index) => {
          const marker = path.join(folder, `started-${index}`);
          const server = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`require("fs").writeFileSync(${JSON.stringify(marker)}, "started")`)}`;
          return cli([...args, '--stdio', server]);
        }),
      );
      cases.forEach(({ args, message }, index) => {
        const run = runs[index];
        assert.equal(run.code, 2, `${JSON.stringify(args)} → ${run.code}; stderr:\n${run.stderr}`);
        assert.match(run.stderr, message, JSON.stringify(args));
        assert.ok(
          !fs.existsSync(path.join(folder, `started-${index}`)),
          `${JSON.stringify(args)}: the server was started`,
        );
      });
    },
  );

  test('usage errors exit 2', { timeout: 60_000 }, async () => {
    const cases: { args: string[]; message: RegExp }[] = [
      { args: [], message: /Usage:/ },
      { args: ['frobnicate', '--stdio', STDIO], message: /unknown subcommand "frobnicate"/ },
      { args: ['tools', '--bogus'], message: /unknown option --bogus/ },
      { args: ['tools'], message: /exactly one of --stdio/ },
      { args: ['tools', '--stdio', STDIO, '--url', 'http://localhost:1/mcp'], message: /exactly one of --stdio/ },
      { args: ['tools', '--timeout', 'soon', '--stdio', STDIO], message: /--timeout needs a positive number/ },
      {
        args: ['tools', '--shutdown-grace', '-1', '--stdio', STDIO],
        message: /--shutdown-grace needs a number of milliseconds/,
      },
      { args: ['session', 'extra', '--stdio', STDIO], message: /session takes no arguments/ },
      { args: ['call', '--stdio', STDIO], message: /call needs a tool name/ },
      { args: ['call', 'echo', '{not json', '--stdio', STDIO], message: /tool arguments must be a JSON object/ },
      { args: ['tools', '--stdio', 'node "unterminated'], message: /unterminated " quote/ },
    ];
    const runs = await Promise.all(cases.map(({ args }) => cli(args)));
    cases.forEach(({ args, message }, index) => {
      const run = runs[index];
      assert.equal(run.code, 2, `${JSON.stringify(args)} → ${run.code}; stderr:\n${run.stderr}`);
      assert.match(run.stderr, message, JSON.stringify(args));
    });
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage:/);
  });

  test(
    'a tool error exits 1 and a server error is labelled as such, naming the server by its package',
    { timeout: 30_000 },
    async () => {
      const run = await cli(['prompt', 'no-such-prompt', '--stdio', STDIO]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /error from server: server-everything: .*no-such-prompt/);
      assert.doesNotMatch(run.stderr, /node:/, 'not named after the interpreter');
    },
  );

  test(
    'listing a feature the server does not offer fails naming the server and the capability',
    { timeout: 30_000 },
    async () => {
      const cases: [string, RegExp][] = [
        ['prompts', /counter-server does not offer prompts, so this client cannot list prompts/],
        ['resources', /counter-server does not offer resources, so this client cannot list resources/],
        ['templates', /counter-server does not offer resources, so this client cannot list resource templates/],
      ];
      const runs = await Promise.all(cases.map(([subcommand]) => cli([subcommand, '--stdio', COUNTER])));
      cases.forEach(([subcommand, message], index) => {
        const run = runs[index];
        assert.equal(run.code, 1, `${subcommand}: ${run.stderr}`);
        assert.match(run.stderr, /capability-missing/, subcommand);
        assert.match(run.stderr, message, subcommand);
        assert.equal(run.stdout, '', `${subcommand} printed no list`);
      });
      // The server does offer tools: that list still works.
      assert.deepEqual(
        json<{ name: string }[]>(await cli(['tools', '--stdio', COUNTER])).map((t) => t.name),
        ['count', 'fail', 'quit'],
      );
    },
  );

  test(
    "--verbose shows the transport, the era, the server's stderr and the trace, with env secrets masked",
    { timeout: 30_000 },
    async () => {
      const secret = 'env-secret-7Hq2vX9k';
      // A memory of its own: an earlier run of this file that found the server slow to answer the probe would skip it.
      const env = { ...CLI_ENV, XDG_CACHE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-test-cache-')) };
      const run = await cli(
        ['call', 'get-env', '--verbose', '--env', `MCP_CLI_TEST_SETTING=${secret}`, '--stdio', STDIO],
        { env },
      );
      assert.equal(run.code, 0, run.stderr);
      // The value really reached the server and came back in the result, so the trace carried it.
      assert.ok(run.stdout.includes(secret), 'stdout is the result, unmasked');
      assert.ok(!run.stderr.includes(secret), `the secret leaked into stderr:\n${run.stderr}`);
      assert.match(run.stderr, /MCP_CLI_TEST_SETTING\\": \\"••••/, 'the traced result shows the variable, masked');
      assert.match(run.stderr, /^server-everything: transport: stdio: /m);
      assert.match(run.stderr, /^server-everything: started .*\(pid \d+\)$/m);
      assert.match(run.stderr, /^server-everything: stderr: Starting default \(STDIO\) server/m);
      // --era auto (the default) probes with server/discover first, so initialize is not the first request.
      assert.match(
        run.stderr,
        /not a 2026-07-28 server \(server\/discover was answered with error -32601.*using the initialize handshake/,
      );
      assert.match(run.stderr, /^server-everything: → request initialize #\d+ \{"jsonrpc":"2.0"/m);
      assert.match(
        run.stderr,
        /^server-everything: connected: handshake era \(initialize\), protocol 2025-11-25, transport stdio/m,
      );
      assert.match(run.stderr, /^server-everything: → request tools\/call #\d+ .*"get-env"/m);
      assert.match(run.stderr, /^server-everything: ← response #\d+ /m);
    },
  );

  test(
    '--verbose masks values from --config env and ${input:...}, and names the server by its key',
    { timeout: 30_000 },
    async () => {
      const secret = 'input-secret-Zr81pQ';
      const run = await cli([
        'call',
        'get-env',
        '--verbose',
        '--config',
        configFile,
        '--server',
        'everything',
        '--input',
        `x=${secret}`,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.includes(secret));
      assert.ok(!run.stderr.includes(secret), `the secret leaked into stderr:\n${run.stderr}`);
      assert.match(run.stderr, /^everything: → request tools\/call/m);
    },
  );

  describe('over HTTP', () => {
    let server: TestServer;
    before(async () => {
      // Streamable HTTP that answers with JSON, and reflects a request header into its instructions: a server
      // echoing what it was sent is how a header secret ends up inside a traced message.
      server = await startTestServer((request, res) => {
        const message = request.json as
          { id?: number; method?: string; params?: { protocolVersion?: string } } | undefined;
        if (request.method !== 'POST' || !message) return sendJson(res, 405, {});
        if (message.id === undefined) return void res.writeHead(202).end();
        if (message.method === 'initialize') {
          return sendJson(res, 200, {
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'echo-headers', version: '1.0.0' },
              instructions: `you sent tenant ${String(request.headers['x-tenant'])}`,
            },
          });
        }
        if (message.method === 'ping') return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: {} });
        return sendJson(res, 200, {
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'method not found' },
        });
      });
    });
    after(() => server?.close());

    test(
      '--verbose shows the fallback from Streamable HTTP to HTTP+SSE (server-everything in its sse mode)',
      { timeout: 30_000 },
      async () => {
        const port = await freePort();
        const legacy = spawn(process.execPath, [EVERYTHING_SERVER, 'sse'], {
          env: { ...process.env, PORT: String(port) },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        try {
          await new Promise<void>((resolve, reject) => {
            let seen = '';
            const onData = (chunk: Buffer) => {
              seen += chunk.toString();
              if (/running on port/i.test(seen)) resolve();
            };
            legacy.stdout.on('data', onData);
            legacy.stderr.on('data', onData);
            legacy.once('exit', (code) => reject(new Error(`server-everything (sse) exited with ${code}: ${seen}`)));
          });
          const run = await cli(['ping', '--verbose', '--url', `http://127.0.0.1:${port}/sse`]);
          assert.equal(run.code, 0, run.stderr);
          assert.match(
            run.stderr,
            /^127\.0\.0\.1:\d+: POST answered 40\d: trying the 2024-11-05 HTTP\+SSE transport$/m,
          );
          assert.match(
            run.stderr,
            /connected: handshake era \(initialize\), protocol 2025-11-25, transport HTTP\+SSE \(2024-11-05\), after the server refused Streamable HTTP;/,
          );
        } finally {
          legacy.kill();
        }
      },
    );

    test(
      '--verbose masks header values from --header and names the transport chosen',
      { timeout: 30_000 },
      async () => {
        const secret = 'tenant-key-Wm4s0Pd2';
        const run = await cli(['info', '--verbose', '--url', server.url, '--header', `X-Tenant: ${secret}`]);
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          JSON.parse(run.stdout).instructions as string,
          new RegExp(secret),
          'the server did echo the header',
        );
        assert.ok(!run.stderr.includes(secret), `the secret leaked into stderr:\n${run.stderr}`);
        const host = new URL(server.url).host;
        // --era auto (the default) sends server/discover first (#0); the initialize response is #1.
        assert.ok(run.stderr.includes(`${host}: ← response #1 `), run.stderr);
        assert.ok(run.stderr.includes(`${host}: transport: HTTP ${server.url}: Streamable HTTP first`), run.stderr);
        assert.ok(
          run.stderr.includes(
            `${host}: connected: handshake era (initialize), protocol 2025-11-25, transport Streamable HTTP;`,
          ),
          run.stderr,
        );
      },
    );
  });

  test(
    'session: one server process answers every line, state persists, errors do not end it',
    { timeout: 30_000 },
    async () => {
      const input = [
        'call count',
        'call count {}',
        '',
        '# a comment is skipped',
        'tools',
        'call fail',
        'prompts',
        'frobnicate',
        'call count {not json',
        'call count',
        '',
      ].join('\n');
      const run = await cli(['session', '--stdio', COUNTER], { input });
      assert.equal(run.code, 1, 'a session with failed lines exits 1');
      const [first, second, tools, failed, prompts, unknown, badJson, last, ...rest] = answers(run);
      assert.deepEqual(rest, [], 'one answer per command line, none for blanks and comments');
      assert.deepEqual(first, { ok: true, result: { content: [{ type: 'text', text: 'count=1' }] } });
      assert.deepEqual(second, { ok: true, result: { content: [{ type: 'text', text: 'count=2' }] } });
      assert.equal(tools.ok, true);
      assert.deepEqual(
        (tools.result as { name: string }[]).map((t) => t.name),
        ['count', 'fail', 'quit'],
      );
      assert.equal(failed.ok, false);
      assert.equal(failed.error?.kind, 'tool-error');
      assert.deepEqual((failed.result as { isError: boolean }).isError, true, 'a tool error keeps the result');
      assert.deepEqual(prompts.error?.kind, 'capability-missing');
      assert.match(prompts.error?.message ?? '', /counter-server does not offer prompts/);
      assert.equal(unknown.error?.kind, 'usage');
      assert.match(unknown.error?.message ?? '', /unknown command "frobnicate"/);
      assert.equal(badJson.error?.kind, 'usage');
      // The counter kept counting across every line, errors included: it is the same process.
      assert.deepEqual(last, { ok: true, result: { content: [{ type: 'text', text: 'count=3' }] } });
    },
  );

  test('session: all lines fine exits 0; a server error carries its code', { timeout: 30_000 }, async () => {
    const run = await cli(['session', '--stdio', STDIO], { input: 'call echo {"message":"one two"}\nping\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(answers(run), [
      { ok: true, result: { content: [{ type: 'text', text: 'Echo: one two' }] } },
      { ok: true, result: { ok: true } },
    ]);
    const failing = await cli(['session', '--stdio', STDIO], { input: 'prompt no-such-prompt\n' });
    assert.equal(failing.code, 1);
    const [answer] = answers(failing);
    assert.equal(answer.error?.kind, 'server');
    assert.equal(typeof answer.error?.code, 'number');
  });

  test('session: after the server exits, the remaining lines fail naming it', { timeout: 30_000 }, async () => {
    const run = await cli(['session', '--stdio', COUNTER], { input: 'call quit\ncall count\n' });
    const [quit, after] = answers(run);
    assert.deepEqual(quit, { ok: true, result: { content: [{ type: 'text', text: 'bye' }] } });
    assert.equal(after.ok, false);
    assert.match(after.error?.message ?? '', /counter-server/);
    assert.equal(run.code, 1);
  });

  test(
    'the CLI ends even when the server ignores stdin EOF and SIGTERM: stdin closed, then SIGTERM, then SIGKILL',
    { timeout: 30_000 },
    async () => {
      const run = await cli(['tools', '--verbose', '--shutdown-grace', '200', '--stdio', `${COUNTER} --ignore-eof`]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(JSON.parse(run.stdout).length === 3);
      const steps = [
        'counter-server: stderr: counter: stdin closed, staying up',
        'counter-server: server did not exit after stdin closed; sending SIGTERM',
        'counter-server: server did not exit after SIGTERM; sending SIGKILL',
        'counter-server: process was killed by SIGKILL',
      ];
      const positions = steps.map((step) => run.stderr.indexOf(step));
      assert.ok(
        positions.every((position) => position !== -1),
        `missing shutdown steps in:\n${run.stderr}`,
      );
      assert.deepEqual(
        [...positions].sort((a, b) => a - b),
        positions,
        'in this order',
      );
      await assertProcessGone(announcedPid(run.stderr), 'the stubborn server');
    },
  );

  test(
    'Ctrl-C in an open session stops the server (which ignores EOF and SIGTERM) and ends the CLI with 130',
    { timeout: 30_000 },
    async () => {
      const child = spawn(
        process.execPath,
        [CLI, 'session', '--verbose', '--shutdown-grace', '200', '--stdio', `${COUNTER} --ignore-eof`],
        { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const firstAnswer = new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('\n')) resolve();
        }),
      );
      // stdin stays open: only the signal can end this session.
      child.stdin.write('call count\n');
      await firstAnswer;
      assert.deepEqual(JSON.parse(stdout.split('\n')[0]), {
        ok: true,
        result: { content: [{ type: 'text', text: 'count=1' }] },
      });
      child.kill('SIGINT');
      const code = await exited;
      assert.equal(code, 130, stderr);
      assert.match(stderr, /SIGINT: stopping counter-server/);
      assert.match(stderr, /counter-server: process was killed by SIGKILL/);
      await assertProcessGone(announcedPid(stderr), 'the server of the interrupted session');
    },
  );

  // A grace far longer than the run's bound (cli() kills the CLI after 30 s and fails the test): a CLI that waited
  // out the grace instead of ending when the server exited cannot pass, however slow the machine is.
  test(
    'a server that exits on stdin EOF is not waited on: its exit ends the shutdown, then the CLI ends',
    { timeout: 40_000 },
    async () => {
      const run = await cli(['tools', '--verbose', '--shutdown-grace', '600000', '--stdio', COUNTER]);
      assert.equal(run.code, 0, run.stderr);
      const closed = run.stderr.indexOf('counter-server: stderr: counter: stdin closed, exiting');
      const exited = run.stderr.indexOf('counter-server: process exited with code 0');
      assert.ok(closed !== -1 && exited > closed, `the server saw EOF, then exited:\n${run.stderr}`);
      assert.doesNotMatch(run.stderr, /SIGTERM|SIGKILL/);
      await assertProcessGone(announcedPid(run.stderr), 'the server');
    },
  );

  test('a server that is gone before the CLI finishes is not waited on either', { timeout: 40_000 }, async () => {
    const gone = await cli(['call', 'quit', '--verbose', '--shutdown-grace', '600000', '--stdio', COUNTER]);
    assert.equal(gone.code, 0, gone.stderr);
    assert.match(gone.stderr, /counter-server: process exited with code 0/);
    assert.doesNotMatch(gone.stderr, /SIGTERM|SIGKILL/);
    await assertProcessGone(announcedPid(gone.stderr), 'the server that quit');
  });
});

describe('untrusted results on the command line', () => {
  const HOSTILE = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'hostile-server.mjs'))} deep-structured`;

  test(
    'a result nested 20,000 levels deep is printed whole, and --verbose traces it without a stack overflow',
    { timeout: 60_000 },
    async () => {
      const run = await cli(['call', 'deep', '{"depth":20000}', '--verbose', '--stdio', HOSTILE]);
      assert.doesNotMatch(run.stderr, /Maximum call stack|RangeError/);
      assert.equal(run.code, 0, run.stderr.slice(-2000));
      // JSON.stringify throws near 10,000 levels, so count the brackets rather than parse.
      assert.equal(run.stdout.split('[').length - 1 >= 20_000, true, 'every level of the nested arrays is printed');
      assert.match(run.stderr, /← response #\d+ .*\(truncated\)/, 'the trace line is cut, not dropped');
    },
  );
});
