import type { CallToolOutcome } from '../../protocol/client';
import type { TrackedTask } from '../../protocol/extensions/tasks';
import type { CallToolResult, JsonObject } from '../../protocol/types';
import type { HistoryRecording, HistoryServer } from '../history/historyLog';

/** What the result view draws for a finished task besides its result: the call it came from, as the book kept it. */
interface TaskResultCall {
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

/**
 * Tasks a window picked up from an earlier one (after a Reload Window, or a server restart): the call that started
 * each ended with its window or connection before the task did, so History has no entry for the task's result.
 * The first Open Task Result of such a task records one (the tool and the arguments the book kept, when known);
 * tasks whose call was made and waited for here got their entry from that call, so they are never marked.
 */
export class PickedUpTaskHistory {
  /** `${serverId}\0${taskId}` of picked-up tasks whose result History does not hold yet. */
  private readonly owed = new Set<string>();

  constructor(private readonly history: HistoryRecording) {}

  pickedUp(serverId: string, taskId: string): void {
    this.owed.add(key(serverId, taskId));
  }

  /**
   * Records the task's result once, if it was picked up here and its tool is known (an entry names a tool to call
   * again; a task id standing in for one would not). `note` says on the entry where it came from (host-worded).
   */
  opened(
    server: HistoryServer,
    taskId: string,
    tracked: TrackedTask | undefined,
    result: CallToolResult,
    note: string,
    now = Date.now(),
  ): boolean {
    const owedKey = key(server.id, taskId);
    if (!this.owed.has(owedKey) || tracked?.toolName === undefined) return false;
    this.owed.delete(owedKey);
    const call = taskResultCall(taskId, tracked, now);
    const outcome: CallToolOutcome = { result };
    this.history.record({
      server,
      startedAt: tracked.snapshot.createdAt ?? tracked.firstSeen,
      durationMs: call.durationMs,
      operation: { kind: 'tool', toolName: call.toolName, arguments: call.args },
      outcome: { kind: result.isError ? 'tool-error' : 'succeeded', note },
      result: outcome,
    });
    return true;
  }
}

function key(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}
