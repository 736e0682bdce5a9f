/**
 * `mcp-workbench session`: one connection, many commands. Reads one command per line from stdin, in the syntax of
 * the subcommands (`tools`, `call echo {"message":"hi"}`, `read <uri>`), and answers each with exactly one JSON line
 * on stdout, in order:
 *
 *   {"ok":true,"result":...}
 *   {"ok":false,"error":{"kind":"...","message":"..."}}        (plus "code"/"data" for server errors, and
 *                                                               "result" when a tool answered with isError)
 *
 * A failed line does not end the session; EOF does. Stateful servers can therefore be scripted: everything runs
 * against the same server process (or HTTP session).
 */
import * as readline from 'node:readline';
import type { McpClient } from '../protocol/client';
import { LocalError, McpError, errorMessage, type LocalErrorKind } from '../protocol/errors';
import { maskText } from '../workbench/secrets';
import { toJsonText } from '../workbench/display';
import { UsageError, type ParsedArgs } from './args';
import type { CommandFailure } from './main';

type SessionErrorKind = 'usage' | 'server' | LocalErrorKind | CommandFailure['kind'] | 'internal';

interface SessionError {
  kind: SessionErrorKind;
  message: string;
  /** The server's JSON-RPC error code and data, for kind "server". */
  code?: number;
  data?: unknown;
}

type SessionAnswer = { ok: true; result: unknown } | { ok: false; error: SessionError; result?: unknown };

/** What one session line runs: the same runners as the subcommands. */
export type SessionRunner = (
  client: McpClient,
  args: ParsedArgs,
) => Promise<{ output: unknown; failure?: CommandFailure }>;

/** Subcommands that make no sense inside a session. */
const NOT_IN_SESSION = new Set(['session', 'conformance']);

/**
 * Splits one session line into words. Words are separated by white space; a word may be a JSON string in double
 * quotes (`read "file:///a b.txt"`) or, as in a shell, literal text in single quotes, so a line copied from a
 * command (`call echo '{"message":"hi"}'`) works too. A word that starts with `{` or `[` is JSON and runs to the end
 * of the line, so arguments need no quoting at all: `call echo {"message":"hi there"}`.
 */
export function splitSessionLine(line: string): string[] {
  const words: string[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && /\s/.test(line[index])) index++;
    if (index >= line.length) break;
    const char = line[index];
    if (char === '{' || char === '[') {
      words.push(line.slice(index).trim());
      break;
    }
    if (char === '"') {
      let end = index + 1;
      while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      if (end >= line.length) throw new UsageError(`unterminated " quote at column ${index + 1}`);
      const quoted = line.slice(index, end + 1);
      try {
        words.push(JSON.parse(quoted) as string);
      } catch (error) {
        throw new UsageError(`${quoted} is not a valid JSON string: ${(error as Error).message}`);
      }
      index = end + 1;
      continue;
    }
    if (char === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) throw new UsageError(`unterminated ' quote at column ${index + 1}`);
      words.push(line.slice(index + 1, end));
      index = end + 1;
      continue;
    }
    let end = index;
    while (end < line.length && !/\s/.test(line[end])) end++;
    words.push(line.slice(index, end));
    index = end;
  }
  return words;
}

/** Runs one line against the connected client; never throws. Undefined for a blank line or a `#` comment. */
async function answerLine(
  client: McpClient,
  sessionArgs: ParsedArgs,
  runners: Readonly<Record<string, SessionRunner>>,
  line: string,
  secrets: readonly string[],
): Promise<SessionAnswer | undefined> {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return undefined;
  try {
    const [subcommand, ...positionals] = splitSessionLine(trimmed);
    if (subcommand.startsWith('-'))
      throw new UsageError(`options go on the session's own command line, not on a line: ${subcommand}`);
    const runner =
      Object.prototype.hasOwnProperty.call(runners, subcommand) && !NOT_IN_SESSION.has(subcommand)
        ? runners[subcommand]
        : undefined;
    if (!runner)
      throw new UsageError(
        `unknown command "${subcommand}"; a session line is one of: ${Object.keys(runners).join(', ')}`,
      );
    const { output, failure } = await runner(client, { ...sessionArgs, subcommand, positionals });
    if (failure)
      return { ok: false, result: output, error: { kind: failure.kind, message: maskText(failure.message, secrets) } };
    return { ok: true, result: output };
  } catch (error) {
    return { ok: false, error: describeError(error, secrets) };
  }
}

function describeError(error: unknown, secrets: readonly string[]): SessionError {
  const message = maskText(errorMessage(error), secrets);
  if (error instanceof UsageError) return { kind: 'usage', message };
  if (error instanceof McpError)
    return { kind: 'server', message, code: error.code, ...(error.data === undefined ? {} : { data: error.data }) };
  if (error instanceof LocalError) return { kind: error.kind, message };
  return { kind: 'internal', message };
}

/**
 * Answers every line of `input` in order until EOF (or `stop`). Exit code 0 when every line succeeded, 1 when any
 * failed (each failure is in its own answer line).
 */
export async function runSession(
  client: McpClient,
  sessionArgs: ParsedArgs,
  runners: Readonly<Record<string, SessionRunner>>,
  input: NodeJS.ReadableStream,
  write: (line: string) => void,
  secrets: readonly string[],
  stop?: AbortSignal,
): Promise<number> {
  let failed = false;
  const lines = readline.createInterface({ input, crlfDelay: Infinity, terminal: false });
  // An interrupt ends the session like EOF: no further line is read, and the line in progress fails.
  stop?.addEventListener('abort', () => lines.close(), { once: true });
  for await (const line of lines) {
    if (stop?.aborted) break;
    const answer = await answerLine(client, sessionArgs, runners, line, secrets);
    if (answer === undefined) continue;
    if (!answer.ok) failed = true;
    write(toJsonText(answer) ?? 'null');
  }
  return failed ? 1 : 0;
}
