import { errorMessage, isLocalError } from '../../protocol/errors';
import type { CallToolResult, Tool } from '../../protocol/types';
import type { HistoryOutcome, HistoryRecord, HistoryServer } from '../history/historyLog';
import { escapeForDisplay } from '../urlPolicy';

/**
 * The tool calls an app makes on its own (its buttons, its timers): which ones ask the person first, what the app hears
 * when the person declines, and how each is recorded in History, marked as the app's. An app is the server's code in
 * a frame: without this, it could call a tool its server marks destructive, and dozens of others, with no one asked
 * and nothing in History.
 */

/**
 * Whether the app must ask before calling `tool`: its server marks it destructive (and not read-only), or the host
 * does not know it (a list that changed since the host last read it), so nothing says it is harmless.
 */
export function asksBeforeAppCall(tool: Tool | undefined): boolean {
  if (!tool) return true;
  const annotations = tool.annotations;
  return annotations?.destructiveHint === true && annotations.readOnlyHint !== true;
}

/** Why the call is asked about, for the prompt's words. */
export function appCallReason(tool: Tool | undefined): 'destructive' | 'unlisted' {
  return tool ? 'destructive' : 'unlisted';
}

/** The most characters of the arguments a prompt shows (the app chooses them, so they are cut, never trusted whole). */
const MAX_SHOWN_ARGUMENT_CHARS = 1500;

/**
 * The call's arguments as a prompt shows them: pretty JSON, each line escaped (a bidirectional override or a control
 * character is written as `\uXXXX`, so the arguments cannot pretend to be other ones), cut with a mark.
 */
export function shownArguments(args: Record<string, unknown>): string {
  let text: string;
  try {
    text = JSON.stringify(args, null, 2) ?? '{}';
  } catch {
    text = '(not serialisable)';
  }
  const cut = text.length > MAX_SHOWN_ARGUMENT_CHARS;
  const shown = (cut ? text.slice(0, MAX_SHOWN_ARGUMENT_CHARS) : text).split('\n').map(escapeForDisplay).join('\n');
  return cut ? `${shown}\n… (${text.length - MAX_SHOWN_ARGUMENT_CHARS} more characters)` : shown;
}

/** What the app hears when the person says no (or when another prompt of the app is still open). */
export function declinedResult(toolName: string, why: 'declined' | 'busy'): CallToolResult {
  const text =
    why === 'declined'
      ? `The person declined this call of ${toolName}.`
      : `The call of ${toolName} was not made: another request of this app is waiting for the person.`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** How an app's call ended, as History keeps it. */
export type AppCallEnd =
  | { kind: 'answered'; result: CallToolResult }
  | { kind: 'declined'; result: CallToolResult }
  | { kind: 'threw'; error: unknown };

/**
 * The History record of one call an app made: a tool call of the server, its `source` naming the app (by the tool
 * whose app it is), and `note`, the host's words for that source, on every outcome that has a note (the History view
 * shows it after the outcome).
 */
export function appCallRecord(options: {
  server: HistoryServer;
  appTool: string;
  toolName: string;
  args: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
  end: AppCallEnd;
  note?: string;
}): HistoryRecord {
  const { end, note } = options;
  const withNote = note === undefined ? {} : { note };
  let outcome: HistoryOutcome;
  let result: unknown;
  switch (end.kind) {
    case 'answered':
      outcome = end.result.isError === true ? { kind: 'tool-error', ...withNote } : { kind: 'succeeded', ...withNote };
      result = end.result;
      break;
    case 'declined':
      outcome = { kind: 'declined', ...withNote };
      break;
    case 'threw':
      outcome = isLocalError(end.error, 'cancelled')
        ? { kind: 'cancelled' }
        : { kind: 'failed', message: errorMessage(end.error) };
      break;
    default: {
      const exhaustive: never = end;
      return exhaustive;
    }
  }
  return {
    server: options.server,
    startedAt: options.startedAt,
    ...(end.kind === 'declined' ? {} : { durationMs: options.endedAt - options.startedAt }),
    operation: { kind: 'tool', toolName: options.toolName, arguments: options.args },
    outcome,
    ...(result === undefined ? {} : { result }),
    source: { kind: 'app', appTool: options.appTool },
  };
}
