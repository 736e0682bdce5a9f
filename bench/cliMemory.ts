/**
 * The CLI's memory on a big result: `mcp-workbench read bench://big` (dist/cli.js) beside the smallest SDK-based
 * CLI that does the same (bench/sdkCli.ts), both reading BENCH_BIG_BYTES from the raw fixture server and printing
 * into a pipe this process drains. Peak RSS is the CLI process's own VmHWM at exit (bench/peakRss.cjs); the
 * server's memory is not in it. Both must print the same number of bytes.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIG_BYTES, formatBytes, positiveInt } from './config';
import { median } from './stats';

const REPO_ROOT = path.resolve(__dirname, '..');
const PEAK_PRELOAD = path.join(__dirname, 'peakRss.cjs');
const RAW_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'raw-server.mjs');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
/** One read of the SDK CLI takes 30 s or more (its read buffer is concatenated and searched again for each chunk). */
const OURS_REPS = positiveInt('BENCH_CLI_REPS', 2);
const SDK_REPS = positiveInt('BENCH_CLI_SDK_REPS', 1);

interface Run {
  peakKiB: number;
  wallMs: number;
  printedBytes: number;
}

async function runCli(args: readonly string[]): Promise<Run> {
  const peakFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-rss-')), 'peak');
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', PEAK_PRELOAD, ...args], {
      env: {
        ...process.env,
        BENCH_BIG_BYTES: String(BIG_BYTES),
        BENCH_BIG_KIND: 'plain',
        BENCH_PEAK_RSS_FILE: peakFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printedBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (printedBytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    const wallMs = performance.now() - started;
    if (code !== 0) throw new Error(`exited ${code}: ${stderr.trim().replace(/\s+/g, ' ').slice(-200)}`);
    const peakKiB = Number(fs.readFileSync(peakFile, 'utf8'));
    if (!Number.isFinite(peakKiB)) throw new Error('no VmHWM reported (not Linux?)');
    return { peakKiB, wallMs, printedBytes };
  } finally {
    fs.rmSync(path.dirname(peakFile), { recursive: true, force: true });
  }
}

async function runs(count: number, args: readonly string[]): Promise<Run[] | string> {
  const done: Run[] = [];
  try {
    for (let i = 0; i < count; i++) done.push(await runCli(args));
    return done;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const mib = (kib: number): string => `${(kib / 1024).toFixed(0)} MiB`;

function show(result: Run[] | string): string {
  if (typeof result === 'string') return `FAILED (${result})`;
  const peaks = result.map((r) => r.peakKiB);
  const range = peaks.length > 1 ? ` [${mib(Math.min(...peaks))}–${mib(Math.max(...peaks))}]` : '';
  return `${mib(median(peaks))}${range} peak RSS, ${(median(result.map((r) => r.wallMs)) / 1000).toFixed(1)} s`;
}

export async function cliMemorySection(sdkCli: string): Promise<void> {
  const server = [process.execPath, RAW_SERVER];
  const serverLine = server.map((part) => JSON.stringify(part)).join(' ');
  const ours = await runs(OURS_REPS, [CLI, 'read', 'bench://big', '--era', 'legacy', '--stdio', serverLine]);
  process.stderr.write('  CLI memory: ours done\n');
  const sdk = await runs(SDK_REPS, [sdkCli, '1', 'read', 'bench://big', '--', ...server]);
  process.stderr.write('  CLI memory: SDK CLI done\n');

  console.log('');
  console.log(
    `CLI memory: \`read bench://big\` of ${formatBytes(BIG_BYTES)} from test/fixtures/bench/raw-server.mjs, stdout into a pipe; the CLI process's own peak RSS (VmHWM at exit)`,
  );
  console.log('');
  const header = [
    'workload',
    `ours (dist/cli.js), ${OURS_REPS} runs`,
    `SDK 1.32.2 CLI (bench/sdkCli.ts), ${SDK_REPS} run(s)`,
    'ours/SDK (peak RSS)',
    'target ours < SDK',
  ];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  let ratio = 'n/a';
  let verdict = 'n/a';
  if (typeof ours !== 'string' && typeof sdk !== 'string') {
    const oursPeak = Math.max(...ours.map((r) => r.peakKiB));
    const sdkPeak = median(sdk.map((r) => r.peakKiB));
    ratio = `${(median(ours.map((r) => r.peakKiB)) / sdkPeak).toFixed(2)}x (highest run ${(oursPeak / sdkPeak).toFixed(2)}x)`;
    verdict = oursPeak < sdkPeak ? 'MET (every run)' : 'NOT MET';
    const printed = new Set([...ours, ...sdk].map((r) => r.printedBytes));
    if (printed.size !== 1) verdict += `; the CLIs printed different sizes: ${[...printed].join(', ')} bytes`;
  }
  console.log(`| ${[`read ${formatBytes(BIG_BYTES)}`, show(ours), show(sdk), ratio, verdict].join(' | ')} |`);
}
