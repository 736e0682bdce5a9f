import { Emitter } from '../../disposable';
import type { JsonObject } from '../../types';
import { isTerminal, type TaskGeneration, type TaskSnapshot } from './taskModel';

/**
 * The arguments of the call that created a task, as the host let the book keep them (masked by the host's
 * `keepArguments`): kept whole, or only their size when they were over MAX_KEPT_ARGUMENT_CHARS as JSON.
 */
export type KeptArguments =
  { readonly kind: 'kept'; readonly value: JsonObject } | { readonly kind: 'omitted'; readonly chars: number };

/** Longest arguments (as JSON) one task keeps: the book holds up to 200 tasks per server. */
export const MAX_KEPT_ARGUMENT_CHARS = 16_384;

/** What the host does to a call's arguments before the book keeps them (mask them); without one none are kept. */
export type ArgumentKeeper = (args: JsonObject) => JsonObject;

/** One task this client saw, with what the person needs to recognise it. */
export interface TrackedTask {
  readonly serverName: string;
  readonly generation: TaskGeneration;
  /** The tool whose call created the task, when this client made that call. */
  readonly toolName?: string;
  /** The arguments of that call, masked by the host; undefined when this client did not make it or keeps none. */
  readonly arguments?: KeptArguments;
  /** Epoch ms this client first saw the task (its age when the server sent no createdAt). */
  readonly firstSeen: number;
  readonly snapshot: TaskSnapshot;
  /** The last notifications/progress of the call that created it. */
  readonly progress?: { progress: number; total?: number; message?: string };
  /**
   * The status message of the last live (working, input_required) snapshot recorded. A server may end a task with
   * the message of its last stage still set (server-everything: `completed` with "Generating report..."), and a
   * finished row must not read as if it were still at that stage.
   */
  readonly lastLiveStatusMessage?: string;
}

/** A recalled task's details, before the task is recorded. */
interface RecalledTask {
  readonly toolName?: string;
  readonly arguments?: KeptArguments;
}

/** Most tasks one book keeps; the oldest terminal ones are dropped first. */
const MAX_TRACKED_TASKS = 200;

/**
 * The tasks of one server connection as this client last saw them: every poll, call and listing records here, and
 * hosts (the Tasks view, the CLI's progress line) listen to it. It never requests anything itself.
 */
export class TaskBook {
  private readonly tasks = new Map<string, TrackedTask>();
  /** What a host kept of tasks from an earlier run, waiting for their first record here (see `recall`). */
  private readonly recalled = new Map<string, RecalledTask>();
  private readonly changed = new Emitter<TrackedTask>();
  readonly onDidChange = this.changed.event;

  constructor(
    readonly serverName: string,
    /** Masks a call's arguments before they are kept (the host knows the secrets); without it no arguments are kept. */
    private readonly keepArguments?: ArgumentKeeper,
  ) {}

  record(
    generation: TaskGeneration,
    snapshot: TaskSnapshot,
    details: { toolName?: string; arguments?: JsonObject; progress?: TrackedTask['progress'] } = {},
  ): TrackedTask {
    const before = this.tasks.get(snapshot.taskId);
    const recalled = this.recalled.get(snapshot.taskId);
    this.recalled.delete(snapshot.taskId);
    const tracked: TrackedTask = {
      serverName: this.serverName,
      generation,
      toolName: details.toolName ?? before?.toolName ?? recalled?.toolName,
      arguments: details.arguments ? this.kept(details.arguments) : (before?.arguments ?? recalled?.arguments),
      firstSeen: before?.firstSeen ?? Date.now(),
      snapshot,
      progress: details.progress ?? before?.progress,
      lastLiveStatusMessage: isTerminal(snapshot) ? before?.lastLiveStatusMessage : snapshot.statusMessage,
    };
    this.tasks.delete(snapshot.taskId);
    this.tasks.set(snapshot.taskId, tracked);
    this.trim();
    this.changed.fire(tracked);
    return tracked;
  }

  /**
   * What the host kept of a task from an earlier run (workspace state, after a Reload Window): the tool and the
   * call's arguments as an earlier book kept them (masked). They show once the task is recorded here (its first
   * poll), unless that record names its own. Kept arguments pass through the host's keeper again; without a keeper
   * none are kept, as for a call.
   */
  recall(taskId: string, details: { toolName?: string; arguments?: KeptArguments }): void {
    const recalled: RecalledTask = { toolName: details.toolName, arguments: this.recalledArguments(details.arguments) };
    const known = this.tasks.get(taskId);
    if (known) {
      // Already recorded (polled before the host recalled it): fill in only what the record lacks.
      const toolName = known.toolName ?? recalled.toolName;
      const args = known.arguments ?? recalled.arguments;
      if (toolName === known.toolName && args === known.arguments) return;
      const tracked: TrackedTask = { ...known, toolName, arguments: args };
      this.tasks.set(taskId, tracked);
      this.changed.fire(tracked);
      return;
    }
    this.recalled.delete(taskId);
    this.recalled.set(taskId, recalled);
    // A host recalls what it saved (bounded there too); a task never recorded must not hold memory for ever.
    while (this.recalled.size > MAX_TRACKED_TASKS) this.recalled.delete(this.recalled.keys().next().value as string);
  }

  get(taskId: string): TrackedTask | undefined {
    return this.tasks.get(taskId);
  }

  all(): TrackedTask[] {
    return [...this.tasks.values()];
  }

  dispose(): void {
    this.changed.dispose();
  }

  private recalledArguments(kept: KeptArguments | undefined): KeptArguments | undefined {
    if (!kept || !this.keepArguments) return undefined;
    switch (kept.kind) {
      case 'kept':
        return this.kept(kept.value);
      case 'omitted':
        return kept;
    }
  }

  private kept(args: JsonObject): KeptArguments | undefined {
    if (!this.keepArguments) return undefined;
    const masked = this.keepArguments(args);
    let chars: number;
    try {
      chars = JSON.stringify(masked).length;
    } catch {
      return undefined; // not JSON (a cycle): nothing a view could show
    }
    return chars > MAX_KEPT_ARGUMENT_CHARS ? { kind: 'omitted', chars } : { kind: 'kept', value: masked };
  }

  private trim(): void {
    if (this.tasks.size <= MAX_TRACKED_TASKS) return;
    for (const [taskId, tracked] of this.tasks) {
      if (this.tasks.size <= MAX_TRACKED_TASKS) return;
      const status = tracked.snapshot.status;
      if (status === 'completed' || status === 'failed' || status === 'cancelled') this.tasks.delete(taskId);
    }
    // All live: drop the oldest anyway rather than grow without bound.
    for (const taskId of this.tasks.keys()) {
      if (this.tasks.size <= MAX_TRACKED_TASKS) return;
      this.tasks.delete(taskId);
    }
  }
}
