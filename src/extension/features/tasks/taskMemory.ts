import type * as vscode from 'vscode';
import type { KeptArguments, TaskBook, TrackedTask } from '../../../protocol/extensions/tasks';
import { isTerminal } from '../../../protocol/extensions/tasks/taskModel';
import { isObject } from '../../../protocol/guards';

/** Workspace-state key of the 2026-07-28 tasks still worth polling, by server name. */
const KEY = 'mcpWorkbench.tasks.pending';
/** Tasks kept per server: a workspace cannot make the state grow without bound. */
export const MAX_REMEMBERED_PER_SERVER = 50;
/**
 * Longest arguments (as JSON) one remembered task keeps; over it only their size is kept, as the task book does with
 * its own, larger bound. Workspace state is read whole at every window start: 50 tasks × 4 KB per server at most.
 */
export const MAX_REMEMBERED_ARGUMENT_CHARS = 4_096;
/** Longest tool name kept (names are 1–128 characters); a longer one is not kept rather than cut. */
const MAX_REMEMBERED_TOOL_NAME_CHARS = 256;

/**
 * A task as workspace state keeps it: its id, the tool whose call made it and that call's arguments as the task book
 * kept them (masked by the host before the book ever held them). State saved before the tool and arguments were
 * kept holds bare task ids; those still load, without them.
 */
interface RememberedTask {
  readonly taskId: string;
  readonly toolName?: string;
  readonly arguments?: KeptArguments;
}

function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value).length;
  } catch {
    return undefined;
  }
}

/** The arguments to keep: whole when short enough, else only their size; undefined when there are none. */
function boundedArguments(kept: KeptArguments | undefined): KeptArguments | undefined {
  if (!kept) return undefined;
  switch (kept.kind) {
    case 'kept': {
      const chars = jsonLength(kept.value);
      if (chars === undefined) return undefined;
      return chars > MAX_REMEMBERED_ARGUMENT_CHARS ? { kind: 'omitted', chars } : kept;
    }
    case 'omitted':
      return kept;
  }
}

/** Reads saved arguments back; anything else than what `boundedArguments` writes is dropped (the state is a file on disk). */
function readArguments(saved: unknown): KeptArguments | undefined {
  if (!isObject(saved)) return undefined;
  if (saved.kind === 'kept' && isObject(saved.value)) {
    const chars = jsonLength(saved.value);
    return chars !== undefined && chars <= MAX_REMEMBERED_ARGUMENT_CHARS
      ? { kind: 'kept', value: saved.value }
      : undefined;
  }
  if (
    saved.kind === 'omitted' &&
    typeof saved.chars === 'number' &&
    Number.isSafeInteger(saved.chars) &&
    saved.chars >= 0
  )
    return { kind: 'omitted', chars: saved.chars };
  return undefined;
}

function readToolName(saved: unknown): string | undefined {
  return typeof saved === 'string' && saved.length > 0 && saved.length <= MAX_REMEMBERED_TOOL_NAME_CHARS
    ? saved
    : undefined;
}

function readEntry(saved: unknown): RememberedTask | undefined {
  // The first format: a bare task id.
  if (typeof saved === 'string') return { taskId: saved };
  if (!isObject(saved) || typeof saved.taskId !== 'string') return undefined;
  const toolName = readToolName(saved.toolName);
  const args = readArguments(saved.arguments);
  return { taskId: saved.taskId, ...(toolName ? { toolName } : {}), ...(args ? { arguments: args } : {}) };
}

function entryOf(tracked: TrackedTask): RememberedTask {
  const toolName = readToolName(tracked.toolName);
  const args = boundedArguments(tracked.arguments);
  return { taskId: tracked.snapshot.taskId, ...(toolName ? { toolName } : {}), ...(args ? { arguments: args } : {}) };
}

/**
 * The 2026-07-28 tasks that were live when last seen, kept in workspace state so a Reload Window polls them again
 * (SEP-2663: clients SHOULD persist task ids), with the tool and masked arguments of the call behind each, so a
 * task picked up again shows them as it did before. Finished and cancelled tasks are forgotten.
 */
export class TaskMemory {
  constructor(private readonly state: vscode.Memento) {}

  pending(serverName: string): RememberedTask[] {
    const all = this.state.get<Record<string, unknown>>(KEY, {});
    const saved = isObject(all) ? all[serverName] : undefined;
    if (!Array.isArray(saved)) return [];
    const entries = new Map<string, RememberedTask>();
    for (const item of saved) {
      const entry = readEntry(item);
      if (entry && !entries.has(entry.taskId)) entries.set(entry.taskId, entry);
    }
    return [...entries.values()].slice(-MAX_REMEMBERED_PER_SERVER);
  }

  /** Follows a task the book recorded: a live 2026-07-28 task is remembered (tool and arguments too), an ended one forgotten. */
  track(serverName: string, tracked: TrackedTask): Thenable<void> | undefined {
    if (tracked.generation !== '2026-07-28') return undefined;
    if (isTerminal(tracked.snapshot)) return this.forget(serverName, tracked.snapshot.taskId);
    return this.remember(serverName, entryOf(tracked));
  }

  /**
   * The tasks remembered for a server, handed to its (new) book so that each shows its tool and arguments once it
   * is polled again; the caller polls them.
   */
  recallInto(serverName: string, book: TaskBook): RememberedTask[] {
    const entries = this.pending(serverName);
    for (const entry of entries) book.recall(entry.taskId, { toolName: entry.toolName, arguments: entry.arguments });
    return entries;
  }

  forget(serverName: string, taskId: string): Thenable<void> | undefined {
    const entries = this.pending(serverName);
    if (!entries.some((entry) => entry.taskId === taskId)) return undefined;
    return this.write(
      serverName,
      entries.filter((entry) => entry.taskId !== taskId),
    );
  }

  private remember(serverName: string, entry: RememberedTask): Thenable<void> | undefined {
    const entries = this.pending(serverName);
    const index = entries.findIndex((known) => known.taskId === entry.taskId);
    const known = index === -1 ? undefined : entries[index];
    // Every poll records the task: write only when what is kept of it changed. A poll that knows less (a task
    // recalled into a book without a keeper) does not erase what an earlier run kept.
    const merged: RememberedTask = {
      taskId: entry.taskId,
      ...((entry.toolName ?? known?.toolName) ? { toolName: entry.toolName ?? known?.toolName } : {}),
      ...((entry.arguments ?? known?.arguments) ? { arguments: entry.arguments ?? known?.arguments } : {}),
    };
    if (known && JSON.stringify(known) === JSON.stringify(merged)) return undefined;
    const next = index === -1 ? [...entries, merged] : entries.map((other, at) => (at === index ? merged : other));
    return this.write(serverName, next.slice(-MAX_REMEMBERED_PER_SERVER));
  }

  private write(serverName: string, entries: RememberedTask[]): Thenable<void> {
    const saved = this.state.get<Record<string, unknown>>(KEY, {});
    const all = isObject(saved) ? { ...saved } : {};
    if (entries.length === 0) delete all[serverName];
    else all[serverName] = entries;
    return this.state.update(KEY, all);
  }
}
