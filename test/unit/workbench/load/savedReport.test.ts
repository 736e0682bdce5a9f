import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LoadReport, LoadSnapshot } from '../../../../src/workbench/load/loadRun';
import { SnapshotSeries, loadReportFileName, savedLoadReport } from '../../../../src/workbench/load/savedReport';

function snapshot(atMs: number, final = false): LoadSnapshot {
  return {
    atMs,
    requests: atMs,
    errors: 0,
    outstanding: 1,
    intervalMs: 500,
    completed: 10,
    throughputPerS: 20,
    p50Ms: 1,
    p99Ms: 2,
    final,
  };
}

const REPORT: LoadReport = {
  requests: 10,
  errors: 1,
  errorsByKind: { 'tool-error': 1 },
  elapsedMs: 1000,
  throughputPerS: 10,
  latencyMs: { p50: 1, p90: 2, p99: 3, max: 4, min: 0.5, mean: 1.5 },
  histogram: [{ upToMs: 1, count: 10 }],
  clientCpuPercent: 5,
  timeline: [],
  interrupted: false,
  abandoned: 0,
  notSent: 0,
  notes: [],
};

describe('SnapshotSeries', () => {
  test('keeps every point up to its cap, then thins to every other point and keeps the newest', () => {
    const series = new SnapshotSeries(4);
    for (const at of [0, 1, 2, 3]) series.push(snapshot(at));
    assert.deepEqual(
      series.points.map((point) => point.atMs),
      [0, 1, 2, 3],
    );
    series.push(snapshot(4, true));
    assert.deepEqual(
      series.points.map((point) => point.atMs),
      [0, 2, 4],
      'the start of the run stays, and the final point',
    );
    for (let at = 5; at < 1000; at++) series.push(snapshot(at));
    assert.ok(series.points.length <= 4);
    assert.equal(series.points.at(-1)?.atMs, 999);
    assert.equal(series.points[0].atMs, 0);
  });
});

describe('savedLoadReport', () => {
  test('masks the server’s secrets in the arguments, the summary and the report; keeps the numbers', () => {
    const saved = savedLoadReport(
      {
        server: 'api',
        startedAt: new Date('2026-12-07T10:00:00.000Z'),
        calls: [{ tool: 'search', args: { query: 'x', auth: 'sk-live-123', apiKey: 'plain' } }],
        shape: { kind: 'closed', concurrency: 4 },
        durationMs: 10_000,
        report: { ...REPORT, notes: ['the server said sk-live-123'] },
        snapshots: [snapshot(500), snapshot(1000, true)],
      },
      ['sk-live-123'],
    );
    const text = JSON.stringify(saved);
    assert.doesNotMatch(text, /sk-live-123/);
    assert.doesNotMatch(text, /"plain"/, 'a secret-looking key is masked too');
    assert.equal(saved.kind, 'mcp-workbench-load-report');
    assert.equal(saved.startedAt, '2026-12-07T10:00:00.000Z');
    assert.equal(saved.calls[0].args.query, 'x');
    assert.equal(saved.report.requests, 10);
    assert.equal(saved.durationMs, 10_000);
    assert.equal(saved.requestsLimit, undefined);
    assert.equal(saved.snapshots.length, 2);
    assert.match(saved.summary, /^api: 10 calls in 1\.00 s/);
  });
});

describe('loadReportFileName', () => {
  test('no separator, dot-dot or control character of a server name reaches the file name', () => {
    const name = loadReportFileName('../../etc/passwd\u202E\n', new Date('2026-12-07T10:00:00.123Z'));
    assert.equal(name, 'load-etc-passwd-2026-12-07T10-00-00-123Z.json');
    assert.equal(loadReportFileName('///', new Date(0)), 'load-server-1970-01-01T00-00-00-000Z.json');
  });
});
