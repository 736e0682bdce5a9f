/**
 * The `gateway` section (issue 37): the SDK 1.x client calling `echo` through `mcp-workbench gateway` (dist/cli.js,
 * a process of its own, as an agent meets it) beside the same client connected to the server directly, for a stdio
 * server (bench/fixtures/server.mjs) and a Streamable HTTP one (bench/fixtures/handshake-http-server.mjs); and the SDK
 * 2.4.0 client, a 2026-07-28 agent through the gateway, beside itself direct to the stdio server.
 *   - latency: one client, sequential calls after a warm-up; p50 and p99 per call, and what the gateway adds;
 *   - throughput: 100 clients with one call in flight each (directly to a stdio server, which serves one client:
 *     one client with 100 calls in flight); calls per second, the gateway's as a ratio of direct;
 *   - scale: 50 clients × 1,000 calls at once through one gateway, every answer checked against its request;
 *   - the HTTP hop's floor: the same client direct to a bare node:http echo (bench/fixtures/echo-http-server.mjs), what
 *     any HTTP server costs it here before doing anything: against a stdio server the gateway adds such a hop.
 * Repetitions alternate which side runs first. Targets: added p50 ≤ 0.2 ms, p99 ≤ 1 ms; throughput ≥ 0.8x.
 * Beside them: the gateway process's own CPU per call (Linux, /proc), which is what the gateway's code decides, and
 * the machine's load: on a shared 2-core machine every hop waits for a core, and the gateway is one more hop (two more
 * process wake-ups and socket round trips per call), which shows in the tail far more than the gateway's own work.
 * Sizes: BENCH_GATEWAY_CALLS (default 2000 timed calls), BENCH_GATEWAY_CLIENTS (100), BENCH_GATEWAY_ROUNDS (100
 * calls per client), BENCH_GATEWAY_REPS (3); BENCH_GATEWAY_SCALE=0 skips the 50 × 1,000 check.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as SdkV2 from '@modelcontextprotocol/client';
import * as SdkV2Stdio from '@modelcontextprotocol/client/stdio';
import { positiveInt } from './config';
import { median, rotated } from './stats';

const REPO_ROOT = path.resolve(__dirname, '..');
const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const STDIO_SERVER = path.join(__dirname, 'fixtures', 'server.mjs');
const HTTP_SERVER = path.join(__dirname, 'fixtures', 'handshake-http-server.mjs');
/** The HTTP hop's floor: a bare node:http server that answers the client's calls and does nothing else. */
const FLOOR_SERVER = path.join(__dirname, 'fixtures', 'echo-http-server.mjs');

const CALLS = positiveInt('BENCH_GATEWAY_CALLS', 2000);
const WARMUP = Math.max(200, CALLS >> 2);
const CLIENTS = positiveInt('BENCH_GATEWAY_CLIENTS', 100);
const ROUNDS = positiveInt('BENCH_GATEWAY_ROUNDS', 100);
const REPS = positiveInt('BENCH_GATEWAY_REPS', 3);
const SCALE = process.env.BENCH_GATEWAY_SCALE !== '0';

/**
 * `modern`: the stdio server with the SDK 2.4.0 client, pinned to 2026-07-28 through the gateway (served statelessly)
 * and direct over stdio (where it speaks the server's handshake). `floor`: the SDK 1.x client direct to FLOOR_SERVER,
 * what the HTTP hop alone costs it (no gateway side).
 */
type Kind = 'stdio' | 'http' | 'modern' | 'floor';
/** What the bench calls `echo` on: the SDK 1.x Client, or the 2.x one. */
type Caller = Pick<Client, 'callTool' | 'close'>;
type Side = 'direct' | 'gateway';

interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

/** `mcp-workbench gateway --json` in a process of its own; its endpoint once it listens. */
async function startGatewayCli(target: string[]): Promise<{ endpoint: Endpoint; pid: number; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'gateway', ...target, '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    void exited.then(() => reject(new Error('the gateway exited before it was ready')));
  });
  const { servers } = JSON.parse(line) as { servers: Endpoint[] };
  return {
    endpoint: servers[0],
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The HTTP fixture server in a process of its own; its URL once it listens. (Not httpFixture.ts's class: that module
 * and clients.ts import each other, which works only when clients.ts is loaded first.)
 */
async function startHttpServer(fixture = HTTP_SERVER): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(seen);
      if (match) resolve(match[1]);
    });
    void exited.then(() => reject(new Error('the HTTP fixture server exited before listening')));
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One side's setup for one server kind: clients to open and what to stop after. */
interface Setup {
  connect(name: string): Promise<Caller>;
  /** Direct to a stdio server: one client serves every concurrent call (the server serves one client). */
  shared: boolean;
  /** The gateway process's CPU time so far (ms, user + system; not its server's): undefined direct or off Linux. */
  gatewayCpuMs(): number | undefined;
  stop(): Promise<void>;
}

/** A process's CPU time (ms) from /proc/<pid>/stat (utime + stime, in clock ticks of 10 ms). */
function processCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

