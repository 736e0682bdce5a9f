/**
 * A small driver for profiling one client's Streamable HTTP POST path (not part of `npm run bench`):
 *   node --cpu-prof --import tsx bench/profileHttp.ts [modern|handshake] [ours|sdk|sdkV1] [concurrent|sequential] [rounds]
 * modern: bench/fixtures/modern-server.mjs, 2026-07-28 (sdk: the v2 SDK pinned to it); handshake:
 * bench/fixtures/handshake-http-server.mjs, 2025-11-25 (sdk: the v2 SDK with legacy negotiation, sdkV1: the v1 SDK).
 * Runs BENCH_CALLS (default 2000) echo calls per round and prints the client process's CPU time per round.
 */
import { loadBundledOurs } from './bundle';
import * as path from 'node:path';
import { OursModernClient, SdkV2ModernClient, type BenchClient } from './clients';
import { OursHandshakeHttpClient, SdkHandshakeHttpClient, SdkV2HandshakeHttpClient } from './handshakeHttpClients';

const MODERN_SERVER = path.join(__dirname, 'fixtures', 'modern-server.mjs');
const HANDSHAKE_SERVER = { script: path.join(__dirname, 'fixtures', 'handshake-http-server.mjs') };

function makeClient(era: string, which: string): BenchClient {
  if (era === 'modern') {
    if (which === 'sdkV1') throw new Error('the v1 SDK does not speak 2026-07-28');
    return which === 'sdk'
      ? new SdkV2ModernClient('http', MODERN_SERVER)
      : new OursModernClient(loadBundledOurs(), 'http', MODERN_SERVER);
  }
  if (era !== 'handshake') throw new Error(`era ${era}: modern or handshake`);
  if (which === 'sdk') return new SdkV2HandshakeHttpClient(HANDSHAKE_SERVER);
  if (which === 'sdkV1') return new SdkHandshakeHttpClient(HANDSHAKE_SERVER);
  return new OursHandshakeHttpClient(loadBundledOurs(), HANDSHAKE_SERVER);
}

async function main(): Promise<void> {
  const [era = 'modern', which = 'ours', mode = 'concurrent', roundsText = '5'] = process.argv.slice(2);
  const calls = Number(process.env.BENCH_CALLS ?? 2000);
  const client = makeClient(era, which);
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
      console.log(
        `${era} ${which} ${mode} round ${round}: ${(performance.now() - started).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
      );
    }
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
