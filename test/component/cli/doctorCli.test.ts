/** `mcp-workbench doctor` (dist/cli.js, built by `npm run build`) on a misspelled command, a server that dies, and server-everything. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { EVERYTHING_SERVER, REPO_ROOT, startEverythingHttp } from '../../support/testSupport';
import { runCli, type CliRun } from '../../support/cliRun';

const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-doctor-test-'));
const ENV: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(DIR, 'cache') };
const CONFIG = path.join(DIR, 'mcp.json');
const SECRET = 'doctor-secret-value-123456';

fs.writeFileSync(
  CONFIG,
  JSON.stringify({
    servers: {
      misspelled: { command: 'nodee-no-such-command', args: ['server.js'] },
      dies: {
        command: process.execPath,
        args: [
          '-e',
          `console.error('cannot start: DATABASE_URL is not set (token ' + process.env.API_TOKEN + ')'); process.exit(3)`,
        ],
        env: { API_TOKEN: '${input:token}' },
      },
      everything: { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
    },
  }),
);

after(() => fs.rmSync(DIR, { recursive: true, force: true }));

function cli(args: string[]): Promise<CliRun> {
  return runCli(args, { cwd: DIR, env: ENV });
}

interface Steps {
  steps: { step: string; ok: boolean; detail: string; fix?: string }[];
}

describe('mcp-workbench doctor', () => {
  test('a misspelled command: the command step names the missing command and gives a fix', async () => {
    const run = await cli(['doctor', '--config', CONFIG, '--server', 'misspelled', '--json']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /doctor: the step "command" failed/);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.deepEqual(
      steps.map(({ step, ok }) => [step, ok]),
      [
        ['config', true],
        ['variables', true],
        ['command', false],
      ],
    );
    assert.match(steps[0].detail, new RegExp(`"misspelled" in ${CONFIG.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(steps[2].detail, /"nodee-no-such-command" was not found/);
    assert.match(steps[2].fix ?? '', /install nodee-no-such-command or correct "command"/);
  });

  test('a server that exits at start: its stderr is shown, the input it was given is masked', async () => {
    const run = await cli(['doctor', '--config', CONFIG, '--server', 'dies', '--input', `token=${SECRET}`]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /^ok {3}variables: resolved \$\{input:token\} \(values masked\)$/m);
    assert.match(run.stdout, /^FAIL start: .*exited with code 3/m);
    assert.match(run.stdout, /cannot start: DATABASE_URL is not set \(token ••••\)/);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(SECRET));
    assert.match(run.stdout, /stopped at "start"$/m);
  });

  test('an input without a value: the variables step fails with the flag that gives it', async () => {
    const run = await cli(['doctor', '--config', CONFIG, '--server', 'dies', '--json']);
    assert.equal(run.code, 1);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.deepEqual(steps.at(-1)?.step, 'variables');
    assert.match(steps.at(-1)?.fix ?? '', /--input token=<value>/);
  });

  test('a server whose tools break lint rules stops at the lint step, naming the finding and its fix', async () => {
    const broken = path.join(REPO_ROOT, 'test', 'fixtures', 'lint', 'broken-server.mjs');
    const run = await cli(['doctor', '--stdio', `"${process.execPath}" "${broken}"`, '--json']);
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.deepEqual(
      steps.map(({ step, ok }) => [step, ok]),
      [
        ...['config', 'variables', 'command', 'start', 'handshake', 'lists'].map((step) => [step, true]),
        ['lint', false],
      ],
    );
    assert.match(steps.at(-1)?.detail ?? '', /^\d+ errors? \(tool:/);
    assert.ok((steps.at(-1)?.fix ?? '').length > 0, 'a fix');
  });

  test('server-everything passes every step', async () => {
    const run = await cli(['doctor', '--config', CONFIG, '--server', 'everything', '--json']);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.deepEqual(
      steps.map(({ step, ok }) => [step, ok]),
      ['config', 'variables', 'command', 'start', 'handshake', 'lists', 'lint', 'clients'].map((step) => [step, true]),
    );
    assert.match(
      steps.find((step) => step.step === 'lists')?.detail ?? '',
      /^\d+ tools, \d+ resources, \d+ resource templates, \d+ prompts$/,
    );
  });

  test('server-everything over HTTP passes every step, sign-in included', async () => {
    const { server, url } = await startEverythingHttp();
    try {
      const run = await cli(['doctor', '--url', url, '--no-browser', '--json']);
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      const { steps } = JSON.parse(run.stdout) as Steps;
      assert.deepEqual(
        steps.map(({ step, ok }) => [step, ok]),
        ['config', 'variables', 'url', 'start', 'sign-in', 'handshake', 'lists', 'lint', 'clients'].map((step) => [
          step,
          true,
        ]),
      );
    } finally {
      server.kill();
    }
  });

  test('an HTTP server that is not there fails at the start, with a fix', async () => {
    const run = await cli(['doctor', '--url', 'http://127.0.0.1:9/mcp', '--no-browser', '--json']);
    assert.equal(run.code, 1);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.deepEqual(steps.at(-1)?.step, 'start');
    assert.match(steps.at(-1)?.fix ?? '', /check the URL, and that the server runs/);
  });

  test('a server not in the file: the config step lists the ones it has', async () => {
    const run = await cli(['doctor', '--config', CONFIG, '--server', 'nope', '--json']);
    assert.equal(run.code, 1);
    const { steps } = JSON.parse(run.stdout) as Steps;
    assert.equal(steps.length, 1);
    assert.match(steps[0].detail, /has no server "nope"; it defines: misspelled, dies, everything/);
  });
});
