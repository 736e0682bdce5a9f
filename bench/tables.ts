/** The bench's tables: every time with its range, every ratio paired by repetition with its range. */
import { CALLS, COLD_REPS, LARGE_CALLS, REPS } from './config';
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
  rawModernStdio: 'raw, stdio',
  rawModernHttp: 'raw, Streamable HTTP',
  rawHandshakeHttp: 'raw, Streamable HTTP',
};

/** A wall-time ratio column, `ours` over `reference`: for reference only (issue 42 retired issue 24's wall targets). */
export interface RatioColumn {
  label: string;
  ours: ClientKind;
  reference: ClientKind;
}

/**
 * One transport of an era in the CPU table: this client, the raw loop of the same era and transport, and the SDK
 * clients that speak it (the 1.x SDK does not speak 2026-07-28).
 */
export interface CpuRow {
  label: string;
  ours: ClientKind;
  raw: ClientKind;
  sdk?: ClientKind;
  sdkV2?: ClientKind;
}

/** Issue 42's targets on the client's own CPU per call. */
export const CPU_TARGETS = { warmRaw: 1.2, warmSdk: 0.7, coldRaw: 1.5 } as const;

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
  ours: ClientKind,
  reference: ClientKind | undefined,
  of: 'wall' | 'cpu',
): number[] {
  if (reference === undefined) return [];
  const a = cell(results, state, workload, ours);
  const b = cell(results, state, workload, reference);
  if (!a || !b || a.error !== undefined || b.error !== undefined) return [];
  return pairedRatios(a[of], b[of]);
}

function row(values: readonly string[]): string {
  return `| ${values.join(' | ')} |`;
}

/**
 * One row per workload and state (cold, then warm): the columns' wall times with their CPU, then each ratio of wall
 * time (paired by repetition, median [min–max]). No verdicts: wall time on a shared machine is the run's noise more
 * than the client's; the CPU table (printCpuTable) carries the targets.
 */
export function printTimesTable(
  results: Results,
  workloads: readonly WorkloadId[],
  columns: readonly ClientKind[],
  ratioColumns: readonly RatioColumn[],
): void {
  const header = [
    'workload',
    'state',
    ...columns.map((c) => LABELS[c]),
    ...ratioColumns.map((r) => `${r.label} (wall)`),
  ];
  console.log(row(header));
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const workload of workloads) {
    for (const state of ['cold', 'warm'] as const) {
      if (!results.get(state)?.has(workload)) continue;
      console.log(
        row([
          workloadName(workload),
          state,
          ...columns.map((c) => showCell(cell(results, state, workload, c))),
          ...ratioColumns.map((ratio) =>
            showRatios(ratios(results, state, workload, ratio.ours, ratio.reference, 'wall')),
          ),
        ]),
      );
    }
  }
  console.log('');
  console.log(
    `Cells: wall ms, median [min–max] over repetitions (cold ${COLD_REPS}, warm ${REPS}), and the median CPU ms of the client's own process (the server's is not in it). ` +
      'Ratios: per-repetition pairs (the same repetition of both columns), median [min–max]; < 1 means this client took less time. Wall time is for reference, without targets.',
  );
}

function callsOf(workload: WorkloadId): number | undefined {
  switch (workload) {
    case 'sequential':
    case 'concurrent':
      return CALLS;
    case 'concurrentLarge':
      return LARGE_CALLS;
    case 'readBig':
      return undefined; // one read, not calls: its CPU is in the wall table
  }
}

/** "7.4": median client CPU µs per call of a cell. */
function cpuPerCall(value: Cell | undefined, calls: number): string {
  if (!value) return 'n/a';
  if (value.error !== undefined) return 'FAILED';
  const cpu = present(value.cpu);
  return cpu.length === 0 ? 'n/a' : ((median(cpu) * 1000) / calls).toFixed(1);
}

/** A CPU ratio beside its target: "1.15x [1.10–1.20] ≤ 1.2 MET"; without a target, the ratio alone. */
function judged(values: readonly number[], target: number | undefined, verdicts: string[], label: string): string {
  if (values.length === 0) return 'n/a';
  if (target === undefined) return showRatios(values);
  const met = median(values) <= target;
  verdicts.push(met ? 'MET' : `NOT MET (${label} > ${target})`);
  return `${showRatios(values)} ≤ ${target} ${met ? 'MET' : 'NOT MET'}`;
}

/**
 * Issue 42's table: the client process's own CPU (user + system) per call, µs, of this client, the raw loop and the
 * SDK clients, for every workload and transport; ours/raw and ours/SDK paired by repetition beside their targets
 * (warm: 1.2x raw, 0.7x each SDK; cold, a fresh process's first calls: 1.5x raw).
 */
export function printCpuTable(results: Results, workloads: readonly WorkloadId[], rows: readonly CpuRow[]): void {
  const header = [
    'workload',
    'transport',
    'state',
    'ours µs/call',
    'raw µs/call',
    'SDK 1.x µs/call',
    'SDK 2.x µs/call',
    'ours/raw',
    'ours/SDK 1.x',
    'ours/SDK 2.x',
    'verdict',
  ];
  console.log(row(header));
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const workload of workloads) {
    const calls = callsOf(workload);
    if (calls === undefined) continue;
    for (const cpuRow of rows) {
      for (const state of ['cold', 'warm'] as const) {
        if (!results.get(state)?.has(workload)) continue;
        const warm = state === 'warm';
        const verdicts: string[] = [];
        const ratio = (reference: ClientKind | undefined) =>
          ratios(results, state, workload, cpuRow.ours, reference, 'cpu');
        const perCall = (column: ClientKind | undefined) =>
          column === undefined ? '—' : cpuPerCall(cell(results, state, workload, column), calls);
        const shown = [
          judged(ratio(cpuRow.raw), warm ? CPU_TARGETS.warmRaw : CPU_TARGETS.coldRaw, verdicts, 'ours/raw'),
          cpuRow.sdk === undefined
            ? '—'
            : judged(ratio(cpuRow.sdk), warm ? CPU_TARGETS.warmSdk : undefined, verdicts, 'ours/SDK 1.x'),
          cpuRow.sdkV2 === undefined
            ? '—'
            : judged(ratio(cpuRow.sdkV2), warm ? CPU_TARGETS.warmSdk : undefined, verdicts, 'ours/SDK 2.x'),
        ];
        const failed = verdicts.filter((verdict) => verdict !== 'MET');
        const verdict = verdicts.length === 0 ? 'n/a' : failed.length === 0 ? 'MET' : failed.join('; ');
        console.log(
          row([
            workloadName(workload),
            cpuRow.label,
            state,
            perCall(cpuRow.ours),
            perCall(cpuRow.raw),
            perCall(cpuRow.sdk),
            perCall(cpuRow.sdkV2),
            ...shown,
            verdict,
          ]),
        );
      }
    }
  }
  console.log('');
  console.log(
    `Client CPU per call: the client process's user + system CPU over the workload (its server's is not in it) divided by the calls, median over repetitions (cold ${COLD_REPS}: each a fresh process's first calls; warm ${REPS}). ` +
      `Ratios paired by repetition, median [min–max]. Targets (issue 42): warm ≤ ${CPU_TARGETS.warmRaw}x raw and ≤ ${CPU_TARGETS.warmSdk}x each SDK; cold ≤ ${CPU_TARGETS.coldRaw}x raw.`,
  );
}