async function setup(kind: Kind, side: Side): Promise<Setup> {
  const stdio = kind === 'stdio' || kind === 'modern';
  const httpServer = stdio ? undefined : await startHttpServer(kind === 'floor' ? FLOOR_SERVER : HTTP_SERVER);
  const serverUrl = httpServer?.url;
  const gateway =
    side === 'gateway'
      ? await startGatewayCli(
          stdio ? ['--stdio', `"${process.execPath}" "${STDIO_SERVER}"`] : ['--url', serverUrl as string],
        )
      : undefined;
  const clients: Caller[] = [];
  return {
    shared: side === 'direct' && stdio,
    gatewayCpuMs: () => (gateway ? processCpuMs(gateway.pid) : undefined),
    connect: async (name) => {
      if (kind === 'modern') {
        const modern = new SdkV2.Client(
          { name, version: '2.4.0' },
          gateway ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
        );
        await modern.connect(
          gateway
            ? new SdkV2.StreamableHTTPClientTransport(new URL(gateway.endpoint.url), {
                requestInit: { headers: gateway.endpoint.headers },
              })
            : new SdkV2Stdio.StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] }),
        );
        clients.push(modern as unknown as Caller);
        return modern as unknown as Caller;
      }
      const client = new Client({ name, version: '1.32.2' });
      const transport = gateway
        ? new StreamableHTTPClientTransport(new URL(gateway.endpoint.url), {
            requestInit: { headers: gateway.endpoint.headers },
          })
        : stdio
          ? new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] })
          : new StreamableHTTPClientTransport(new URL(serverUrl as string));
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    stop: async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await gateway?.stop();
      await httpServer?.stop();
    },
  };
}

async function echo(client: Caller, text: string): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  const got = (result.content as { text?: string }[])[0]?.text;
  if (got !== text) throw new Error(`asked to echo ${text}, got ${String(got)}: an answer was lost or crossed`);
}

/** Per-call times (ms) of `CALLS` sequential calls after `WARMUP`. */
/** Runs one phase; its failure names the phase, the server kind and the side. */
async function phase<T>(what: string, kind: Kind, side: Side, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`gateway bench, ${what}, ${kind} server, ${side}: ${String(error)}`, { cause: error });
  }
}

/** The gateway's CPU per call (µs) over `calls` calls of `work`; undefined direct or off Linux. */
async function gatewayCpu(env: Setup, calls: number, work: () => Promise<void>): Promise<number | undefined> {
  const before = env.gatewayCpuMs();
  await work();
  const after = env.gatewayCpuMs();
  return before === undefined || after === undefined ? undefined : ((after - before) * 1000) / calls;
}

async function latency(kind: Kind, side: Side): Promise<{ times: number[]; cpu?: number }> {
  const env = await setup(kind, side);
  try {
    const client = await env.connect('latency');
    for (let i = 0; i < WARMUP; i++) await echo(client, `w${i}`);
    const times: number[] = [];
    const cpu = await gatewayCpu(env, CALLS, async () => {
      for (let i = 0; i < CALLS; i++) {
        const started = performance.now();
        await echo(client, `c${i}`);
        times.push(performance.now() - started);
      }
    });
    return { times, cpu };
  } finally {
    await env.stop();
  }
}

/** Calls per second of `CLIENTS` callers with one call in flight each, `ROUNDS` calls per caller. */
async function throughput(kind: Kind, side: Side): Promise<{ rate: number; cpu?: number }> {
  const env = await setup(kind, side);
  try {
    const shared = env.shared ? await env.connect('shared') : undefined;
    const callers = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, index) => shared ?? env.connect(`client-${index}`)),
    );
    // A short warm-up for every caller (JIT, sockets), then the timed part.
    await Promise.all(callers.map((client, index) => echo(client, `w${index}`)));
    const started = performance.now();
    const cpu = await gatewayCpu(env, CLIENTS * ROUNDS, async () => {
      await Promise.all(
        callers.map(async (client, index) => {
          for (let round = 0; round < ROUNDS; round++) await echo(client, `${index}:${round}`);
        }),
      );
    });
    return { rate: (CLIENTS * ROUNDS) / ((performance.now() - started) / 1000), cpu };
  } finally {
    await env.stop();
  }
}

