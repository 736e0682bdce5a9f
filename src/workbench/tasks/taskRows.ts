import type { TaskStatusKind, TrackedTask } from '../../protocol/extensions/tasks';

/**
 * One row of a Tasks view, host-neutral: what the person reads (tool, status, message, age, progress) and what
 * they may do (cancel a live task, open a finished one's result). Labels are the host's (localized there).
 */
export interface TaskRow {
  readonly serverName: string;
  readonly taskId: string;
  readonly toolName?: string;
  readonly status: TaskStatusKind;
  readonly statusMessage?: string;
  /** Milliseconds since the server created the task (or since this client first saw it). */
  readonly ageMs: number;
  readonly progress?: string;
  /** The arguments of the call behind the task, for the row's tooltip: compact JSON, bounded; undefined if not kept. */
  readonly arguments?: RowArguments;
  readonly canCancel: boolean;
  readonly hasResult: boolean;
}

/** A task's call arguments as a row shows them: compact JSON cut at MAX_ROW_ARGUMENT_CHARS, or only their size. */
export type RowArguments = { kind: 'shown'; text: string } | { kind: 'omitted'; chars: number };

/** Longest arguments a row's tooltip shows (a hover, not a result tab). */
export const MAX_ROW_ARGUMENT_CHARS = 300;

function rowArguments(tracked: TrackedTask): RowArguments | undefined {
  const kept = tracked.arguments;
  if (!kept) return undefined;
  switch (kept.kind) {
    case 'kept': {
      // Cut by code points, so a character outside the BMP is never split.
      const characters = [...JSON.stringify(kept.value)];
      const text =
        characters.length <= MAX_ROW_ARGUMENT_CHARS
          ? characters.join('')
          : `${characters.slice(0, MAX_ROW_ARGUMENT_CHARS - 1).join('')}…`;
      return { kind: 'shown', text };
    }
    case 'omitted':
      return { kind: 'omitted', chars: kept.chars };
  }
}

export function taskRow(tracked: TrackedTask, now = Date.now()): TaskRow {
  const snapshot = tracked.snapshot;
  const since = snapshot.createdAt ?? tracked.firstSeen;
  const live = snapshot.status === 'working' || snapshot.status === 'input_required';
  const progress = tracked.progress;
  return {
    serverName: tracked.serverName,
    taskId: snapshot.taskId,
    toolName: tracked.toolName,
    status: snapshot.status,
    statusMessage: snapshot.statusMessage,
    ageMs: Math.max(0, now - since),
    progress: progress
      ? progress.total
        ? `${progress.progress}/${progress.total}`
        : String(progress.progress)
      : undefined,
    arguments: rowArguments(tracked),
    canCancel: live,
    hasResult: snapshot.status === 'completed',
  };
}

/** A compact age: 42 s, 3 min, 2 h, 5 d. */
export function shortAge(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

/** Newest first, live tasks before finished ones. */
export function sortTaskRows(rows: readonly TaskRow[]): TaskRow[] {
  return [...rows].sort((a, b) => Number(b.canCancel) - Number(a.canCancel) || a.ageMs - b.ageMs);
}
