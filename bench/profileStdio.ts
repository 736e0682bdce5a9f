/**
 * Where a request's time goes in this client over stdio (not part of `npm run bench`):
 *   node --import tsx bench/profileStdio.ts [sequential|concurrent] [calls] [out.cpuprofile] [ours|raw|oursModern|rawModern]
 * ours/raw: the handshake era against the raw fixture server (test/fixtures/bench/raw-server.mjs, so the server's
 * cost does not blur the picture); oursModern/rawModern: 2026-07-28 against bench/fixtures/modern-server.mjs. Warms
 * up with BENCH_WARMUP (20,000) calls, then profiles `calls` (default 20,000) echo calls with the V8 sampling
 * profiler and prints the self time per call by bucket (bench/profileBuckets.ts) and the top frames. raw and
 * rawModern profile the bench's raw loops instead, for contrast. Concurrent calls go in batches of
 * BENCH_PROFILE_BATCH (default 2,000; 10,000 is the bench's large workload). BENCH_PROFILE_ALLOC=1 then runs the
 * workload once more under the sampling heap profiler and prints the bytes allocated per call by function.
 */
import * as path from 'node:path';
import { loadBundledOursFile } from './bundle';
import { OursClient, OursModernClient, RawClient, type BenchClient } from './clients';
import { WARMUP_CALLS } from './config';
import { allocationsPerCall, printProfiledRun, profileRun } from './profileBuckets';
import { RawModernStdioClient } from './rawClients';
import { concurrentEchoes, sequentialEchoes, warmUp } from './workloads';

const RAW_SERVER = { script: path.join(__dirname, '..', 'test', 'fixtures', 'bench', 'raw-server.mjs') };
const MODERN_SERVER = path.join(__dirname, 'fixtures', 'modern-server.mjs');

function makeClient(which: string, bundled: () => ReturnType<typeof loadBundledOursFile>): BenchClient {
  switch (which) {
    case 'raw':
      return new RawClient(1024, RAW_SERVER);
    case 'rawModern':
      return new RawModernStdioClient(MODERN_SERVER);
    case 'oursModern':
      return new OursModernClient(bundled().ours, 'stdio', MODERN_SERVER);
    case 'ours':
      return new OursClient(1024, bundled().ours, RAW_SERVER);
    default:
      throw new Error(`${which}: ours, raw, oursModern or rawModern`);
  }
}

async function main(): Promise<void> {
  const [mode = 'sequential', callsText = '20000', out, which = 'ours'] = process.argv.slice(2);
  const calls = Number(callsText);
  const batch = Number(process.env.BENCH_PROFILE_BATCH ?? 2000);
  let bundle: string | undefined;
  const client = makeClient(which, () => {
    const loaded = loadBundledOursFile();
    bundle = loaded.file;
    return loaded;
  });
  await client.start();
  try {
    await warmUp(client, WARMUP_CALLS);
    const workload = async () => {
      if (mode === 'concurrent')
        for (let done = 0; done < calls; done += batch) await concurrentEchoes(client, Math.min(batch, calls - done));
      else await sequentialEchoes(client, calls);
    };
    const run = await profileRun(workload, calls, { out, bundle });
    printProfiledRun(`${which}, stdio, ${mode}`, run);
    if (process.env.BENCH_PROFILE_ALLOC === '1')
      for (const line of await allocationsPerCall(workload, calls, bundle)) console.log(line);
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
