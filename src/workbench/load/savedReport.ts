/**
 * What the editor keeps of a load run: the live chart's series of snapshots (bounded however long the run) and the
 * report saved at its end, as JSON, masked with the server's secrets (the arguments a person typed may hold a token,
 * and the file is made to be shared).
 */
import { maskSecrets, maskText } from '../secrets';
import type { LoadCall, LoadReport, LoadShape, LoadSnapshot } from './loadRun';
import { loadSummary } from './loadSummary';

/** Points a chart keeps: at 2 a second, an hour's run fits before the series thins. */
export const MAX_SERIES_POINTS = 7200;

/**
 * The snapshots of a run, at most `cap` of them: past the cap every other point is dropped (the oldest kept), so a
 * long run keeps its whole shape at half the resolution instead of losing its start.
 */
export class SnapshotSeries {
  private readonly items: LoadSnapshot[] = [];

  constructor(private readonly cap = MAX_SERIES_POINTS) {
    if (!(cap >= 2)) throw new RangeError('a series keeps at least 2 points');
  }

  push(snapshot: LoadSnapshot): void {
    this.items.push(snapshot);
    if (this.items.length <= this.cap) return;
    // Keep the even indices and always the newest point (the run's latest state, or its final snapshot).
    const newest = this.items[this.items.length - 1];
    const kept = this.items.filter((_, index) => index % 2 === 0);
    if (kept[kept.length - 1] !== newest) kept.push(newest);
    this.items.splice(0, this.items.length, ...kept);
  }

  get points(): readonly LoadSnapshot[] {
    return this.items;
  }
}

export interface SavedLoadReport {
  /** Tells the file apart from a recording or another JSON file. */
  kind: 'mcp-workbench-load-report';
  version: 1;
  server: string;
  /** ISO 8601, when the run started. */
  startedAt: string;
  calls: LoadCall[];
  shape: LoadShape;
  requestsLimit?: number;
  durationMs?: number;
  /** The readable summary (the CLI's `load` output). */
  summary: string;
  report: LoadReport;
  snapshots: LoadSnapshot[];
}

export interface LoadRunRecord {
  server: string;
  startedAt: Date;
  calls: readonly LoadCall[];
  shape: LoadShape;
  requests?: number;
  durationMs?: number;
  report: LoadReport;
  snapshots: readonly LoadSnapshot[];
}

/** The report as saved; every string in it is masked with `secrets` (and values under secret-looking keys). */
export function savedLoadReport(run: LoadRunRecord, secrets: readonly string[]): SavedLoadReport {
  return {
    kind: 'mcp-workbench-load-report',
    version: 1,
    server: maskText(run.server, secrets),
    startedAt: run.startedAt.toISOString(),
    calls: run.calls.map((call) => ({ tool: maskText(call.tool, secrets), args: maskSecrets(call.args, secrets) })),
    shape: run.shape,
    ...(run.requests !== undefined ? { requestsLimit: run.requests } : {}),
    ...(run.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
    summary: maskText(loadSummary(run.server, run.report), secrets),
    report: maskSecrets(run.report, secrets),
    snapshots: [...run.snapshots],
  };
}

/**
 * A file name for the report: the server's name reduced to letters, digits, `-` and `_` (it names a file in a folder
 * of ours, so no separator or dot-dot may pass), and the start time.
 */
export function loadReportFileName(server: string, startedAt: Date): string {
  const name =
    server
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'server';
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  return `load-${name}-${stamp}.json`;
}
