/**
 * One line that says why a server did not start, for the first line of a notification (or a CLI error): the exit
 * code and the server's last stderr line for a process, "unreachable: connection refused" for an HTTP endpoint
 * that is not listening. The full message (every stderr line, the request that failed) stays in the log.
 * Read from the error's detail (see ErrorDetail), never from its English message.
 */
import { errorDetail, errorMessage, type ErrorDetail } from '../../protocol/errors';

/** Why a start failed, for a host to word: the error's detail (with the last stderr line after it), or its first line. */
export type StartFailure =
  { kind: 'detail'; detail: ErrorDetail; lastStderr?: string } | { kind: 'line'; line: string };

/**
 * `message` is the start error's message (already masked), `detail` its detail, `stderrTail` the process's last
 * stderr lines (masked; empty for HTTP).
 */
export function describeStartFailure(
  message: string,
  detail: ErrorDetail | undefined,
  stderrTail: readonly string[] = [],
): StartFailure {
  if (detail?.kind === 'process-exited' || detail?.kind === 'process-killed') {
    // The message itself lists the stderr tail after its first line; the tail passed in is the same text.
    const stderrInMessage = message.split('\n').slice(1);
    const lastStderr = [...stderrTail, ...stderrInMessage]
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1);
    // With something on stderr, that line says more than a package launcher's guess.
    const ended: ErrorDetail =
      detail.kind === 'process-exited' && lastStderr ? { kind: 'process-exited', code: detail.code } : detail;
    return lastStderr ? { kind: 'detail', detail: ended, lastStderr } : { kind: 'detail', detail: ended };
  }
  if (detail) return { kind: 'detail', detail };
  return { kind: 'line', line: message.split('\n', 1)[0] ?? message };
}

/** The one line in English (CLI, log, tests); a host in another language words `describeStartFailure` instead. */
export function summarizeStartFailure(error: unknown, stderrTail: readonly string[] = []): string {
  const failure = describeStartFailure(errorMessage(error), errorDetail(error), stderrTail);
  if (failure.kind === 'line') return failure.line;
  const { detail, lastStderr } = failure;
  switch (detail.kind) {
    case 'process-exited': {
      const launcher = detail.silentLauncher
        ? `, with nothing on stderr: "${detail.silentLauncher}" may have failed to download or install the package; run the same command in a terminal to see why`
        : '';
      return `exited with code ${detail.code}${launcher}${lastStderr ? `: ${lastStderr}` : ''}`;
    }
    case 'process-killed':
      return `was killed by ${detail.signal}${lastStderr ? `: ${lastStderr}` : ''}`;
    case 'unreachable':
      return detail.url ? `unreachable: ${detail.words} (${detail.url})` : `unreachable: ${detail.words}`;
    default: {
      const message = errorMessage(error);
      return message.split('\n', 1)[0] ?? message;
    }
  }
}
