/**
 * The CLI contract of recorded sessions, driving dist/cli.js against real servers: `session --record` writes the
 * file (secrets masked), `test` passes on the same server, fails with exit 1 naming the first differing step once
 * the server's answer changed, and exits 2 on usage errors. Servers: server-everything (stdio, handshake era) and
 * test/fixtures/recordings/greeter.mjs on @modelcontextprotocol/server 2.4.0 (2026-07-28), whose greeting comes
 * from GREETING or --greeting.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MASK } from '../../../src/workbench/secrets';
import { parseRecording, type Recording } from '../../../src/workbench/recordings/format';
import { parseArgs } from '../../../src/cli/args';
import { argsForRecordedServer } from '../../../src/cli/recordings';
import { splitCommandLine } from '../../../src/workbench/config/commandLine';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const GREETER = path.join(REPO_ROOT, 'test', 'fixtures', 'recordings', 'greeter.mjs');
const SECRET = 'tok-3f9a1c77e2';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { timeout: 60_000, env: options.env ?? process.env, cwd: REPO_ROOT },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** The environment without the variables a test sets itself, so the developer's own shell cannot leak in. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.GREETING;
  delete env.API_TOKEN;
  return { ...env, ...extra };
}

let folder: string;
before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'mcptest-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function readRecording(file: string): Promise<Recording> {
  return parseRecording(await readFile(file, 'utf8'), file).recording;
}

describe('session --record and test on a 2026-07-28 server (v2 SDK)', () => {
  const lines = [
    'tools',
    'call greet {"name":"Ada"}',
    'call stamp',
    'call whoami',
    'read fixture://motto',
    'prompt welcome {"name":"Ada"}',
    'info',
    '',
  ].join('\n');
  let file: string;

  before(async () => {
    file = path.join(folder, 'greeter.mcptest.json');
    const recorded = await cli(
      ['session', '--record', file, '--stdio', `node ${JSON.stringify(GREETER)}`, '--env', `API_TOKEN=${SECRET}`],
      { input: lines, env: cleanEnv() },
    );
    assert.equal(recorded.code, 0, recorded.stderr);
    // The session answers as it always did: one line per command, `info` included.
    assert.equal(recorded.stdout.trim().split('\n').length, 7);
  });

  test('the file holds the server, each request and answer, and no secret', async () => {
    const text = await readFile(file, 'utf8');
    assert.equal(text.includes(SECRET), false, 'the token must not be in the file');
    const recording = await readRecording(file);
    assert.equal(recording.mcptest, 1);
    assert.deepEqual(recording.server, {
      kind: 'stdio',
      command: 'node',
      args: [GREETER],
      env: { API_TOKEN: MASK },
      cwd: path.relative(folder, REPO_ROOT),
    });
    assert.deepEqual(
      recording.steps.map((step) => step.request.method),
      ['tools/list', 'tools/call', 'tools/call', 'tools/call', 'resources/read', 'prompts/get'],
      '`info` is not a request and is not recorded',
    );
    assert.deepEqual(recording.steps[1].request.params, { name: 'greet', arguments: { name: 'Ada' } });
    const greet = recording.steps[1].answer as { result: { content: { text: string }[] } };
    assert.equal(greet.result.content[0].text, 'Hello, Ada!');
    assert.deepEqual(
      (recording.steps[3].answer as { result: { content: { text: string }[] } }).result.content[0].text,
      `token ${MASK}`,
    );
  });

  test('test: volatile fields fail until a rule covers them, then every step passes (exit 0)', async () => {
    const volatile = await cli(['test', file], { env: cleanEnv({ API_TOKEN: SECRET }) });
    assert.equal(volatile.code, 1, volatile.stderr);
    assert.match(
      volatile.stderr,
      /step 3 \(tools\/call stamp\) differs at \$\.result\.content\[0\]\.text: the value changed; expected "request [0-9a-f-]{36}", got "request [0-9a-f-]{36}"/,
    );

    const recording = await readRecording(file);
    recording.steps[2].rules = [
      { path: '$.result.content[0].text', match: '^request [0-9a-f-]{36}$' },
      { path: '$.result.structuredContent.at', ignore: true },
      { path: '$.result.structuredContent.load', tolerance: 0.2 },
    ];
    await writeFile(file, JSON.stringify(recording, null, 2));
    const passed = await cli(['test', file], { env: cleanEnv({ API_TOKEN: SECRET }) });
    assert.equal(passed.code, 0, passed.stderr);
    const report = JSON.parse(passed.stdout) as { passed: boolean; steps: { passed: boolean }[] };
    assert.equal(report.passed, true);
    assert.equal(report.steps.length, 6);
    assert.ok(report.steps.every((step) => step.passed));
  });

  test("test fails with exit 1 naming the first differing step once the server's answer changed", async () => {
    const changed = await cli(['test', file], { env: cleanEnv({ API_TOKEN: SECRET, GREETING: 'Goodbye' }) });
    assert.equal(changed.code, 1, changed.stderr);
    assert.match(
      changed.stderr,
      /step 2 \(tools\/call greet\) differs at \$\.result\.content\[0\]\.text: the value changed; expected "Hello, Ada!", got "Goodbye, Ada!"/,
    );
    const report = JSON.parse(changed.stdout) as {
      passed: boolean;
      firstFailure: number;
      steps: { step: number; passed: boolean; differences?: { path: string; expected: unknown; actual: unknown }[] }[];
    };
    assert.equal(report.passed, false);
    assert.equal(report.firstFailure, 2);
    // The values as JSON values: a CI log showed `"expected": "\"Hello, Ada!\""`, JSON text escaped inside a string.
    assert.deepEqual(report.steps[1].differences?.[0], {
      path: '$.result.content[0].text',
      reason: 'the value changed',
      expected: 'Hello, Ada!',
      actual: 'Goodbye, Ada!',
    });
    assert.doesNotMatch(changed.stdout, /\\"/);
    assert.equal(changed.stderr.includes(SECRET), false);
  });

  test('test against another server given by flags (here the same program told another greeting)', async () => {
    const other = await cli(
      ['test', file, '--stdio', `node ${JSON.stringify(GREETER)} --greeting Hi`, '--env', `API_TOKEN=${SECRET}`],
      { env: cleanEnv() },
    );
    assert.equal(other.code, 1, other.stderr);
    assert.match(other.stderr, /expected "Hello, Ada!", got "Hi, Ada!"/);
  });

  test('a masked env value that nobody supplies is a usage error naming it (exit 2)', async () => {
    const missing = await cli(['test', file], { env: cleanEnv() });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(
      missing.stderr,
      /the recorded server needs API_TOKEN \(its value is masked in the file\): pass --env API_TOKEN=<value> or set API_TOKEN in the environment/,
    );
  });
});

describe('session --record and test on server-everything (stdio, handshake era)', () => {
  test('a recorded session replays green, and a hand-edited answer fails naming the step', async () => {
    const file = path.join(folder, 'everything.mcptest.json');
    const stdio = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;
    const input = ['call echo {"message":"hi"}', 'call get-sum {"a":2,"b":3}', 'call no-such-tool', 'ping', ''].join(
      '\n',
    );
    const recorded = await cli(['session', '--record', file, '--stdio', stdio], { input });
    assert.equal(recorded.code, 1, 'the unknown tool line fails the session, as before');
    const recording = await readRecording(file);
    assert.deepEqual(
      recording.steps.map((step) => step.request.method),
      ['tools/call', 'tools/call', 'tools/call', 'ping'],
    );
    assert.equal(recording.server.kind === 'stdio' && recording.server.command, process.execPath);

    const passed = await cli(['test', file]);
    assert.equal(passed.code, 0, passed.stderr);

    const edited = structuredClone(recording);
    (edited.steps[1].answer as { result: { content: { text: string }[] } }).result.content[0].text =
      'The sum of 2 and 3 is 6.';
    await writeFile(file, JSON.stringify(edited));
    const failed = await cli(['test', file]);
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /step 2 \(tools\/call get-sum\) differs at \$\.result\.content\[0\]\.text: the value changed; expected "The sum of 2 and 3 is 6\.", got "The sum of 2 and 3 is 5\."/,
    );
  });
});

describe('a recording of a server from mcp.json', () => {
  test('names the config relative to the file and the server by its key; test runs it from there', async () => {
    const project = path.join(folder, 'project');
    const tests = path.join(project, 'tests');
    await mkdir(tests, { recursive: true });
    await writeFile(
      path.join(project, 'mcp.json'),
      JSON.stringify({
        servers: { greeter: { command: process.execPath, args: [GREETER], env: { GREETING: '${env:TEST_GREETING}' } } },
      }),
    );
    const file = path.join(tests, 'config.mcptest.json');
    const recorded = await cli(
      ['session', '--record', file, '--config', path.join(project, 'mcp.json'), '--server', 'greeter'],
      { input: 'call greet {"name":"Lin"}\n', env: cleanEnv({ TEST_GREETING: 'Hey' }) },
    );
    assert.equal(recorded.code, 0, recorded.stderr);
    const recording = await readRecording(file);
    assert.deepEqual(recording.server, { kind: 'config', config: '../mcp.json', server: 'greeter' });
    const passed = await cli(['test', file], { env: cleanEnv({ TEST_GREETING: 'Hey' }) });
    assert.equal(passed.code, 0, passed.stderr);
    const failed = await cli(['test', file], { env: cleanEnv({ TEST_GREETING: 'Bye' }) });
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(
      failed.stderr,
      /step 1 \(tools\/call greet\) differs at \$\.result\.content\[0\]\.text: the value changed; expected "Hey, Lin!", got "Bye, Lin!"/,
    );
  });
});

describe('the recorded server as flags', () => {
  test('words with spaces, quotes and backslashes survive the --stdio line; masked env comes from --env or the environment', () => {
    const words = ['C:\\tools\\my server.exe', "it's", 'say "hi"', 'plain', ''];
    const server = {
      kind: 'stdio' as const,
      command: words[0],
      args: words.slice(1),
      env: { API_TOKEN: MASK, MODE: 'dev' },
      cwd: 'sub',
    };
    const args = argsForRecordedServer(parseArgs(['test', 'x.mcptest.json']), server, '/work/tests', {
      API_TOKEN: 'from-env',
    });
    assert.deepEqual(splitCommandLine(args.stdio ?? ''), words);
    assert.deepEqual(args.env, { API_TOKEN: 'from-env', MODE: 'dev' });
    assert.equal(args.cwd, path.resolve('/work/tests', 'sub'));
    const flagged = argsForRecordedServer(
      parseArgs(['test', 'x.mcptest.json', '--env', 'API_TOKEN=from-flag']),
      server,
      '/work/tests',
      {},
    );
    assert.equal(flagged.env.API_TOKEN, 'from-flag');
    assert.throws(
      () =>
        argsForRecordedServer(
          parseArgs(['test', 'x']),
          { kind: 'http', url: 'https://h/mcp', headers: { Authorization: MASK } },
          '/w',
          {},
        ),
      /sends Authorization \(masked in the file\): pass --header "Authorization: <value>"/,
    );
    assert.throws(
      () =>
        argsForRecordedServer(
          parseArgs(['test', 'x']),
          { kind: 'stdio', command: 'node', args: [`--key=${MASK}`] },
          '/w',
          {},
        ),
      /masked secret in it: pass the server with --stdio/,
    );
  });
});

describe('usage errors exit 2', () => {
  test('no file, two files, a missing file, a wrong file, an empty one, --record off session', async () => {
    const bad = path.join(folder, 'bad.mcptest.json');
    await writeFile(
      bad,
      JSON.stringify({
        mcptest: 1,
        server: { kind: 'stdio', command: 'node' },
        steps: [{ request: { method: 'tools/remove' }, answer: { result: {} } }],
      }),
    );
    const empty = path.join(folder, 'empty.mcptest.json');
    await writeFile(empty, JSON.stringify({ mcptest: 1, server: { kind: 'stdio', command: 'node' }, steps: [] }));
    const cases: [string[], RegExp][] = [
      [['test'], /test needs exactly one recording file \(\.mcptest\.json\), got 0/],
      [['test', bad, empty], /got 2/],
      [['test', path.join(folder, 'absent.mcptest.json')], /cannot read .*absent\.mcptest\.json/],
      [['test', bad], /bad\.mcptest\.json: steps\[0\]\.request\.method must be one of/],
      [['test', empty], /has no steps: there is nothing to test/],
      [['call', 'echo', '--record', bad, '--stdio', 'node x'], /--record goes with session/],
      [
        ['session', '--record', path.join(folder, 'no', 'such', 'dir.mcptest.json'), '--stdio', 'node x'],
        /--record: the folder .* does not exist/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await cli(args);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(' '));
    }
  });
});
