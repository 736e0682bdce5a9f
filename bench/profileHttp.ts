/**
 * Where a call's time goes in one client's Streamable HTTP POST path (not part of `npm run bench`):
 *   node --import tsx bench/profileHttp.ts [modern|handshake] [ours|raw|sdk|sdkV1] [concurrent|sequential] [rounds] [out.cpuprofile]
 * modern: bench/fixtures/modern-server.mjs, 2026-07-28 (sdk: the v2 SDK pinned to it); handshake:
 * bench/fixtures/handshake-http-server.mjs, 2025-11-25 (sdk: the v2 SDK with legacy negotiation, sdkV1: the v1 SDK);
 * raw: the raw node:http loop of the era (bench/rawClients.ts). Runs BENCH_CALLS (default 2000) echo calls per round
 * and prints the client process's CPU per round; the last round runs under the V8 sampling profiler and is bucketed
 * (bench/profileBuckets.ts). The earlier rounds are its warm-up.
 */
import { loadBundledOursFile } from './bundle';
import * as path from 'node:path';
import { OursModernClient, SdkV2ModernClient, type BenchClient } from './clients';
import { OursHandshakeHttpClient, SdkHandshakeHttpClient, SdkV2HandshakeHttpClient } from './handshakeHttpClients';
import { printProfiledRun, profileRun } from './profileBuckets';
import { RawHttpClient } from './rawClients';

const MODERN_SERVER = path.join(__dirname, 'fixtures', 'modern-server.mjs');
const HANDSHAKE_SERVER = { script: path.join(__dirname, 'fixtures', 'handshake-http-server.mjs') };

function makeClient(era: string, which: string, bundled: () => ReturnType<typeof loadBundledOursFile>): BenchClient {
  if (era === 'modern') {
    if (which === 'sdkV1') throw new Error('the v1 SDK does not speak 2026-07-28');
    if (which === 'raw') return new RawHttpClient('modern', { script: MODERN_SERVER, args: ['--transport', 'http'] });
    return which === 'sdk'
      ? new SdkV2ModernClient('http', MODERN_SERVER)
      : new OursModernClient(bundled().ours, 'http', MODERN_SERVER);
  }
  if (era !== 'handshake') throw new Error(`era ${era}: modern or handshake`);
  if (which === 'raw') return new RawHttpClient('handshake', HANDSHAKE_SERVER);
  if (which === 'sdk') return new SdkV2HandshakeHttpClient(HANDSHAKE_SERVER);
  if (which === 'sdkV1') return new SdkHandshakeHttpClient(HANDSHAKE_SERVER);
  return new OursHandshakeHttpClient(bundled().ours, HANDSHAKE_SERVER);
}

async function main(): Promise<void> {
  const [era = 'modern', which = 'ours', mode = 'concurrent', roundsText = '5', out] = process.argv.slice(2);
  const calls = Number(process.env.BENCH_CALLS ?? 2000);
  let bundle: string | undefined;
  const client = makeClient(era, which, () => {
    const loaded = loadBundledOursFile();
    bundle = loaded.file;
    return loaded;
  });
  const round = async () => {
    if (mode === 'sequential') {
      for (let i = 0; i < calls; i++) await client.echo(`hello ${i}`);
    } else {
      await Promise.all(Array.from({ length: calls }, (_, i) => client.echo(`hello ${i}`)));
    }
  };
  await client.start();
  try {
    const rounds = Math.max(1, Number(roundsText));
    for (let index = 0; index < rounds - 1; index++) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await round();
      const cpu = process.cpuUsage(cpuBefore);
      console.log(
        `${era} ${which} ${mode} round ${index}: ${(performance.now() - started).toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
      );
    }
    printProfiledRun(`${era} ${which}, HTTP, ${mode}, profiled round`, await profileRun(round, calls, { out, bundle }));
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
