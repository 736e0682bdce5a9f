/**
 * What one call costs each client in async work and in memory, counted rather than timed (so it holds on a busy
 * machine):
 *   node --import tsx bench/asyncPerCall.ts [calls]
 * For each client (this one bundled as it ships, SDK 1.x, SDK 2.x, the raw newline-JSON loop against the raw fixture
 * server; this one and the raw loop again in the 2026-07-28 era against bench/fixtures/modern-server.mjs), over
 * stdio, after a warm-up:
 *   - the promises, timers (Timeout), immediates, ticks and queueMicrotask callbacks created per call, sequential and
 *     `calls` at a time, counted with async_hooks (the hooks slow every client down, so this says how much work a
 *     call makes, not how long it takes);
 *   - the heap held per call in flight: `calls` calls are started in one turn, and the heap after a full collection
 *     in that same turn (before any answer can arrive) is compared with the heap before them. What a burst keeps
 *     alive is what every scavenge in it copies, which is why the collector's share of a concurrent call scales with
 *     it. The median of HELD_RUNS bursts; it includes what every client holds alike (the caller's own async frame,
 *     the arguments, the request line waiting in the pipe's buffer).
 * Not part of `npm run bench`.
 */
import { createHook } from 'node:async_hooks';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadBundledOurs } from './bundle';
import { OursClient, OursModernClient, RawClient, SdkClient, SdkV2Client, type BenchClient } from './clients';
import { RawModernStdioClient } from './rawClients';
import { concurrentEchoes, sequentialEchoes, warmUp } from './workloads';

/** queueMicrotask's resources ('Microtask') are counted too: each is an AsyncResource and a bound function. */
const KINDS = ['PROMISE', 'Timeout', 'Immediate', 'TickObject', 'Microtask'] as const;
const HELD_RUNS = 5;

async function count(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(KINDS.map((kind) => [kind, 0]));
  const hook = createHook({
    init(_id, type) {
      if (type in counts) counts[type]++;
    },
  });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return counts;
}

/** The collector, without asking for --expose-gc on the command line. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Bytes the heap holds per call while `calls` calls are in flight (median of HELD_RUNS bursts). */
async function heldPerCall(client: BenchClient, calls: number, gc: () => void): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < HELD_RUNS; run++) {
    const texts = Array.from({ length: calls }, (_, i) => `hello ${i}`);
    const answers: Promise<string>[] = new Array<Promise<string>>(calls);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < calls; i++) answers[i] = client.echo(texts[i]);
    gc();
    const during = process.memoryUsage().heapUsed;
    const answered = await Promise.all(answers);
    answered.forEach((answer, i) => {
      if (answer !== texts[i]) throw new Error(`echo ${i} answered ${JSON.stringify(answer)}`);
    });
    samples.push((during - before) / calls);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 2000);
  const server = { script: path.join(__dirname, '..', 'test', 'fixtures', 'bench', 'raw-server.mjs') };
  const modernServer = path.join(__dirname, 'fixtures', 'modern-server.mjs');
  const ours = loadBundledOurs();
  const gc = collector();
  const clients: [string, () => BenchClient][] = [
    ['ours', () => new OursClient(1024, ours, server)],
    ['SDK 1.x', () => new SdkClient(1024, server)],
    ['SDK 2.x', () => new SdkV2Client(1024, server)],
    ['raw', () => new RawClient(1024, server)],
    ['ours 2026', () => new OursModernClient(ours, 'stdio', modernServer)],
    ['raw 2026', () => new RawModernStdioClient(modernServer)],
  ];
  console.log(
    `per call, ${calls} calls after a 2,000-call warm-up: promises / timers / immediates / ticks / microtasks; heap held per call with ${calls} in flight`,
  );
  for (const [label, make] of clients) {
    const client = make();
    await client.start();
    try {
      await warmUp(client, 2000);
      const perCall = (counts: Record<string, number>) =>
        KINDS.map((kind) => (counts[kind] / calls).toFixed(1)).join(' / ');
      const sequential = await count(() => sequentialEchoes(client, calls));
      const concurrent = await count(() => concurrentEchoes(client, calls));
      const held = await heldPerCall(client, calls, gc);
      console.log(
        `${label.padEnd(10)} sequential ${perCall(sequential).padEnd(30)} concurrent ${perCall(concurrent).padEnd(30)} held ${held.toFixed(0)} B`,
      );
    } finally {
      await client.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
