import { LocalError } from '../../errors';
import type { ExtensionContext } from '../protocolExtension';
import { expiresAt, isTerminal, nextPollDelayMs, readTask, type TaskGeneration, type TaskSnapshot } from './taskModel';
import type { TasksServices } from './taskServices';

/** How long past its ttl a task may still report a live status before this client stops waiting for it. */
const TTL_GRACE_MS = 5_000;
/** The longest one call waits for its task unless the host says otherwise (the task itself may run on). */
export const DEFAULT_MAX_TASK_WAIT_MS = 60 * 60 * 1000;

/**
 * Waits `ms`, or rejects as soon as one of `signals` aborts; the timer is cleared either way, so a stopped
 * server or a cancelled call leaves no timer behind.
 */
function pause(ms: number, signals: readonly (AbortSignal | undefined)[], why: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    if (live.some((signal) => signal.aborted)) return reject(why());
    const done = () => {
      clearTimeout(timer);
      for (const signal of live) signal.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(why());
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    for (const signal of live) signal.addEventListener('abort', aborted, { once: true });
  });
}

interface PollOptions {
  serverName: string;
  /** The snapshot the server answered the call with (or the last one seen). */
  first: TaskSnapshot;
  /** One tasks/get. */
  get(): Promise<TaskSnapshot>;
  /** Polling stops at a terminal status and wherever this says (input the client must give). */
  stopAt?(task: TaskSnapshot): boolean;
  /** Every snapshot, the first included. */
  onSnapshot?(task: TaskSnapshot): void;
  /** The caller's cancellation. */
  signal?: AbortSignal;
  /** The client's lifetime: polling ends when the connection does. */
  lifetime: AbortSignal;
  maxWaitMs: number;
  now?: () => number;
}

/**
 * Polls a task until it reaches a terminal status (or `stopAt`), at the server's suggested interval bounded to
 * [MIN_POLL_INTERVAL_MS, MAX_POLL_INTERVAL_MS]. Bounded in time: by the task's ttl (a task still live well past
 * createdAt + ttl is given up on) and by `maxWaitMs`. Rejects with the reason, naming the server and the task.
 */
export async function pollTask(options: PollOptions): Promise<TaskSnapshot> {
  const now = options.now ?? Date.now;
  const started = now();
  let task = options.first;
  options.onSnapshot?.(task);
  const stop = (snapshot: TaskSnapshot) => isTerminal(snapshot) || options.stopAt?.(snapshot) === true;
  while (!stop(task)) {
    const at = now();
    const expiry = expiresAt(task);
    if (expiry !== undefined && at > expiry + TTL_GRACE_MS) {
      throw new LocalError(
        'timeout',
        `${options.serverName}: task ${task.taskId} is still ${task.status} after its time to live (${task.ttlMs} ms) ended; the server may have discarded it`,
      );
    }
    if (at - started >= options.maxWaitMs) {
      throw new LocalError(
        'timeout',
        `${options.serverName}: task ${task.taskId} did not finish within ${Math.round(options.maxWaitMs / 1000)} s; it may still be running on the server`,
      );
    }
    const delay = Math.min(nextPollDelayMs(task.pollIntervalMs), Math.max(0, options.maxWaitMs - (at - started)));
    const waited = task.taskId;
    await pause(delay, [options.signal, options.lifetime], () =>
      stoppedWaiting(options.serverName, waited, options.lifetime),
    );
    task = await options.get();
    options.onSnapshot?.(task);
  }
  return task;
}

function stoppedWaiting(serverName: string, taskId: string, lifetime: AbortSignal): LocalError {
  return lifetime.aborted
    ? new LocalError('connection-closed', `${serverName}: the connection closed while waiting for task ${taskId}`)
    : new LocalError('cancelled', `${serverName}: stopped waiting for task ${taskId}`);
}

/** Most tasks whose next poll time is kept; the book keeps 200 per server, so this only bounds a flood. */
const MAX_POLL_TIMES = 1_000;

/**
 * Notes an answer about a task that carries its status (tools/call, tasks/get, tasks/cancel): no tasks/get of it
 * goes out before the interval that answer gave (bounded, see `nextPollDelayMs`). A status notification is no
 * answer: it updates the book and brings no poll forward.
 */
export function noteTaskAnswer(services: TasksServices, task: TaskSnapshot): void {
  services.nextPollAt.delete(task.taskId);
  services.nextPollAt.set(task.taskId, Date.now() + nextPollDelayMs(task.pollIntervalMs));
  if (services.nextPollAt.size > MAX_POLL_TIMES)
    services.nextPollAt.delete(services.nextPollAt.keys().next().value as string);
}

/**
 * One tasks/get (both generations ask it the same way): the snapshot, checked to be the task asked for, and booked.
 * It waits first until the interval the last answer about the task gave has passed (issue 39: a status read right
 * after tasks/result went out 4 ms after the poll that asked for 1,000 ms), whoever asks: the poll loop, the read
 * after a result, an input round or a cancel.
 */
export async function getTask(
  context: ExtensionContext,
  services: TasksServices,
  generation: TaskGeneration,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskSnapshot> {
  const wait = (services.nextPollAt.get(taskId) ?? 0) - Date.now();
  if (wait > 0)
    await pause(wait, [signal, context.lifetime], () => stoppedWaiting(context.serverName, taskId, context.lifetime));
  const raw = await context.request('tasks/get', { taskId }, { signal });
  const task = readTask(context.serverName, generation, raw, 'the tasks/get result');
  if (task.taskId !== taskId)
    throw new LocalError(
      'invalid-result',
      `${context.serverName}: asked for task ${taskId}, the tasks/get answer is for task ${task.taskId}`,
    );
  noteTaskAnswer(services, task);
  services.book.record(generation, task);
  return task;
}
