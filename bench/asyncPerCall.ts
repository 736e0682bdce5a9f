/**
 * What one call costs this client in async work, counted rather than timed (so it holds on a busy machine):
 *   node --import tsx bench/asyncPerCall.ts [calls]
 * For each client (this one bundled as it ships, SDK 1.x, SDK 2.x, the raw newline-JSON loop), against the raw
 * fixture server over stdio, after a warm-up: the promises, timers (Timeout), immediates and ticks created per call,
 * sequential and 2,000 at a time, counted with async_hooks. Not part of `npm run bench`: the hooks themselves slow
 * every client down, so this says how much work a call makes, not how long it takes.
 */
import { createHook } from 'node:async_hooks';
import * as path from 'node:path';
import { loadBundledOurs } from './bundle';
import { OursClient, RawClient, SdkClient, SdkV2Client, type BenchClient } from './clients';
import { concurrentEchoes, sequentialEchoes, warmUp } from './workloads';

const KINDS = ['PROMISE', 'Timeout', 'Immediate', 'TickObject'] as const;

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

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 2000);
  const server = { script: path.join(__dirname, '..', 'test', 'fixtures', 'bench', 'raw-server.mjs') };
  const clients: [string, () => BenchClient][] = [
    ['ours', () => new OursClient(1024, loadBundledOurs(), server)],
    ['SDK 1.x', () => new SdkClient(1024, server)],
    ['SDK 2.x', () => new SdkV2Client(1024, server)],
    ['raw', () => new RawClient(1024, server)],
  ];
  console.log(`per call, ${calls} calls after a 2,000-call warm-up (promises / timers / immediates / ticks)`);
  for (const [label, make] of clients) {
    const client = make();
    await client.start();
    try {
      await warmUp(client, 2000);
      const perCall = (counts: Record<string, number>) =>
        KINDS.map((kind) => (counts[kind] / calls).toFixed(1)).join(' / ');
      const sequential = await count(() => sequentialEchoes(client, calls));
      const concurrent = await count(() => concurrentEchoes(client, calls));
      console.log(`${label.padEnd(8)} sequential ${perCall(sequential).padEnd(24)} concurrent ${perCall(concurrent)}`);
    } finally {
      await client.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
