/** The bench's tables: every time with its range, every ratio paired by repetition with its range. */
import { COLD_REPS, REPS } from './config';
import type { Cell, Results, State } from './measure';
import { median, pairedRatios, showRatios, showTimes } from './stats';
import type { ClientKind } from './worker';
import { workloadName, type WorkloadId } from './workloads';

export const LABELS: Readonly<Record<ClientKind, string>> = {
  ours: 'ours (McpClient)',
  oursOwnSession: 'ours, server in own session (setsid)',
  sdk: 'SDK 1.32.2 (default)',
  sdkRaised: 'SDK 1.32.2 (maxBufferSize 256 MiB)',
  sdkV2: 'SDK 2.4.0 Client',
  raw: 'raw newline-JSON client',
  oursModernStdio: 'ours, stdio',
  sdkV2ModernStdio: 'SDK 2.4.0, stdio',
  oursModernHttp: 'ours, Streamable HTTP',
  sdkV2ModernHttp: 'SDK 2.4.0, Streamable HTTP',
  oursHandshakeHttp: 'ours, Streamable HTTP',
  sdkHandshakeHttp: 'SDK 1.32.2, Streamable HTTP',
  sdkV2HandshakeHttp: 'SDK 2.4.0, Streamable HTTP',
};

/** A ratio column: `ours` over `reference`, and the most it may be. */
export interface RatioColumn {
  label: string;
  ours: ClientKind;
  reference: ClientKind;
  target: number;
}

function cell(results: Results, state: State, workload: WorkloadId, column: ClientKind): Cell | undefined {
  return results.get(state)?.get(workload)?.get(column);
}

function present(values: readonly (number | undefined)[]): number[] {
  return values.filter((value): value is number => value !== undefined);
}

function showCell(value: Cell | undefined): string {
  if (!value) return 'n/a';
  if (value.error !== undefined) return `FAILED (${value.error})`;
  const wall = present(value.wall);
  if (wall.length === 0) return 'n/a';
  return `${showTimes(wall)} (cpu ${median(present(value.cpu)).toFixed(0)})`;
}

function ratios(
  results: Results,
  state: State,
  workload: WorkloadId,
  ratio: RatioColumn,
  of: 'wall' | 'cpu',
): number[] {
  const a = cell(results, state, workload, ratio.ours);
  const b = cell(results, state, workload, ratio.reference);
  if (!a || !b || a.error !== undefined || b.error !== undefined) return [];
  return pairedRatios(a[of], b[of]);
}

function row(values: readonly string[]): string {
  return `| ${values.join(' | ')} |`;
}

/**
 * One row per workload and state (cold, then warm): the columns' times, then each ratio (wall, paired by
 * repetition, median [min–max]), then the verdict against every ratio's target (on the median).
 */
export function printTimesTable(
  results: Results,
  workloads: readonly WorkloadId[],
  columns: readonly ClientKind[],
  ratioColumns: readonly RatioColumn[],
): void {
  const header = ['workload', 'state', ...columns.map((c) => LABELS[c]), ...ratioColumns.map((r) => r.label), 'target'];
  console.log(row(header));
  console.log(`|${header.map(() => '---').join('|')}|`);
  const cpuNotes: string[] = [];
  for (const workload of workloads) {
    for (const state of ['cold', 'warm'] as const) {
      if (!results.get(state)?.has(workload)) continue;
      const verdicts: string[] = [];
      const shown = ratioColumns.map((ratio) => {
        const values = ratios(results, state, workload, ratio, 'wall');
        if (values.length > 0)
          verdicts.push(
            median(values) <= ratio.target ? 'MET' : `NOT MET (${ratio.label} > ${ratio.target.toFixed(2)})`,
          );
        const cpu = ratios(results, state, workload, ratio, 'cpu');
        if (cpu.length > 0)
          cpuNotes.push(`${workloadName(workload)}, ${state}: client CPU ${ratio.label} ${showRatios(cpu)}`);
        return showRatios(values);
      });
      const met = verdicts.length > 0 && verdicts.every((v) => v === 'MET');
      const verdict = verdicts.length === 0 ? 'n/a' : met ? 'MET' : verdicts.filter((v) => v !== 'MET').join('; ');
      console.log(
        row([
          workloadName(workload),
          state,
          ...columns.map((c) => showCell(cell(results, state, workload, c))),
          ...shown,
          verdict,
        ]),
      );
    }
  }
  console.log('');
  console.log(
    `Cells: wall ms, median [min–max] over repetitions (cold ${COLD_REPS}, warm ${REPS}), and the median CPU ms of the client's own process (the server's is not in it). ` +
      'Ratios: per-repetition pairs (the same repetition of both columns), median [min–max]; < 1 means this client took less time.',
  );
  for (const note of cpuNotes) console.log(`  ${note}`);
}
