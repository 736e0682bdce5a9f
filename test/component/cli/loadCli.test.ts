/** `mcp-workbench load` (dist/cli.js, built by `npm run build`) against the bench's raw fixture and server-everything. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { EVERYTHING_SERVER, REPO_ROOT, assertProcessGone, startEverythingHttp } from '../../support/testSupport';
import { runCli, type CliRun } from '../../support/cliRun';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const RAW_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'raw-server.mjs');
const RAW = `${JSON.stringify(process.execPath)} ${JSON.stringify(RAW_SERVER)}`;
const EVERYTHING = `${JSON.stringify(process.execPath)} ${JSON.stringify(EVERYTHING_SERVER)} stdio`;
/** The official v2 SDK's server; with `--legacy reject` it speaks 2026-07-28 only (no initialize). */
const MODERN_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs');
/** The era memory of these runs stays in a folder of their own (see cli.test.ts). */
const CACHE_HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-load-test-cache-'));
const ENV: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: CACHE_HOME };

type Run = CliRun;

function cli(args: string[]): Promise<CliRun> {
  return runCli(args, { env: ENV });
}

interface JsonReport {
  requests: number;
  errors: number;
  throughputPerS: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  clientCpuPercent: number | null;
  errorsByKind: Record<string, number>;
  timeline: { second: number; sent: number; completed: number; errors: number }[];
  histogram: { upToMs: number; count: number }[];
  notSent: number;
}

