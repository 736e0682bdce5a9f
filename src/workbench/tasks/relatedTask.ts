import { RELATED_TASK_META } from '../../protocol/extensions/tasks/taskMethods';
import { escapeForDisplay } from '../urlPolicy';
import { isObject } from '../../protocol/guards';

/** The task a server request (sampling, elicitation) is for, as the review panel names it in its title line. */
export interface RelatedTask {
  /** The server's task id, escaped for display and bounded: never use it to look the task up. */
  readonly shownTaskId: string;
  /** The tool whose call made the task, when this client made that call (escaped and bounded too). */
  readonly shownToolName?: string;
}

/** The tool whose call made a task of that server, when this client made the call (the host's task books). */
export type TaskToolLookup = (serverName: string, taskId: string) => string | undefined;

/**
 * A task id is shown whole up to this many characters (as escaped); a longer one, such as the 32 hex digits
 * server-everything hands out, by its first SHORT_TASK_ID_CHARS and an ellipsis: in a title it only tells tasks
 * apart, and the tool named beside it says what the task is (first-hour trial, 2.9). The Tasks view's tooltip has
 * the whole id.
 */
export const LONGEST_WHOLE_TASK_ID = 12;
export const SHORT_TASK_ID_CHARS = 8;
const MAX_SHOWN_TOOL_NAME = 128;

/**
 * Reads `_meta["io.modelcontextprotocol/related-task"].taskId` of an untrusted request (2025-11-25 sampling and
 * elicitation sent while tasks/result waits; 2026-07-28 input requests, which the tasks extension tags alike).
 * `toolOf` looks the raw id up in the client's task book. Undefined when the request names no task.
 */
export function relatedTaskOf(
  request: object,
  toolOf?: (taskId: string) => string | undefined,
): RelatedTask | undefined {
  const meta: unknown = (request as { _meta?: unknown })._meta;
  if (!isObject(meta)) return undefined;
  const related = (meta as Record<string, unknown>)[RELATED_TASK_META];
  if (!isObject(related)) return undefined;
  const taskId = (related as Record<string, unknown>).taskId;
  if (typeof taskId !== 'string' || taskId === '') return undefined;
  const toolName = toolOf?.(taskId);
  return {
    shownTaskId: shown(taskId, LONGEST_WHOLE_TASK_ID, SHORT_TASK_ID_CHARS),
    ...(toolName ? { shownToolName: shown(toolName, MAX_SHOWN_TOOL_NAME) } : {}),
  };
}

/**
 * Escaped character by character and bounded, so an escape is never cut in half: whole up to `max` characters,
 * otherwise at most `cutTo` (default `max - 1`) followed by an ellipsis.
 */
function shown(text: string, max: number, cutTo = max - 1): string {
  const pieces = [...text].map((character) => escapeForDisplay(character));
  if (pieces.reduce((length, piece) => length + piece.length, 0) <= max) return pieces.join('');
  let kept = '';
  for (const piece of pieces) {
    if (kept.length + piece.length > cutTo) break;
    kept += piece;
  }
  return `${kept}…`;
}
