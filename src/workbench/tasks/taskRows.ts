import type { TaskStatusKind, TrackedTask } from '../../protocol/extensions/tasks';
import { isTerminal } from '../../protocol/extensions/tasks/taskModel';

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
  /** The task was seen on an earlier connection to the server (it stopped or restarted since); see EarlierTasks. */
  readonly earlier?: boolean;
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
    // A finished task shows its final status, not the message of the stage it was last seen in.
    statusMessage:
      !live && snapshot.statusMessage === tracked.lastLiveStatusMessage ? undefined : snapshot.statusMessage,
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

/** Most finished tasks kept per server from its earlier connections, as many as one task book keeps. */
export const MAX_EARLIER_TASKS = 200;

/**
 * The finished tasks of a server's earlier connections. A task book belongs to one connection: when the server
 * stopped or restarted, its finished tasks left the Tasks view with it while other servers' finished tasks stayed
 * (first-hour trial, 2.9: "a few minutes later it had gone"). They are kept here instead, by server, bounded (the
 * oldest go first), and shown after the live book's tasks; a task the new connection's book knows is shown from
 * the book. Live tasks are not kept: their connection is gone, so nothing would ever end them here.
 */
export class EarlierTasks {
  private readonly byServer = new Map<string, Map<string, TrackedTask>>();

  /** Keeps the finished tasks of a connection that ended (its book's `all()`). */
  retire(serverKey: string, tasks: readonly TrackedTask[]): void {
    let kept = this.byServer.get(serverKey);
    for (const tracked of tasks) {
      if (!isTerminal(tracked.snapshot)) continue;
      kept ??= new Map();
      kept.delete(tracked.snapshot.taskId);
      kept.set(tracked.snapshot.taskId, tracked);
    }
    if (!kept) return;
    for (const taskId of kept.keys()) {
      if (kept.size <= MAX_EARLIER_TASKS) break;
      kept.delete(taskId);
    }
    this.byServer.set(serverKey, kept);
  }

  /** The kept task, when the server's current book does not know it. */
  get(serverKey: string, taskId: string): TrackedTask | undefined {
    return this.byServer.get(serverKey)?.get(taskId);
  }

  /** A server's rows: the current book's tasks (none while it is stopped) and the kept ones it does not know, sorted. */
  rows(serverKey: string, current: readonly TrackedTask[], now = Date.now()): TaskRow[] {
    const known = new Set(current.map((tracked) => tracked.snapshot.taskId));
    const earlier = [...(this.byServer.get(serverKey)?.values() ?? [])]
      .filter((tracked) => !known.has(tracked.snapshot.taskId))
      .map((tracked): TaskRow => ({ ...taskRow(tracked, now), earlier: true }));
    return sortTaskRows([...current.map((tracked) => taskRow(tracked, now)), ...earlier]);
  }

  /** Drops what is kept of servers no longer configured. */
  keepOnly(serverKeys: ReadonlySet<string>): void {
    for (const key of this.byServer.keys()) if (!serverKeys.has(key)) this.byServer.delete(key);
  }
}
