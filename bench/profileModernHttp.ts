/**
 * A small driver for profiling this client's 2026-07-28 HTTP POST path (not part of `npm run bench`):
 *   node --cpu-prof --import tsx bench/profileModernHttp.ts [ours|sdk] [concurrent|sequential] [rounds]
 * Starts the modern bench fixture over HTTP, runs BENCH_CALLS (default 2000) echo calls per round, and prints the
 * client process's CPU time per round.
 */
import { loadBundledOurs } from './bundle';
import * as path from 'node:path';
import { OursModernClient, SdkV2ModernClient, type BenchClient } from './clients';

const MODERN_SERVER = path.join(__dirname, 'fixtures', 'modern-server.mjs');

async function main(): Promise<void> {
  const [which = 'ours', mode = 'concurrent', roundsText = '5'] = process.argv.slice(2);
  const calls = Number(process.env.BENCH_CALLS ?? 2000);
  const client: BenchClient = which === 'sdk' ? new SdkV2ModernClient('http', MODERN_SERVER) : new OursModernClient(loadBundledOurs(), 'http', MODERN_SERVER);
  await client.start();
  try {
    for (let round = 0; round < Number(roundsText); round++) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      if (mode === 'sequential') {
        for (let i = 0; i < calls; i++) await client.echo(`hello ${i}`);
      } else {
        await Promise.all(Array.from({ length: calls }, (_, i) => client.echo(`hello ${i}`)));
      }
      const cpu = process.cpuUsage(cpuBefore);
      console.log(`${which} ${mode} round ${round}: ${(performance.now() - started).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`);
    }
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
