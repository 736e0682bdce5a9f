/**
 * One line that says why a server did not start, for the first line of a notification (or a CLI error): the exit
 * code and the server's last stderr line for a process, "unreachable: connection refused" for an HTTP endpoint
 * that is not listening. The full message (every stderr line, the request that failed) stays in the log.
 */

/** The plain words for an unreachable endpoint, in the summary's `unreachable: <words>` (translated by the extension). */
export type UnreachableWords =
  | 'connection refused'
  | 'host not found'
  | 'connection timed out'
  | 'connection reset'
  | 'host unreachable'
  | 'network unreachable'
  | 'the port is not allowed'
  | 'TLS certificate problem';

// Network error codes (Node's and undici's) and the plain words for them.
const UNREACHABLE: readonly [RegExp, UnreachableWords][] = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(ENOTFOUND|EAI_AGAIN)\b/, 'host not found'],
  [/\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)\b/, 'connection timed out'],
  [/\bECONNRESET\b/, 'connection reset'],
  [/\bEHOSTUNREACH\b/, 'host unreachable'],
  [/\bENETUNREACH\b/, 'network unreachable'],
  [/\bbad port\b/, 'the port is not allowed'],
  [/\b(CERT_|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_TLS)/, 'TLS certificate problem'],
];

/** Every `unreachable: <words>` the summary can say, for the translation tables. */
export const UNREACHABLE_WORDS: readonly UnreachableWords[] = UNREACHABLE.map(([, words]) => words);

const PROCESS_ENDED = /the server process (exited with code -?\d+|was killed by [A-Z0-9]+)/;

/**
 * `message` is the start error's message (already masked), `stderrTail` the process's last stderr lines (masked;
 * empty for HTTP). Returns one line.
 */
export function summarizeStartFailure(message: string, stderrTail: readonly string[] = []): string {
  const ended = PROCESS_ENDED.exec(message);
  if (ended) {
    // The message itself lists the stderr tail after its first line; the tail passed in is the same text.
    const stderrInMessage = message.split('\n').slice(1);
    const lastStderr = [...stderrTail, ...stderrInMessage].map((line) => line.trim()).filter(Boolean).at(-1);
    if (lastStderr) return `${ended[1]}: ${lastStderr}`;
    // Nothing on stderr: keep what the transport added about it (a package launcher's hint), if anything.
    const firstLine = message.split('\n', 1)[0] ?? message;
    const rest = firstLine.slice(ended.index + ended[0].length);
    return rest.startsWith(', with nothing on stderr') ? `${ended[1]}${rest}` : ended[1];
  }
  const firstLine = message.split('\n', 1)[0] ?? message;
  for (const [pattern, words] of UNREACHABLE) {
    if (!pattern.test(message)) continue;
    const url = /\bhttps?:\/\/[^\s)]+/.exec(firstLine)?.[0];
    return url ? `unreachable: ${words} (${url})` : `unreachable: ${words}`;
  }
  return firstLine;
}
