/**
 * The load section (BENCH_SECTIONS=load, issue 40): `mcp-workbench load`'s generator beside a raw loop on the raw
 * fixture (test/fixtures/bench/raw-server.mjs), each column a process of its own (bench/loadWorker.ts, bundled),
 * columns rotated per repetition. Targets: at concurrency 1, the load generator's latency within 5 % of the raw
 * loop's; at high concurrency, 20,000 calls/s (or the client's CPU says what limits it).
 *   BENCH_LOAD_CALLS (default 5000)        calls per repetition at concurrency 1
 *   BENCH_LOAD_HIGH_CALLS (default 50000)  calls per repetition at BENCH_LOAD_CONCURRENCY (default 64)
 *   BENCH_LOAD_WARMUP (default 5000)       calls each column makes before its measured run
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { REPS, positiveInt } from './config';
import type { LoadColumnResult } from './loadWorker';

const RAW_SERVER = path.join(__dirname, '..', 'test', 'fixtures', 'bench', 'raw-server.mjs');
const LOW_CALLS = positiveInt('BENCH_LOAD_CALLS', 5000);
const HIGH_CALLS = positiveInt('BENCH_LOAD_HIGH_CALLS', 50_000);
const HIGH_CONCURRENCY = positiveInt('BENCH_LOAD_CONCURRENCY', 64);
const WARMUP = positiveInt('BENCH_LOAD_WARMUP', 5000, true);
const COLUMNS = ['raw', 'loop', 'load'] as const;
type Column = (typeof COLUMNS)[number];
const LABELS: Record<Column, string> = {
  raw: 'raw loop (raw client)',
  loop: 'plain loop (McpClient)',
  load: 'load generator (McpClient)',
};

function runColumn(worker: string, column: Column, concurrency: number, calls: number): Promise<LoadColumnResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [worker, column, RAW_SERVER, String(concurrency), String(calls), String(WARMUP)],
      { timeout: 10 * 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${column}: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as LoadColumnResult);
      },
    );
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values: number[], digits: number) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

async function measure(
  worker: string,
  concurrency: number,
  calls: number,
): Promise<Record<Column, LoadColumnResult[]>> {
  const results: Record<Column, LoadColumnResult[]> = { raw: [], loop: [], load: [] };
  for (let rep = 0; rep < REPS; rep++) {
    // Rotated, so no column always runs after the same one.
    const order = COLUMNS.map((_, index) => COLUMNS[(index + rep) % COLUMNS.length]);
    for (const column of order) results[column].push(await runColumn(worker, column, concurrency, calls));
  }
  return results;
}

function printTable(title: string, results: Record<Column, LoadColumnResult[]>): void {
  console.log('');
  console.log(title);
  console.log('');
  console.log('| column | p50 ms | mean ms | p99 ms | calls/s | client CPU % |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const column of COLUMNS) {
    const rows = results[column];
    console.log(
      `| ${LABELS[column]} | ${range(
        rows.map((row) => row.p50),
        3,
      )} | ${range(
        rows.map((row) => row.mean),
        3,
      )} | ${range(
        rows.map((row) => row.p99),
        3,
      )} | ${range(
        rows.map((row) => row.throughputPerS),
        0,
      )} | ${range(
        rows.map((row) => row.clientCpuPercent),
        0,
      )} |`,
    );
  }
}

/** Ratios paired by repetition (the same rotation), median with range. */
function ratio(results: Record<Column, LoadColumnResult[]>, pick: (row: LoadColumnResult) => number): string {
  const values = results.load.map((row, index) => pick(row) / pick(results.raw[index]));
  return range(values, 3);
}

export async function loadSection(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-load-'));
  const worker = path.join(dir, 'load-worker.js');
  try {
    buildSync({
      entryPoints: [path.join(__dirname, 'loadWorker.ts')],
      outfile: worker,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      mainFields: ['module', 'main'],
      logLevel: 'warning',
    });
    const low = await measure(worker, 1, LOW_CALLS);
    printTable(
      `Load section, concurrency 1: ${LOW_CALLS} echo calls per repetition after ${WARMUP}, raw fixture (test/fixtures/bench/raw-server.mjs); one process per column, ${REPS} repetitions, median (range)`,
      low,
    );
    console.log('');
    console.log(
      `  load generator / raw loop, latency: p50 ${ratio(low, (row) => row.p50)}, mean ${ratio(low, (row) => row.mean)} (target <= 1.05)`,
    );
    const high = await measure(worker, HIGH_CONCURRENCY, HIGH_CALLS);
    printTable(`Load section, concurrency ${HIGH_CONCURRENCY}: ${HIGH_CALLS} echo calls per repetition`, high);
    const throughput = median(high.load.map((row) => row.throughputPerS));
    const cpu = median(high.load.map((row) => row.clientCpuPercent));
    console.log('');
    console.log(
      `  load generator: ${throughput.toFixed(0)} calls/s (target 20000) with the client at ${cpu.toFixed(0)}% of a core; load / raw loop calls/s ${ratio(high, (row) => row.throughputPerS)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