/** 50 clients × 1,000 calls at once through one gateway to one stdio server; every answer is its own request's. */
async function scale(): Promise<number> {
  const env = await setup('stdio', 'gateway');
  try {
    const clients = await Promise.all(Array.from({ length: 50 }, (_, index) => env.connect(`scale-${index}`)));
    const started = performance.now();
    await Promise.all(
      clients.map(async (client, index) => {
        // Ten calls in flight per client, 1,000 in all.
        await Promise.all(
          Array.from({ length: 10 }, async (_, lane) => {
            for (let call = lane; call < 1000; call += 10) await echo(client, `${index}:${call}`);
          }),
        );
      }),
    );
    return performance.now() - started;
  } finally {
    await env.stop();
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function verdict(ok: boolean): string {
  return ok ? 'meets' : 'MISSES';
}

function load(): string {
  return `load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`;
}

export async function gatewaySection(): Promise<void> {
  console.log('');
  console.log(
    `Gateway (issue 37): SDK 1.32.2 client through \`mcp-workbench gateway\` (its own process) vs the same client direct; ` +
      `${CALLS} timed calls after ${WARMUP}, ${CLIENTS} concurrent callers × ${ROUNDS} calls, ${REPS} repetitions, sides alternated`,
  );
  console.log(`  (${load()} at the start)`);
  for (const kind of ['stdio', 'http', 'modern'] as const) {
    const p50: Record<Side, number[]> = { direct: [], gateway: [] };
    const p99: Record<Side, number[]> = { direct: [], gateway: [] };
    const rate: Record<Side, number[]> = { direct: [], gateway: [] };
    const cpuSequential: number[] = [];
    const cpuConcurrent: number[] = [];
    for (let rep = 0; rep < REPS; rep++) {
      for (const side of rotated(['direct', 'gateway'] as const, rep)) {
        const { times, cpu } = await phase('latency', kind, side, () => latency(kind, side));
        p50[side].push(percentile(times, 50));
        p99[side].push(percentile(times, 99));
        if (cpu !== undefined) cpuSequential.push(cpu);
      }
      for (const side of rotated(['direct', 'gateway'] as const, rep + 1)) {
        const { rate: measured, cpu } = await phase('throughput', kind, side, () => throughput(kind, side));
        rate[side].push(measured);
        if (cpu !== undefined) cpuConcurrent.push(cpu);
      }
    }
    const addedP50 = p50.gateway.map((value, i) => value - p50.direct[i]);
    const addedP99 = p99.gateway.map((value, i) => value - p99.direct[i]);
    const ratios = rate.gateway.map((value, i) => value / rate.direct[i]);
    const server =
      kind === 'stdio'
        ? 'stdio server (bench/fixtures/server.mjs)'
        : kind === 'http'
          ? 'HTTP server (handshake-http-server)'
          : 'stdio server, the SDK 2.4.0 client: 2026-07-28 through the gateway, the handshake direct';
    console.log('');
    console.log(`  ${server}`);
    console.log(
      `    p50 per call: direct ${median(p50.direct).toFixed(3)} ms, gateway ${median(p50.gateway).toFixed(3)} ms, added ${median(addedP50).toFixed(3)} ms [${Math.min(...addedP50).toFixed(3)}–${Math.max(...addedP50).toFixed(3)}] (target ≤ 0.2: ${verdict(median(addedP50) <= 0.2)})`,
    );
    console.log(
      `    p99 per call: direct ${median(p99.direct).toFixed(3)} ms, gateway ${median(p99.gateway).toFixed(3)} ms, added ${median(addedP99).toFixed(3)} ms [${Math.min(...addedP99).toFixed(3)}–${Math.max(...addedP99).toFixed(3)}] (target ≤ 1: ${verdict(median(addedP99) <= 1)})`,
    );
    console.log(
      `    ${CLIENTS} concurrent callers: direct ${median(rate.direct).toFixed(0)} calls/s, gateway ${median(rate.gateway).toFixed(0)} calls/s, ratio ${median(ratios).toFixed(2)}x [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}] (target ≥ 0.8x: ${verdict(median(ratios) >= 0.8)})`,
    );
    if (cpuSequential.length > 0 && cpuConcurrent.length > 0)
      console.log(
        `    the gateway process's own CPU per call: ${median(cpuSequential).toFixed(0)} µs one caller, ${median(cpuConcurrent).toFixed(0)} µs ${CLIENTS} callers (${load()} now)`,
      );
  }
  // The floor: what the HTTP hop alone costs this client here (the gateway adds one such hop to a stdio server).
  const floorP50: number[] = [];
  const floorP99: number[] = [];
  const floorRate: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const { times } = await phase('latency', 'floor', 'direct', () => latency('floor', 'direct'));
    floorP50.push(percentile(times, 50));
    floorP99.push(percentile(times, 99));
    floorRate.push((await phase('throughput', 'floor', 'direct', () => throughput('floor', 'direct'))).rate);
  }
  console.log('');
  console.log(
    `  the HTTP hop's floor, the same client direct to a bare node:http echo (bench/fixtures/echo-http-server.mjs): ` +
      `p50 ${median(floorP50).toFixed(3)} ms, p99 ${median(floorP99).toFixed(3)} ms, ${CLIENTS} concurrent callers ${median(floorRate).toFixed(0)} calls/s (${load()} now)`,
  );
  if (SCALE) {
    const ms = await phase('50 × 1,000', 'stdio', 'gateway', scale);
    console.log('');
    console.log(
      `  50 clients × 1,000 calls at once through one gateway to one stdio server: ${(ms / 1000).toFixed(1)} s, every answer its own request's`,
    );
  }
}
