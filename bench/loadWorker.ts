/**
 * One column of the load section (bench/load.ts) in a process of its own, bundled like bench/worker.ts so this
 * project's code runs as it ships. It starts the raw fixture, warms up, measures one run and prints one JSON line:
 *   raw   the bench's raw newline-JSON client (bench/clients.ts RawClient) in a plain loop: the floor
 *   loop  this project's McpClient in the same plain loop
 *   load  McpClient driven by the load generator (src/workbench/load/loadRun.ts), as `mcp-workbench load` runs it
 * A plain loop is `concurrency` async loops, each awaiting one call after the other and timing it into the same
 * histogram the load generator uses, so the columns differ only in what they are meant to compare.
 *   argv: <raw|loop|load> <server script> <concurrency> <calls> <warmup calls>
 */
import { OursClient, RawClient, REQUEST_TIMEOUT_MS, type BenchClient } from './clients';
import * as ours from './oursEntry';
import { LatencyHistogram } from '../src/workbench/load/histogram';
import { runLoad } from '../src/workbench/load/loadRun';

export interface LoadColumnResult {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  throughputPerS: number;
  clientCpuPercent: number;
}

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

async function plainLoop(client: BenchClient, concurrency: number, calls: number): Promise<LoadColumnResult> {
  const histogram = new LatencyHistogram();
  let issued = 0;
  const started = performance.now();
  const cpuStart = cpuMicros();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (issued < calls) {
        issued++;
        const at = performance.now();
        await client.echo('x');
        histogram.record(performance.now() - at);
      }
    }),
  );
  const elapsed = performance.now() - started;
  return {
    p50: histogram.percentileMs(50),
    p90: histogram.percentileMs(90),
    p99: histogram.percentileMs(99),
    mean: histogram.meanMs,
    throughputPerS: (calls / elapsed) * 1000,
    clientCpuPercent: ((cpuMicros() - cpuStart) / 1000 / elapsed) * 100,
  };
}

async function main(): Promise<void> {
  const [column, script, concurrencyText, callsText, warmupText] = process.argv.slice(2);
  const concurrency = Number(concurrencyText);
  const calls = Number(callsText);
  const warmup = Number(warmupText);
  const server = { script };
  if (column === 'raw') {
    const client = new RawClient(0, server);
    await client.start();
    await plainLoop(client, concurrency, warmup);
    process.stdout.write(`${JSON.stringify(await plainLoop(client, concurrency, calls))}\n`);
    await client.close();
    return;
  }
  if (column === 'loop') {
    const client = new OursClient(0, ours, server);
    await client.start();
    await plainLoop(client, concurrency, warmup);
    process.stdout.write(`${JSON.stringify(await plainLoop(client, concurrency, calls))}\n`);
    await client.close();
    return;
  }
  const client = new ours.McpClient({
    serverName: 'bench',
    transport: new ours.StdioTransport({ command: process.execPath, args: ['--no-warnings', script] }),
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    initializeTimeoutMs: REQUEST_TIMEOUT_MS,
  });
  await client.connect();
  await client.listTools();
  const run = (requests: number) =>
    runLoad(
      async (call, signal) => {
        const outcome = await client.callTool(call.tool, call.args, { signal });
        return { isError: outcome.result.isError === true };
      },
      {
        calls: [{ tool: 'echo', args: { text: 'x' } }],
        shape: { kind: 'closed', concurrency },
        requests,
        clock: {
          now: () => performance.now(),
          setTimeout: (callback, ms) => setTimeout(callback, ms),
          clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
          cpuMicros,
        },
      },
    );
  await run(warmup);
  const report = await run(calls);
  if (report.errors > 0) throw new Error(`${report.errors} calls failed: ${JSON.stringify(report.errorsByKind)}`);
  const result: LoadColumnResult = {
    p50: report.latencyMs.p50,
    p90: report.latencyMs.p90,
    p99: report.latencyMs.p99,
    mean: report.latencyMs.mean,
    throughputPerS: report.throughputPerS,
    clientCpuPercent: report.clientCpuPercent ?? Number.NaN,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await client.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