function report(run: Run): JsonReport {
  assert.equal(run.stdout.trim().split('\n').length, 1, `one JSON line on stdout:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout) as JsonReport;
}

/** The 2026-07-28-only fixture over Streamable HTTP, and its URL once it listens. */
async function startModernHttp(): Promise<{ server: ChildProcess; url: string }> {
  const server = spawn(process.execPath, [MODERN_SERVER, '--transport', 'http', '--legacy', 'reject'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the modern HTTP fixture did not start')), 15_000);
    let out = '';
    server.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { server, url };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('mcp-workbench load', () => {
  test('--requests is exact, and the counts add up: histogram, timeline and requests agree', async () => {
    const run = await cli([
      'load',
      '--stdio',
      RAW,
      '--tool',
      'echo',
      '--args',
      '{"text":"hi"}',
      '--requests',
      '1234',
      '--concurrency',
      '8',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = report(run);
    assert.deepEqual(Object.keys(result).slice(0, 5), [
      'requests',
      'errors',
      'throughputPerS',
      'latencyMs',
      'clientCpuPercent',
    ]);
    assert.equal(result.requests, 1234);
    assert.equal(result.errors, 0);
    assert.equal(sum(result.histogram.map((bucket) => bucket.count)), 1234);
    assert.equal(sum(result.timeline.map((second) => second.completed)), 1234);
    assert.equal(sum(result.timeline.map((second) => second.sent)), 1234);
    const { p50, p90, p99, max } = result.latencyMs;
    assert.ok(0 < p50 && p50 <= p90 && p90 <= p99 && p99 <= max, JSON.stringify(result.latencyMs));
    assert.ok(result.throughputPerS > 0);
    assert.equal(typeof result.clientCpuPercent, 'number');
  });

  test('--rate holds within 10 % over 2 s (open loop)', async () => {
    const run = await cli([
      'load',
      '--stdio',
      RAW,
      '--tool',
      'echo',
      '--args',
      '{"text":"hi"}',
      '--rate',
      '200',
      '--duration',
      '2',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const result = report(run);
    const sent = sum(result.timeline.map((second) => second.sent));
    assert.ok(Math.abs(sent - 400) <= 40, `sent ${sent} calls in 2 s at 200/s`);
    assert.equal(result.requests, sent);
    assert.equal(result.notSent, 0);
  });

  test('a server that errors is counted by kind, and the run exits 1', async () => {
    const run = await cli([
      'load',
      '--stdio',
      RAW,
      '--tool',
      'echo',
      '--args',
      '{"text":"hi"}',
      '--tool',
      'echo',
      '--args',
      '{"wrong":1}',
      '--requests',
      '100',
      '--concurrency',
      '4',
      '--json',
    ]);
    assert.equal(run.code, 1, run.stderr);
    const result = report(run);
    assert.equal(result.requests, 100);
    assert.equal(result.errors, 50);
    assert.deepEqual(result.errorsByKind, { 'server-error -32602': 50 });
  });

  test('server-everything: a readable summary, and a tool the server lacks is named before any load', async () => {
    const run = await cli([
      'load',
      '--stdio',
      EVERYTHING,
      '--tool',
      'echo',
      '--args',
      '{"message":"hi"}',
      '--requests',
      '200',
      '--concurrency',
      '4',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /200 calls in [\d.]+ s, [\d.]+ calls\/s/);
    assert.match(run.stdout, /latency: p50 [\d.]+ ms, p90 [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms/);
    assert.match(run.stdout, /errors: 0/);
    assert.match(run.stdout, /client CPU: [\d.]+% of one core/);
    const missing = await cli(['load', '--stdio', EVERYTHING, '--tool', 'ecko', '--requests', '5']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /has no tool "ecko"; it offers: .*echo/);
  });

  test('--recording: the tool calls of a recording are the mix, in turn; its other steps are not sent', async () => {
    const file = path.join(CACHE_HOME, 'mix.mcptest.json');
    const step = (method: string, params: Record<string, unknown>) => ({
      request: { method, params },
      answer: { result: {} },
    });
    fs.writeFileSync(
      file,
      JSON.stringify({
        mcptest: 1,
        server: { kind: 'stdio', command: process.execPath, args: [RAW_SERVER] },
        steps: [
          step('tools/list', {}),
          step('tools/call', { name: 'echo', arguments: { text: 'a' } }),
          step('tools/call', { name: 'echo', arguments: {} }),
        ],
      }),
    );
    const run = await cli(['load', '--stdio', RAW, '--recording', file, '--requests', '10', '--json']);
    assert.equal(run.code, 1, run.stderr);
    const result = report(run);
    assert.equal(result.requests, 10);
    assert.deepEqual(result.errorsByKind, { 'server-error -32602': 5 }, 'every second call is the one without text');
  });

  test('any server: over Streamable HTTP (server-everything, 2025-11-25) and in 2026-07-28 (stdio and HTTP)', async () => {
    const add = ['--tool', 'add', '--args', '{"a":1,"b":2}', '--requests', '200', '--concurrency', '4', '--json'];
    const modernStdio = `${JSON.stringify(process.execPath)} ${JSON.stringify(MODERN_SERVER)} --transport stdio --legacy reject`;
    const everything = await startEverythingHttp();
    const modern = await startModernHttp();
    try {
      for (const target of [
        ['--url', everything.url, '--tool', 'echo', '--args', '{"message":"hi"}', '--requests', '200', '--json'],
        ['--stdio', modernStdio, ...add],
        ['--url', modern.url, ...add],
      ]) {
        const run = await cli(['load', ...target]);
        assert.equal(run.code, 0, `${target.slice(0, 2).join(' ')}: ${run.stderr}`);
        const result = report(run);
        assert.equal(result.requests, 200, target[1]);
        assert.equal(result.errors, 0, `${target[1]}: ${JSON.stringify(result.errorsByKind)}`);
        assert.equal(sum(result.histogram.map((bucket) => bucket.count)), 200);
      }
    } finally {
      everything.server.kill();
      modern.server.kill();
    }
  });

  test('usage: no end, both shapes, --args before --tool', async () => {
    const noEnd = await cli(['load', '--stdio', RAW, '--tool', 'echo']);
    assert.equal(noEnd.code, 2);
    assert.match(noEnd.stderr, /needs an end: --requests N or --duration S/);
    const both = await cli([
      'load',
      '--stdio',
      RAW,
      '--tool',
      'echo',
      '--rate',
      '5',
      '--concurrency',
      '2',
      '--requests',
      '3',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /either --concurrency .* or --rate/);
    const orphan = await cli(['load', '--stdio', RAW, '--args', '{}', '--tool', 'echo', '--requests', '3']);
    assert.equal(orphan.code, 2);
    assert.match(orphan.stderr, /--args goes after the --tool/);
  });

  test(
    'Ctrl+C stops at once, prints what was measured, and leaves no server running',
    { timeout: 60_000 },
    async () => {
      const child = spawn(
        process.execPath,
        [
          CLI,
          'load',
          '--verbose',
          '--stdio',
          RAW,
          '--tool',
          'echo',
          '--args',
          '{"text":"hi"}',
          '--rate',
          '20',
          '--duration',
          '600',
        ],
        { cwd: REPO_ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Interrupted once the load runs: the server has answered a call.
      await new Promise<void>((resolve) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/← response #\d+ .*"content"/.test(stderr)) resolve();
        });
      });
      const interruptedAt = Date.now();
      child.kill('SIGINT');
      const code = await exited;
      assert.equal(code, 130, stderr);
      assert.ok(Date.now() - interruptedAt < 5_000, 'it stopped at once, not at the end of the 600 s');
      assert.match(stdout, /\d+ calls in [\d.]+ s, .*\(stopped before the end\)/);
      const pid = Number(/started .*\(pid (\d+)\)/.exec(stderr)?.[1]);
      assert.ok(pid > 0, stderr);
      await assertProcessGone(pid, 'the server of the interrupted load');
    },
  );
});
