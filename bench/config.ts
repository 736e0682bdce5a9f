/**
 * The bench's knobs, read from the environment by the orchestrator (bench/run.ts) and, through the inherited
 * environment, by every worker process, so both sides agree on the workload sizes.
 *   BENCH_REPS (default 3)               warm repetitions of each small-call workload
 *   BENCH_COLD_REPS (default 2)          cold repetitions (each one a fresh client process and server); 0: no cold rows
 *   BENCH_WARMUP (default 20000)         calls a warm worker makes before its timed part
 *   BENCH_CALLS (default 2000)           calls of the sequential and the first concurrent workload
 *   BENCH_CONCURRENT_LARGE (default 10000) calls of the large concurrent workload
 *   BENCH_BIG_BYTES (default 50 MiB)     size of `bench://big`
 *   BENCH_BIG_REPS (default 2)           repetitions of the big read
 *   BENCH_SECTIONS (default handshake,http-handshake,modern,cli-memory,gateway): which of bench/run.ts's sections run
 *                                        (also: load, bench/load.ts, with its own BENCH_LOAD_* knobs)
 *   BENCH_GATEWAY_* (bench/gateway.ts)    the gateway section's sizes
 *   BENCH_OWN_SESSION=1                  adds the column with the server in its own session (setsid)
 */
export function positiveInt(name: string, fallback: number, allowZero = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1))
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${raw}`);
  return value;
}

export const REPS = positiveInt('BENCH_REPS', 3);
export const COLD_REPS = positiveInt('BENCH_COLD_REPS', 2, true);
export const WARMUP_CALLS = positiveInt('BENCH_WARMUP', 20_000, true);
export const CALLS = positiveInt('BENCH_CALLS', 2000);
export const LARGE_CALLS = positiveInt('BENCH_CONCURRENT_LARGE', 10_000);
export const BIG_BYTES = positiveInt('BENCH_BIG_BYTES', 50 * 1024 * 1024);
export const BIG_REPS = positiveInt('BENCH_BIG_REPS', 2);
export const OWN_SESSION = process.env.BENCH_OWN_SESSION === '1';
export const SECTIONS = (process.env.BENCH_SECTIONS ?? 'handshake,http-handshake,modern,cli-memory,gateway')
  .split(',')
  .map((section) => section.trim());
/** Large enough for the 50 MiB message (the SDK's default is 10 MiB). */
export const SDK_RAISED_BUFFER = 256 * 1024 * 1024;

export function formatBytes(bytes: number): string {
  return bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`;
}
