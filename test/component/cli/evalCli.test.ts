/** `mcp-workbench eval` (dist/cli.js, built by `npm run build`) against server-everything and the fake OpenAI model. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startOpenAiServer, type ChatBody, type OpenAiTestServer } from '../../fixtures/openai/openaiServer';
import { runCli, type CliRun } from '../../support/cliRun';
import { EVERYTHING_SERVER } from '../../support/testSupport';

const EVERYTHING = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;
const FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-eval-cli-'));
const KEY = 'sk-eval-test-key-9f8e7d6c5b4a';
/** The era memory of these runs stays in a folder of their own (see cli.test.ts). */
const ENV: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: FOLDER, MCP_WORKBENCH_MODEL_KEY: KEY };

let model: OpenAiTestServer;

/** The model echoes what the request asks for ("Echo <word>"), then answers with the tool's result and the key. */
function echoModel(body: ChatBody) {
  const tool = body.messages.find((message) => message.role === 'tool');
  if (tool) return { kind: 'text' as const, text: `Done: ${String(tool.content)} (key ${KEY})` };
  const asked = String(body.messages.find((message) => message.role === 'user')?.content ?? '');
  return { kind: 'tool-call' as const, name: 'echo', arguments: { message: asked.replace(/^Echo /, '') } };
}

before(async () => {
  model = await startOpenAiServer();
});
beforeEach(() => {
  model.requests.length = 0;
  model.authorizations.length = 0;
  model.respond = echoModel;
});
after(() => model.close());

function cli(args: string[]): Promise<CliRun> {
  return runCli(['eval', ...args, '--model-url', model.baseUrl, '--model', 'fake-1', '--stdio', EVERYTHING], {
    env: ENV,
  });
}

function writeEval(name: string, value: unknown): string {
  const file = path.join(FOLDER, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

function assertNoKey(run: CliRun): void {
  assert.ok(
    !run.stdout.includes(KEY) && !run.stderr.includes(KEY),
    `the key was printed:\n${run.stdout}\n${run.stderr}`,
  );
}

describe('mcp-workbench eval', () => {
  test('a file with a passing and a failing request: exit 1, the JSON report with pass rates and the diff, no key', async () => {
    const file = writeEval('two.mcpeval.json', {
      mcpeval: 1,
      maxSteps: 3,
      requests: [
        {
          name: 'echo hi',
          request: 'Echo hi',
          expect: { calls: [{ tool: 'echo', args: { message: 'hi' } }], answer: { contains: 'Echo: hi' } },
        },
        {
          name: 'echo loud',
          request: 'Echo hello',
          expect: { calls: [{ tool: 'echo', args: { message: 'HELLO' } }], notCalled: ['get-env'] },
        },
      ],
    });
    const run = await cli([file, '--runs', '2', '--json']);
    assert.equal(run.code, 1, run.stderr);
    assertNoKey(run);
    const report = JSON.parse(run.stdout) as {
      requests: {
        name: string;
        passed: number;
        runs: number;
        failures: { run: number; problems: { message: string }[] }[];
      }[];
      passRate: number;
    };
    assert.deepEqual(Object.keys(report).slice(0, 2), ['requests', 'passRate']);
    assert.deepEqual(Object.keys(report.requests[0]).slice(0, 4), ['name', 'passed', 'runs', 'failures']);
    assert.deepEqual(
      report.requests.map(({ name, passed, runs }) => ({ name, passed, runs })),
      [
        { name: 'echo hi', passed: 2, runs: 2 },
        { name: 'echo loud', passed: 0, runs: 2 },
      ],
    );
    assert.equal(report.passRate, 0.5);
    assert.deepEqual(
      report.requests[1].failures.map((failure) => failure.run),
      [1, 2],
    );
    assert.match(report.requests[1].failures[0].problems[0].message, /\$\.message: expected "HELLO", got "hello"/);
    // The key went to the model endpoint, and only there.
    assert.equal(model.requests.length, 8);
    assert.ok(model.authorizations.every((value) => value === `Bearer ${KEY}`));
    // The model read the server's real result.
    assert.equal(model.requests[1].messages.find((message) => message.role === 'tool')?.content, 'Echo: hi');
  });

  test('the one-off --request passes with exit 0 and prints the pass rate', async () => {
    const run = await cli(['--request', 'Echo hi', '--expect-tool', 'echo', '--expect-args', '{"message":"hi"}']);
    assert.equal(run.code, 0, run.stderr);
    assertNoKey(run);
    assert.match(run.stdout, /PASS Echo hi: 1\/1 runs passed \(100%\)/);
    assert.match(run.stdout, /pass rate: 100% over 1 runs; 2 model calls/);
  });

  test('the one-off fails with exit 1 and names the expected and the actual call', async () => {
    const run = await cli(['--request', 'Echo hi', '--expect-tool', 'echo', '--expect-args', '{"message":"bye"}']);
    assert.equal(run.code, 1, run.stderr);
    assertNoKey(run);
    assert.match(run.stdout, /expected call: echo \{"message":"bye"\}/);
    assert.match(run.stdout, /actual call: +echo \{"message":"hi"\}/);
  });

  test('usage errors exit 2 and call no model: no file, a bad --runs, no --expect-tool, a broken file', async () => {
    const broken = writeEval('broken.mcpeval.json', {
      mcpeval: 1,
      requests: [{ request: 'x', expect: { answer: { match: '(a)\\1' } } }],
    });
    for (const args of [[], ['--runs', '0', broken], ['--request', 'Echo hi'], [broken]]) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assertNoKey(run);
    }
    const noUrl = await runCli(
      ['eval', '--request', 'x', '--expect-tool', 'echo', '--model', 'm', '--stdio', EVERYTHING],
      { env: ENV },
    );
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /--model-url/);
    assert.equal(model.requests.length, 0);
  });

  test('more than 20 model calls are announced and need --yes when stdin is not a terminal', async () => {
    const file = writeEval('many.mcpeval.json', {
      mcpeval: 1,
      runs: 4,
      requests: [{ request: 'Echo hi', expect: { calls: [{ tool: 'echo' }] } }],
    });
    const refused = await cli([file]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /up to 24 model calls/);
    assert.match(refused.stderr, /--yes/);
    assert.equal(model.requests.length, 0);
    const run = await cli([file, '--yes', '--json']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(model.requests.length, 8);
  });

  test('an endpoint that refuses the key: exit 1 naming the HTTP status, the key it echoes masked', async () => {
    model.respond = () => ({ kind: 'http-error', status: 401, body: `{"error":{"message":"invalid key ${KEY}"}}` });
    const run = await cli(['--request', 'Echo hi', '--expect-tool', 'echo']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /HTTP 401/);
    assertNoKey(run);
  });

  test('the key is not sent in clear text to another machine', async () => {
    const run = await runCli(
      [
        'eval',
        '--request',
        'x',
        '--expect-tool',
        'echo',
        '--model-url',
        'http://model.example.com/v1',
        '--model',
        'm',
        '--stdio',
        EVERYTHING,
      ],
      { env: ENV },
    );
    assert.equal(run.code, 2);
    assert.match(run.stderr, /clear text/);
    assertNoKey(run);
  });
});
