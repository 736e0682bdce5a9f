/**
 * Where a request's time goes in this client (not part of `npm run bench`):
 *   node --import tsx bench/profileStdio.ts [sequential|concurrent] [calls] [out.cpuprofile] [ours|raw]
 * Starts this client (bundled as it ships) against the raw fixture server (test/fixtures/bench/raw-server.mjs, so
 * the server's cost does not blur the picture), warms up with BENCH_WARMUP (20,000) calls, then profiles `calls`
 * (default 20,000) echo calls with the V8 sampling profiler and prints the top frames by self time, grouped by
 * function and file, with the share of each. `raw` profiles the bench's raw newline-JSON client instead, for contrast.
 * The inspector's own `dispatch` (serialising the profile as it stops) is left out of the summary.
 */
import * as fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as path from 'node:path';
import { loadBundledOurs } from './bundle';
import { OursClient, RawClient, type BenchClient } from './clients';
import { WARMUP_CALLS } from './config';
import { concurrentEchoes, sequentialEchoes, warmUp } from './workloads';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

function summarize(profile: Profile, top: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let total = 0;
  samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === 'dispatch' && !url) return; // the inspector answering Profiler.stop, not the workload
    const ms = (deltas[index] ?? 0) / 1000;
    total += ms;
    const file = url ? `${path.basename(url)}:${lineNumber + 1}` : '(native)';
    const key = `${functionName || '(anonymous)'} ${file}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
  });
  const rows = [...selfMs].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `total sampled ${total.toFixed(0)} ms`,
    ...rows.map(
      ([key, ms]) => `${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`,
    ),
  ];
}

async function main(): Promise<void> {
  const [mode = 'sequential', callsText = '20000', out, which = 'ours'] = process.argv.slice(2);
  const calls = Number(callsText);
  const server = { script: path.join(__dirname, '..', 'test', 'fixtures', 'bench', 'raw-server.mjs') };
  const client: BenchClient =
    which === 'raw' ? new RawClient(1024, server) : new OursClient(1024, loadBundledOurs(), server);
  await client.start();
  try {
    await warmUp(client, WARMUP_CALLS);
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    if (mode === 'concurrent')
      for (let done = 0; done < calls; done += 2000) await concurrentEchoes(client, Math.min(2000, calls - done));
    else await sequentialEchoes(client, calls);
    const cpu = process.cpuUsage(cpuBefore);
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    session.disconnect();
    const wall = performance.now() - started;
    console.log(
      `${calls} ${mode} calls: ${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms client CPU, ${((cpu.user + cpu.system) / calls) | 0} µs CPU per call`,
    );
    if (out) fs.writeFileSync(out, JSON.stringify(profile));
    for (const line of summarize(profile, 30)) console.log(line);
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
