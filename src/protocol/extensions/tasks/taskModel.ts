import { LocalError } from '../../errors';
import type { JsonObject } from '../../types';
import { isObject } from '../../guards';

/**
 * One task as this client understands it, whichever generation sent it: 2025-11-25 (`Task` with `ttl` and
 * `pollInterval`, result fetched with tasks/result) or the 2026-07-28 extension (`DetailedTask` with `ttlMs` and
 * `pollIntervalMs`, result, error and input requests inlined in tasks/get). Everything here was read from an
 * untrusted server, checked field by field; what does not fit is an error naming the server.
 */

export type TaskGeneration = '2025-11-25' | '2026-07-28';

/** The statuses both generations share; `input_required` is written the same way in both. */
export type TaskStatusKind = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskFields {
  taskId: string;
  statusMessage?: string;
  /** Epoch milliseconds (the server's ISO 8601 `createdAt`), undefined when it sent none or an unreadable one. */
  createdAt?: number;
  lastUpdatedAt?: number;
  /** Time to live from creation; null means unlimited. */
  ttlMs: number | null;
  /** The server's hint, unbounded; `nextPollDelayMs` bounds it. */
  pollIntervalMs?: number;
}

/** A task snapshot: a discriminated union of its status, with the payload each status carries. */
export type TaskSnapshot =
  | (TaskFields & { status: 'working' })
  | (TaskFields & { status: 'input_required'; inputRequests?: JsonObject })
  | (TaskFields & { status: 'completed'; result?: JsonObject })
  | (TaskFields & { status: 'failed'; error?: JsonObject })
  | (TaskFields & { status: 'cancelled' });

const TERMINAL_STATUSES: ReadonlySet<TaskStatusKind> = new Set(['completed', 'failed', 'cancelled']);

export function isTerminal(task: TaskSnapshot): boolean {
  return TERMINAL_STATUSES.has(task.status);
}

/** Polling never runs faster than this, whatever the server suggests (0 would be a busy loop). */
export const MIN_POLL_INTERVAL_MS = 250;
/** Nor slower than this: a hint of days would leave a finished task unseen for days. */
export const MAX_POLL_INTERVAL_MS = 30_000;
/** Without a hint: once a second, as ext-tasks does. */
const DEFAULT_POLL_INTERVAL_MS = 1_000;
/** Longest task id and status message this client keeps (a server could send megabytes). */
const MAX_TASK_ID_LENGTH = 512;
const MAX_STATUS_MESSAGE_LENGTH = 4_096;

/** The delay before the next poll: the server's hint bounded to [MIN, MAX], the default without one. */
export function nextPollDelayMs(hint: number | undefined): number {
  if (hint === undefined || !Number.isFinite(hint)) return DEFAULT_POLL_INTERVAL_MS;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, hint));
}

/** When the task stops being usable: createdAt + ttl (undefined when unlimited or the server gave no createdAt). */
export function expiresAt(task: TaskSnapshot): number | undefined {
  if (task.ttlMs === null || task.createdAt === undefined) return undefined;
  return task.createdAt + task.ttlMs;
}

function timestamp(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function nonNegative(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Reads one task object. `generation` picks the field names (ttl/pollInterval or ttlMs/pollIntervalMs); `what`
 * says where it came from for the error ("the tasks/get result").
 */
export function readTask(serverName: string, generation: TaskGeneration, raw: unknown, what: string): TaskSnapshot {
  if (!isObject(raw)) throw new LocalError('invalid-result', `${serverName}: ${what} is not a task object`);
  const { taskId, status } = raw;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
    throw new LocalError('invalid-result', `${serverName}: ${what} has no usable taskId`);
  }
  const ttlRaw = generation === '2025-11-25' ? raw.ttl : raw.ttlMs;
  const fields: TaskFields = {
    taskId,
    ttlMs: nonNegative(ttlRaw) ?? null,
    pollIntervalMs: nonNegative(generation === '2025-11-25' ? raw.pollInterval : raw.pollIntervalMs),
    createdAt: timestamp(raw.createdAt),
    lastUpdatedAt: timestamp(raw.lastUpdatedAt),
  };
  if (typeof raw.statusMessage === 'string')
    fields.statusMessage = raw.statusMessage.slice(0, MAX_STATUS_MESSAGE_LENGTH);
  switch (status) {
    case 'working':
    case 'cancelled':
      return { ...fields, status };
    case 'input_required':
      return { ...fields, status, ...(isObject(raw.inputRequests) ? { inputRequests: raw.inputRequests } : {}) };
    case 'completed':
      return { ...fields, status, ...(isObject(raw.result) ? { result: raw.result } : {}) };
    case 'failed':
      return { ...fields, status, ...(isObject(raw.error) ? { error: raw.error } : {}) };
    default:
      throw new LocalError(
        'invalid-result',
        `${serverName}: ${what} for task ${taskId} has status ${JSON.stringify(status).slice(0, 80)}, which is none of working, input_required, completed, failed, cancelled`,
      );
  }
}

/** A task that ended `failed`: what the server said, naming the server and the task. */
export class TaskFailedError extends Error {
  override readonly name = 'TaskFailedError';
  constructor(
    readonly serverName: string,
    readonly taskId: string,
    readonly detail: string,
    /** The JSON-RPC error code the task failed with (2026-07-28 `error.code`), when the server sent one. */
    readonly code?: number,
  ) {
    super(`${serverName}: task ${taskId} failed${code === undefined ? '' : ` (error ${code})`}: ${detail}`);
  }
}

/** The failure a failed task carries, as an Error naming the server and the task. */
export function taskFailure(serverName: string, task: TaskSnapshot & { status: 'failed' }): TaskFailedError {
  const error = task.error;
  const detail =
    error && typeof error.message === 'string'
      ? error.message.slice(0, MAX_STATUS_MESSAGE_LENGTH)
      : (task.statusMessage ?? 'no reason given');
  return new TaskFailedError(
    serverName,
    task.taskId,
    detail,
    error && typeof error.code === 'number' ? error.code : undefined,
  );
}
