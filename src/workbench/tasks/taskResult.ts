import type { TrackedTask } from '../../protocol/extensions/tasks';
import type { JsonObject } from '../../protocol/types';

/** What the result view draws for a finished task besides its result: the call it came from, as the book kept it. */
export interface TaskResultCall {
  readonly toolName: string;
  /** The call's arguments as the book kept them (masked); `{}` when the book has none. */
  readonly args: JsonObject;
  /** Said when the arguments are not shown whole: too long to keep, or the call was not made by this client. */
  readonly argumentsNote?: TaskArgumentsNote;
  readonly durationMs: number;
}

/** Why a task's result is shown without its call's arguments (the host words it). */
export type TaskArgumentsNote = { kind: 'omitted'; chars: number } | { kind: 'unknown' };

/**
 * The call behind a finished task, for Open Task Result: the tool and arguments the book kept (the task id stands in
 * for a tool this client did not call), and the time from the task's creation to its last update.
 */
export function taskResultCall(taskId: string, tracked: TrackedTask | undefined, now = Date.now()): TaskResultCall {
  const snapshot = tracked?.snapshot;
  const started = snapshot?.createdAt ?? tracked?.firstSeen;
  const durationMs = started === undefined ? 0 : Math.max(0, (snapshot?.lastUpdatedAt ?? now) - started);
  const kept = tracked?.arguments;
  const toolName = tracked?.toolName ?? taskId;
  if (!kept) return { toolName, args: {}, argumentsNote: { kind: 'unknown' }, durationMs };
  switch (kept.kind) {
    case 'kept':
      return { toolName, args: kept.value, durationMs };
    case 'omitted':
      return { toolName, args: {}, argumentsNote: { kind: 'omitted', chars: kept.chars }, durationMs };
  }
}
