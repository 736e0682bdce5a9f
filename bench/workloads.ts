/** What a worker times: one run of a workload against one client, throwing if an answer is wrong. */
import { BIG_BYTES, CALLS, LARGE_CALLS, formatBytes } from './config';
import type { BenchClient } from './clients';

export type WorkloadId = 'sequential' | 'concurrent' | 'concurrentLarge' | 'readBig';

export function workloadName(id: WorkloadId): string {
  switch (id) {
    case 'sequential':
      return `${CALLS} sequential tools/call echo`;
    case 'concurrent':
      return `${CALLS} concurrent tools/call echo`;
    case 'concurrentLarge':
      return `${LARGE_CALLS} concurrent tools/call echo`;
    case 'readBig':
      return `resources/read ${formatBytes(BIG_BYTES)}`;
  }
}

export function runWorkload(id: WorkloadId, client: BenchClient): Promise<void> {
  switch (id) {
    case 'sequential':
      return sequentialEchoes(client, CALLS);
    case 'concurrent':
      return concurrentEchoes(client, CALLS);
    case 'concurrentLarge':
      return concurrentEchoes(client, LARGE_CALLS);
    case 'readBig':
      return readBig(client);
  }
}

export async function sequentialEchoes(client: BenchClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const text = `hello ${i}`;
    const answer = await client.echo(text);
    if (answer !== text) throw new Error(`echo ${i} answered ${JSON.stringify(answer)}`);
  }
}

export async function concurrentEchoes(client: BenchClient, count: number): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => client.echo(`hello ${i}`)));
  answers.forEach((answer, i) => {
    if (answer !== `hello ${i}`) throw new Error(`echo ${i} answered ${JSON.stringify(answer)}`);
  });
}

async function readBig(client: BenchClient): Promise<void> {
  const length = await client.readBig();
  if (length !== BIG_BYTES) throw new Error(`read ${length} characters, expected ${BIG_BYTES}`);
}

/**
 * The steady state of a long-lived session before the timed part: `calls` echo calls, a tenth of them sequential
 * and the rest in concurrent batches of 1,000, so both paths are compiled and the heap has grown to its working
 * size.
 */
export async function warmUp(client: BenchClient, calls: number): Promise<void> {
  const sequential = Math.min(calls, Math.ceil(calls / 10));
  await sequentialEchoes(client, sequential);
  for (let left = calls - sequential; left > 0; left -= 1000) await concurrentEchoes(client, Math.min(1000, left));
}
