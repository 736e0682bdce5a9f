import { ErrorCodes, McpError, errorMessage } from '../../errors';
import type { JsonObject } from '../../types';
import type { ServerRequestInterceptor, ServerRequestNext } from '../protocolExtension';
import { RELATED_TASK_META } from './taskMethods';
import { isObject } from '../../guards';

/**
 * The 2025-11-25 receiver side: a server may ask this client to run sampling/createMessage or elicitation/create as
 * a task (`params.task`). The client answers at once with `{ task }`, runs the request through the core handler
 * (review, form, the person's wait) in the background, and serves the server's tasks/get, tasks/result, tasks/list
 * and tasks/cancel for it. Tasks are kept per connection, bounded in number and forgotten after their ttl.
 */

const HOSTED_METHODS: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create']);
/** Live tasks one server may have this client run at once (each may be a person's dialog). */
const MAX_HOSTED_TASKS = 16;
/** How long a finished task is kept for the server when it asked for no ttl, and the most it may ask. */
const DEFAULT_TTL_MS = 5 * 60 * 1000;
const MAX_TTL_MS = 60 * 60 * 1000;
const POLL_INTERVAL_MS = 500;

type HostedState =
  | { status: 'working' }
  | { status: 'completed'; result: JsonObject }
  | { status: 'failed'; error: McpError }
  | { status: 'cancelled' };

interface HostedTask {
  taskId: string;
  method: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  state: HostedState;
  abort: AbortController;
  ended: Promise<void>;
  end(): void;
  statusMessage?: string;
}

export class HostedTasks implements ServerRequestInterceptor {
  readonly methods = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];
  private readonly tasks = new Map<string, HostedTask>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly serverName: string,
    lifetime: AbortSignal,
  ) {
    lifetime.addEventListener('abort', () => this.dispose(), { once: true });
  }

  intercept(
    method: string,
    params: JsonObject,
    signal: AbortSignal,
    next: ServerRequestNext,
  ): Promise<JsonObject> | undefined {
    if (HOSTED_METHODS.has(method))
      return isObject(params.task) ? Promise.resolve().then(() => this.host(method, params, next)) : undefined;
    switch (method) {
      case 'tasks/get':
        return Promise.resolve().then(() => wireTask(this.find(params)));
      case 'tasks/result':
        return this.result(this.findLater(params), signal);
      case 'tasks/list':
        return Promise.resolve({ tasks: [...this.tasks.values()].map(wireTask) });
      case 'tasks/cancel':
        return Promise.resolve().then(() => this.cancel(this.find(params)));
      default:
        return undefined;
    }
  }

  private host(method: string, params: JsonObject, next: ServerRequestNext): JsonObject {
    const live = [...this.tasks.values()].filter((task) => task.state.status === 'working').length;
    if (live >= MAX_HOSTED_TASKS)
      throw new McpError(
        ErrorCodes.InvalidRequest,
        `this client runs at most ${MAX_HOSTED_TASKS} tasks for ${this.serverName} at once`,
      );
    const asked = (params.task as JsonObject).ttl;
    const ttl =
      typeof asked === 'number' && Number.isFinite(asked) && asked > 0 ? Math.min(asked, MAX_TTL_MS) : DEFAULT_TTL_MS;
    const now = new Date().toISOString();
    let end = () => {};
    const ended = new Promise<void>((resolve) => (end = resolve));
    const task: HostedTask = {
      taskId: crypto.randomUUID(),
      method,
      createdAt: now,
      lastUpdatedAt: now,
      ttl,
      state: { status: 'working' },
      abort: new AbortController(),
      ended,
      end,
    };
    this.tasks.set(task.taskId, task);
    const { task: _omitted, ...request } = params;
    const meta = { ...(request._meta as JsonObject | undefined), [RELATED_TASK_META]: { taskId: task.taskId } };
    next({ ...request, _meta: meta }, task.abort.signal).then(
      (result) => this.settle(task, { status: 'completed', result }),
      (error: unknown) =>
        this.settle(task, {
          status: 'failed',
          error: error instanceof McpError ? error : new McpError(ErrorCodes.InternalError, errorMessage(error)),
        }),
    );
    return { task: wireTask(task) };
  }

  private settle(task: HostedTask, state: HostedState): void {
    if (task.state.status !== 'working') return;
    task.state = state;
    task.lastUpdatedAt = new Date().toISOString();
    if (state.status === 'failed') task.statusMessage = state.error.rawMessage;
    task.end();
    // Forgotten after its ttl, counted from creation as the text says (at least until the server could read it).
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.tasks.delete(task.taskId);
      },
      Math.max(1_000, Date.parse(task.createdAt) + task.ttl - Date.now()),
    );
    this.timers.add(timer);
  }

  private async result(found: Promise<HostedTask>, signal: AbortSignal): Promise<JsonObject> {
    const task = await found;
    if (task.state.status === 'working') {
      await new Promise<void>((resolve, reject) => {
        const aborted = () => reject(new McpError(ErrorCodes.InvalidRequest, 'tasks/result was cancelled'));
        signal.addEventListener('abort', aborted, { once: true });
        void task.ended.then(() => {
          signal.removeEventListener('abort', aborted);
          resolve();
        });
      });
    }
    const state: HostedState = task.state;
    switch (state.status) {
      case 'completed':
        return {
          ...state.result,
          _meta: { ...(state.result._meta as JsonObject | undefined), [RELATED_TASK_META]: { taskId: task.taskId } },
        };
      case 'failed':
        throw state.error;
      case 'cancelled':
        throw new McpError(ErrorCodes.InvalidRequest, `task ${task.taskId} was cancelled`);
      case 'working':
        throw new McpError(ErrorCodes.InternalError, `task ${task.taskId} is still working`);
    }
  }

  private cancel(task: HostedTask): JsonObject {
    if (task.state.status !== 'working')
      throw new McpError(ErrorCodes.InvalidParams, `task ${task.taskId} is already ${task.state.status}`);
    task.abort.abort();
    this.settle(task, { status: 'cancelled' });
    return wireTask(task);
  }

  private find(params: JsonObject): HostedTask {
    const task = typeof params.taskId === 'string' ? this.tasks.get(params.taskId) : undefined;
    if (!task) throw new McpError(ErrorCodes.InvalidParams, `no task ${JSON.stringify(params.taskId)} on this client`);
    return task;
  }

  private findLater(params: JsonObject): Promise<HostedTask> {
    return Promise.resolve().then(() => this.find(params));
  }

  private dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const task of this.tasks.values()) task.abort.abort();
    this.tasks.clear();
  }
}

function wireTask(task: HostedTask): JsonObject {
  return {
    taskId: task.taskId,
    status: task.state.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttl,
    pollInterval: POLL_INTERVAL_MS,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
  };
}
