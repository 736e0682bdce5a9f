import type { ProgressUpdate } from '../../jsonrpc/rpcConnection';
import type { JsonParams } from '../../methods';
import { TaskBook, type ArgumentKeeper } from './taskBook';
import type { TaskSnapshot } from './taskModel';
import { DEFAULT_MAX_TASK_WAIT_MS } from './taskPolling';

/** What one tools/call asked of its task (kept by the params object the call sent, so the result handler finds it). */
export interface TaskCall {
  readonly toolName: string;
  /** false: hand the task back as soon as it exists (`--no-wait`). */
  readonly wait: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Set by the result handler when the answer was a task. */
  task?: TaskSnapshot;
}

/** The services the host lends the tasks extension of one client (create one per client: it holds that server's tasks). */
export interface TasksServices {
  readonly book: TaskBook;
  /** 2025-11-25: which server requests this client runs as tasks when the server asks (declared as tasks.requests.*). */
  readonly receiver: TaskReceiverOptions;
  /** The longest one call waits for its task (the task may still run on the server afterwards). */
  readonly maxWaitMs: number;
  /** The calls in flight, by the params object they sent. */
  readonly calls: WeakMap<JsonParams, TaskCall>;
  /**
   * When the next tasks/get of each task may go (epoch ms): the last answer about it plus the interval it gave
   * (see `noteTaskAnswer`). Status notifications never set it.
   */
  readonly nextPollAt: Map<string, number>;
}

/** Declare only what the host can serve: a host without sampling must not offer to run sampling as a task. */
export interface TaskReceiverOptions {
  sampling?: boolean;
  elicitation?: boolean;
}

export interface TasksServicesOptions {
  receiver?: TaskReceiverOptions;
  maxWaitMs?: number;
  /** Masks the arguments of a call that became a task so the book keeps them (the Tasks view shows them); none kept without it. */
  keepArguments?: ArgumentKeeper;
}

export function tasksServices(serverName: string, options: TasksServicesOptions = {}): TasksServices {
  return {
    book: new TaskBook(serverName, options.keepArguments),
    receiver: options.receiver ?? {},
    maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_TASK_WAIT_MS,
    calls: new WeakMap(),
    nextPollAt: new Map(),
  };
}
