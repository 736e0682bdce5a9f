/** The readable summary of a load run: the CLI prints it, the editor saves it as the run's report. */
import type { LoadReport } from './loadRun';

function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : value >= 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(2)} ms`;
}

/** A longer run's seconds would bury the summary: --json has them all. */
const MAX_SECONDS_LISTED = 60;

export function loadSummary(serverName: string, report: LoadReport): string {
  const lines = [
    `${serverName}: ${report.requests} calls in ${(report.elapsedMs / 1000).toFixed(2)} s, ${report.throughputPerS} calls/s${report.interrupted ? ' (stopped before the end)' : ''}`,
    `latency: p50 ${ms(report.latencyMs.p50)}, p90 ${ms(report.latencyMs.p90)}, p99 ${ms(report.latencyMs.p99)}, max ${ms(report.latencyMs.max)}`,
    `errors: ${report.errors}${
      report.errors === 0
        ? ''
        : ` (${Object.entries(report.errorsByKind)
            .sort((a, b) => b[1] - a[1])
            .map(([kind, count]) => `${kind}: ${count}`)
            .join(', ')})`
    }`,
    `client CPU: ${report.clientCpuPercent === null ? 'not measured' : `${report.clientCpuPercent}% of one core`}`,
  ];
  if (report.timeline.length > MAX_SECONDS_LISTED)
    lines.push(`per second: ${report.timeline.length} seconds, listed by --json (timeline)`);
  else if (report.timeline.length > 1) {
    lines.push('per second (sent / answered / errors / mean / max):');
    for (const second of report.timeline)
      lines.push(
        `  ${String(second.second).padStart(4)} s  ${second.sent} / ${second.completed} / ${second.errors} / ${ms(second.meanMs)} / ${ms(second.maxMs)}`,
      );
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}
