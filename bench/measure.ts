/**
 * Runs a section's columns the way that cannot flatter one of them: every column in a process of its own
 * (bench/worker.ts), the column order rotated each repetition (and per workload), cold samples each from a fresh
 * process, warm samples after the warm-up. Samples are kept by repetition so ratios can be paired.
 */
import type { ServerCommand } from './clients';
import { BIG_BYTES, BIG_REPS, COLD_REPS, REPS, WARMUP_CALLS } from './config';
import { rotated } from './stats';
import type { ClientKind, WorkerSpec } from './worker';
import { WorkerHandle } from './workerHandle';
import { workloadName, type WorkloadId } from './workloads';

export type State = 'cold' | 'warm';

export interface Cell {
  /** Wall ms by repetition (undefined where the column did not run that repetition). */
  wall: (number | undefined)[];
  cpu: (number | undefined)[];
  error?: string;
}

/** cells[state][workload][column] */
export type Results = Map<State, Map<WorkloadId, Map<ClientKind, Cell>>>;

export interface SectionPlan {
  server: ServerCommand;
  columns: readonly ClientKind[];
  workloads: readonly WorkloadId[];
  /** Columns of the big read (warm only), and columns that read it only once (a 30 s read is not repeated). */
  bigRead?: { columns: readonly ClientKind[]; once: readonly ClientKind[] };
}

function emptyCell(): Cell {
  return { wall: [], cpu: [] };
}

function cellOf(results: Results, state: State, workload: WorkloadId, column: ClientKind): Cell {
  let byWorkload = results.get(state);
  if (!byWorkload) results.set(state, (byWorkload = new Map()));
  let byColumn = byWorkload.get(workload);
  if (!byColumn) byWorkload.set(workload, (byColumn = new Map()));
  let cell = byColumn.get(column);
  if (!cell) byColumn.set(column, (cell = emptyCell()));
  return cell;
}

function progress(text: string): void {
  process.stderr.write(`  ${text}\n`);
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 160);
}

async function sampleInto(cell: Cell, rep: number, take: () => Promise<{ wall: number; cpu: number }>): Promise<void> {
  if (cell.error !== undefined) return;
  try {
    const sample = await take();
    cell.wall[rep] = sample.wall;
    cell.cpu[rep] = sample.cpu;
  } catch (error) {
    cell.error = message(error);
  }
}

export async function measureSection(workerScript: string, plan: SectionPlan, title: string): Promise<Results> {
  const results: Results = new Map();
  const spec = (client: ClientKind, warmupCalls: number): WorkerSpec => ({
    client,
    server: plan.server,
    bigBytes: BIG_BYTES,
    warmupCalls,
  });

  for (let rep = 0; rep < COLD_REPS; rep++) {
    for (const [index, workload] of plan.workloads.entries()) {
      for (const column of rotated(plan.columns, rep + index)) {
        await sampleInto(cellOf(results, 'cold', workload, column), rep, async () => {
          const worker = await WorkerHandle.start(workerScript, spec(column, 0));
          try {
            return await worker.run(workload);
          } finally {
            await worker.close();
          }
        });
      }
    }
    progress(`${title}: cold repetition ${rep + 1}/${COLD_REPS} done`);
  }

  const bigColumns = plan.bigRead?.columns ?? [];
  const warmColumns = [...new Set([...plan.columns, ...bigColumns])];
  const workers = new Map<ClientKind, WorkerHandle>();
  const startErrors = new Map<ClientKind, string>();
  // One warm-up at a time: columns warming up side by side would slow each other down.
  for (const column of warmColumns) {
    try {
      workers.set(column, await WorkerHandle.start(workerScript, spec(column, WARMUP_CALLS)));
    } catch (error) {
      startErrors.set(column, message(error));
    }
  }
  progress(`${title}: ${workers.size} warm workers ready after ${WARMUP_CALLS} calls each`);
  try {
    const warmSample = async (workload: WorkloadId, column: ClientKind, rep: number) => {
      const cell = cellOf(results, 'warm', workload, column);
      const failed = startErrors.get(column);
      if (failed !== undefined) cell.error ??= failed;
      const worker = workers.get(column);
      if (worker) await sampleInto(cell, rep, () => worker.run(workload));
    };
    for (let rep = 0; rep < REPS; rep++) {
      for (const [index, workload] of plan.workloads.entries()) {
        for (const column of rotated(plan.columns, rep + index)) await warmSample(workload, column, rep);
      }
      progress(`${title}: warm repetition ${rep + 1}/${REPS} done`);
    }
    for (let rep = 0; rep < BIG_REPS && plan.bigRead; rep++) {
      for (const column of rotated(bigColumns, rep)) {
        if (rep > 0 && plan.bigRead.once.includes(column)) continue;
        await warmSample('readBig', column, rep);
      }
      progress(`${title}: ${workloadName('readBig')} repetition ${rep + 1}/${BIG_REPS} done`);
    }
  } finally {
    for (const worker of workers.values()) await worker.close();
  }
  return results;
}
