/** The CLI's task commands (dist/cli.js) against server-everything (2025-11-25) and the 2026-07-28 task fixture. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const EVERYTHING = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;
const FIXTURE = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'modern-task-server.mjs'))}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(args: string[], input = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: REPO_ROOT, timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number')
          return reject(new Error(`the CLI did not exit normally (${error.message}); stderr:\n${stderr}`));
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

function json<T>(run: Run): T {
  assert.equal(run.code, 0, `exit code 0 expected; stderr:\n${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const modern = (...args: string[]) => cli([...args, '--stdio', FIXTURE, '--era', '2026-07-28']);

before(() => {
  assert.ok(fs.existsSync(CLI), `${CLI} is missing: run "npm run build" first (npm test does)`);
});

describe('CLI tasks, 2025-11-25 (server-everything)', () => {
  test('call on a tool that requires a task waits for it, prints its result and its progress on stderr', async () => {
    const run = await cli(['call', 'simulate-research-query', '{"topic":"lichen"}', '--stdio', EVERYTHING]);
    const result = json<{ content: { text: string }[] }>(run);
    assert.match(result.content[0].text, /Research Report: lichen/);
    assert.match(run.stderr, /task \S+ \(simulate-research-query\): working - Gathering sources/);
    assert.match(run.stderr, /task \S+ \(simulate-research-query\): completed/);
  });

  test('--no-wait prints the task and exits', async () => {
    const task = json<{ taskId: string; status: string }>(
      await cli(['call', 'simulate-research-query', '{"topic":"moss"}', '--no-wait', '--stdio', EVERYTHING]),
    );
    assert.equal(typeof task.taskId, 'string');
    assert.equal(task.status, 'working');
  });

  test('in a session: a task call, then tasks lists it and task get reads it', async () => {
    const run = await cli(['session', '--stdio', EVERYTHING], 'call simulate-research-query {"topic":"fern"}\ntasks\n');
    const lines = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { ok: boolean; result?: unknown });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(lines[0].ok);
    const listed = lines[1].result as { taskId: string; status: string }[];
    assert.ok(Array.isArray(listed) && listed.some((task) => task.status === 'completed'), JSON.stringify(listed));
  });

  test('task get of an unknown id fails with the server named', async () => {
    const run = await cli(['task', 'get', 'no-such-task', '--stdio', EVERYTHING]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /everything|server/i);
  });

  test('task without a sub-command is a usage error', async () => {
    const run = await cli(['task', '--stdio', EVERYTHING]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /task needs: get <id>, cancel <id> or wait <id>/);
  });
});

describe('CLI tasks, 2026-07-28 (task fixture)', () => {
  test('call answered with a task waits for it and prints the result', async () => {
    const result = json<{ content: { text: string }[] }>(await modern('call', 'research', '{"topic":"kelp"}'));
    assert.equal(result.content[0].text, 'research done: kelp');
  });

  test('a failed task exits 1 with the failure', async () => {
    const run = await modern('call', 'fail');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /task task-\d+-fail failed \(error -32000\): the build broke/);
  });

  test('a task outlives the run: --no-wait prints it, task wait prints its result, task cancel ends another', async () => {
    const store = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-store-')), 'tasks.json');
    const durable = (...args: string[]) =>
      cli([...args, '--stdio', `${FIXTURE} --store ${JSON.stringify(store)}`, '--era', '2026-07-28']);
    const research = json<{ taskId: string; status: string }>(
      await durable('call', 'research', '{"topic":"coral"}', '--no-wait'),
    );
    assert.equal(research.status, 'working');
    const result = json<{ content: { text: string }[] }>(await durable('task', 'wait', research.taskId));
    assert.equal(result.content[0].text, 'research done: coral');
    const forever = json<{ taskId: string }>(await durable('call', 'forever', '--no-wait'));
    const cancelled = json<{ taskId: string; status: string }>(await durable('task', 'cancel', forever.taskId));
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(json<{ status: string }>(await durable('task', 'get', forever.taskId)).status, 'cancelled');
    const waited = await durable('task', 'wait', forever.taskId);
    assert.equal(waited.code, 1);
    assert.match(waited.stderr, /was cancelled/);
  });

  test('task get of an id this server does not know fails naming the server', async () => {
    const run = await modern('task', 'get', 'task-of-another-server');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /unknown task task-of-another-server/);
  });
});
