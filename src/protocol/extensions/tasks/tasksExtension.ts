import { LocalError, errorMessage } from '../../errors';
import type { CallToolOutcome } from '../../client';
import type { ProgressUpdate } from '../../jsonrpc/rpcConnection';
import type { JsonObject, Tool } from '../../types';
import type { ExtensionContext, ExtensionDefinition } from '../protocolExtension';
import type { TaskBook } from './taskBook';
import { cancelHandshakeTask, listHandshakeTasks, settleHandshakeTask, startHandshakeToolTask } from './handshakeTasks';
import { cancelModernTask, resolveTaskResult, settleModernTask } from './modernTasks';
import { getTask } from './taskPolling';
import { TASK_METHODS } from './taskMethods';
import { isTerminal, readTask, type TaskGeneration, type TaskSnapshot } from './taskModel';
import { HostedTasks } from './taskReceiver';
import type { TaskCall, TasksServices } from './taskServices';
import { isObject } from '../../guards';
import { TASKS_EXTENSION_ID } from './tasksKey';

type TaskSupport = 'forbidden' | 'optional' | 'required';

interface TaskCallOptions {
  /** Ask for a task where the tool offers one optionally (2025-11-25 `execution.taskSupport: "optional"`). */
  asTask?: boolean;
  /** false: return the task as soon as it exists instead of waiting for its result. Default true. */
  wait?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (update: ProgressUpdate) => void;
}

type TaskCallOutcome =
  /** The call's result, checked as `McpClient.callTool` checks a direct one; `taskId` when it ran as a task. */
  | ({ kind: 'result'; taskId?: string } & CallToolOutcome)
  /** The call became a task and the caller did not wait for it. */
  | { kind: 'task'; task: TaskSnapshot };

/** What the server of the open session offers for running a tools/call as a task. */
export type ToolTaskOffer =
  /** No tasks: a 2025-11-25-or-older handshake without `capabilities.tasks`. */
  | { generation: undefined }
  /** 2025-11-25: `toolCalls` is whether it declares `capabilities.tasks.requests.tools.call`. */
  | { generation: '2025-11-25'; toolCalls: boolean }
  /** 2026-07-28: any tools/call may be answered with `resultType: "task"`; the server decides per call. */
  | { generation: '2026-07-28' };

/** What the caller asks: a task for a tool whose task support is optional, and whether to wait for the result. */
export interface TaskModeOptions {
  asTask?: boolean;
  /** Default true. */
  wait?: boolean;
}

/**
 * How one tools/call runs, decided once for every host (the CLI, the extension's form, History, the tasks API):
 *   - `task`: 2025-11-25 task-augmented (`params.task`), polled with tasks/get, its result fetched with tasks/result;
 *   - `server-decides`: 2026-07-28, a plain tools/call whose answer may be a task (polled, or handed back unwaited);
 *   - `direct`: a plain tools/call that does not become a task, and why.
 */
export type TaskMode =
  | { kind: 'task'; generation: '2025-11-25'; reason: 'required' | 'asked'; wait: boolean }
  | { kind: 'server-decides'; generation: '2026-07-28'; wait: boolean }
  | {
      kind: 'direct';
      /**
       * no-tasks: the server offers no tasks; no-tool-call-tasks: it offers tasks but not on tools/call (the spec:
       * then never task-augment, whatever the tool's taskSupport); forbidden: the tool's taskSupport is absent or
       * "forbidden"; not-asked: "optional" and no task was asked for.
       */
      reason: 'no-tasks' | 'no-tool-call-tasks' | 'forbidden' | 'not-asked';
    };

/** The one decision whether a tools/call runs as a task (2025-11-25 basic/utilities/tasks.mdx, tool-level negotiation; 2026-07-28 SEP-2663). */
export function taskMode(tool: Tool, offer: ToolTaskOffer, options: TaskModeOptions = {}): TaskMode {
  const wait = options.wait ?? true;
  switch (offer.generation) {
    case undefined:
      return { kind: 'direct', reason: 'no-tasks' };
    case '2026-07-28':
      return { kind: 'server-decides', generation: '2026-07-28', wait };
    case '2025-11-25': {
      if (!offer.toolCalls) return { kind: 'direct', reason: 'no-tool-call-tasks' };
      const support = toolTaskSupport(tool);
      if (support === 'required') return { kind: 'task', generation: '2025-11-25', reason: 'required', wait };
      if (support === 'forbidden') return { kind: 'direct', reason: 'forbidden' };
      return options.asTask === true
        ? { kind: 'task', generation: '2025-11-25', reason: 'asked', wait }
        : { kind: 'direct', reason: 'not-asked' };
    }
  }
}

/** What hosts reach through `client.extension(tasksExtension)`. */
export interface TasksApi {
  readonly book: TaskBook;
  /** Which task generation the open session speaks, undefined when the server offers no tasks. */
  generation(): TaskGeneration | undefined;
  /** A tool's 2025-11-25 task support (2026-07-28 servers decide per call, so tools there read as optional). */
  taskSupport(tool: Tool): TaskSupport;
  /** `taskMode` for this session's server: how a call of `tool` runs. */
  taskMode(tool: Tool, options?: TaskModeOptions): TaskMode;
  /** Calls the tool as `taskMode` decides; its result gets the checks `McpClient.callTool` makes. */
  callTool(tool: Tool, args: Record<string, unknown>, options?: TaskCallOptions): Promise<TaskCallOutcome>;
  get(taskId: string, signal?: AbortSignal): Promise<TaskSnapshot>;
  /**
   * Waits for a task this client did not start in this run (after a reload, `task wait`) and returns its result,
   * checked as a tools/call result (its outputSchema too when the book knows the tool and it was listed).
   */
  wait(taskId: string, signal?: AbortSignal): Promise<CallToolOutcome>;
  /** 2025-11-25: the server's tasks/list; 2026-07-28 has none, so the tasks this client knows. */
  list(signal?: AbortSignal): Promise<TaskSnapshot[]>;
  cancel(taskId: string, signal?: AbortSignal): Promise<void>;
}

function toolTaskSupport(tool: Tool): TaskSupport {
  const execution = tool.execution;
  const support = isObject(execution) ? execution.taskSupport : undefined;
  return support === 'optional' || support === 'required' ? support : 'forbidden';
}

/** 2025-11-25: the server may tell a task's status changes (never relied on: polling goes on regardless). */
const TASK_STATUS_NOTIFICATION = 'notifications/tasks/status';
/**
 * 2026-07-28: the same on the subscription stream, for the task ids its `subscriptions/listen` filter names
 * (`notifications.taskIds`, as ext-tasks 0.2.2 contributes it); never relied on either.
 */
const MODERN_TASK_NOTIFICATION = 'notifications/tasks';

/**
 * A status notification updates the book (so the Tasks view redraws without waiting for a poll), but only for a task
 * this client already knows: a server cannot fill the view with tasks by notifying. A notification that arrives after
 * the task ended (out of order with a poll) does not bring it back to life.
 */
export function recordStatusNotification(
  context: Pick<ExtensionContext, 'serverName' | 'logger'>,
  services: Pick<TasksServices, 'book'>,
  params: JsonObject,
  generation: TaskGeneration = '2025-11-25',
): void {
  const method = generation === '2025-11-25' ? TASK_STATUS_NOTIFICATION : MODERN_TASK_NOTIFICATION;
  let task: TaskSnapshot;
  try {
    task = readTask(context.serverName, generation, params, `a ${method} notification`);
  } catch (error) {
    context.logger.warn(errorMessage(error));
    return;
  }
  const known = services.book.get(task.taskId);
  if (!known || known.generation !== generation) return;
  if (isTerminal(known.snapshot) && !isTerminal(task)) return;
  services.book.record(generation, task);
}

/**
 * 2026-07-28: names the live tasks of a server that offers the tasks extension in the subscription stream's filter,
 * so their changes can come as notifications; the filter follows the book (a task that ends leaves it), and the core
 * reopens the stream only when the list changed.
 */
function listenForLiveTasks(context: ExtensionContext, services: TasksServices): void {
  let listened = '';
  const offersTasks = (): boolean => {
    try {
      const session = context.session();
      return (
        session.kind === 'modern' &&
        isObject((session.capabilities.extensions as JsonObject | undefined)?.[TASKS_EXTENSION_ID])
      );
    } catch {
      return false; // not connected (any more)
    }
  };
  const subscription = services.book.onDidChange(() => {
    const live = offersTasks()
      ? services.book.all().filter((tracked) => tracked.generation === '2026-07-28' && !isTerminal(tracked.snapshot))
      : [];
    const taskIds = live.map((tracked) => tracked.snapshot.taskId);
    const key = taskIds.join('\n');
    if (key === listened) return;
    listened = key;
    context.listenFor({ taskIds });
  });
  context.lifetime.addEventListener('abort', () => subscription.dispose(), { once: true });
}

function activate(context: ExtensionContext, services: TasksServices): TasksApi {
  if (services.receiver.sampling || services.receiver.elicitation)
    context.interceptServerRequests(new HostedTasks(context.serverName, context.lifetime));
  const generation = (): TaskGeneration | undefined => {
    const session = context.session();
    switch (session.kind) {
      case 'modern':
        return '2026-07-28';
      case 'handshake':
        return isObject(session.capabilities.tasks) ? '2025-11-25' : undefined;
    }
  };
  const requireGeneration = (what: string): TaskGeneration => {
    const found = generation();
    if (!found)
      throw new LocalError(
        'capability-missing',
        `${context.serverName} does not offer tasks, so this client cannot ${what}`,
      );
    return found;
  };
  const offer = (): ToolTaskOffer => {
    const found = generation();
    if (found !== '2025-11-25') return { generation: found };
    const tasks = context.session().capabilities.tasks;
    const requests = isObject(tasks) ? tasks.requests : undefined;
    return {
      generation: found,
      toolCalls: isObject(requests) && isObject(requests.tools) && isObject(requests.tools.call),
    };
  };
  const checked = (result: JsonObject, toolName: string | undefined, taskId: string | undefined): CallToolOutcome =>
    context.checkToolResult(result, {
      ...(toolName === undefined ? {} : { toolName }),
      ...(taskId === undefined ? {} : { taskId }),
    });
  context.onServerNotification(TASK_STATUS_NOTIFICATION, (params) => {
    if (generation() !== '2025-11-25') return;
    recordStatusNotification(context, services, params);
  });
  context.onServerNotification(MODERN_TASK_NOTIFICATION, (params) => {
    if (generation() !== '2026-07-28') return;
    recordStatusNotification(context, services, params, '2026-07-28');
  });
  listenForLiveTasks(context, services);
  return {
    book: services.book,
    generation,
    taskSupport: toolTaskSupport,
    taskMode: (tool, options) => taskMode(tool, offer(), options),
    async callTool(tool, args, options = {}) {
      const mode = taskMode(tool, offer(), options);
      if (mode.kind === 'task') {
        const started = await startHandshakeToolTask(context, services, tool.name, args, options.signal);
        if (started.kind === 'result') return { kind: 'result', ...checked(started.result, tool.name, undefined) };
        if (!mode.wait) return { kind: 'task', task: started.task };
        const taskId = started.task.taskId;
        return {
          kind: 'result',
          ...checked(await settleHandshakeTask(context, services, started.task, options.signal), tool.name, taskId),
          taskId,
        };
      }
      // A plain tools/call; a 2026-07-28 answer that is a task is polled by the result handler (or handed back unwaited).
      const wait = mode.kind === 'server-decides' ? mode.wait : true;
      const params = { name: tool.name, arguments: args };
      const call: TaskCall = { toolName: tool.name, wait, signal: options.signal, onProgress: options.onProgress };
      services.calls.set(params, call);
      const result: JsonObject = await context.request('tools/call', params, {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onProgress: options.onProgress,
      });
      if (call.task && !wait) return { kind: 'task', task: call.task };
      return {
        kind: 'result',
        ...checked(result, tool.name, call.task?.taskId),
        ...(call.task ? { taskId: call.task.taskId } : {}),
      };
    },
    get(taskId, signal) {
      return getTask(context, services, requireGeneration('read a task'), taskId, signal);
    },
    async wait(taskId, signal) {
      const found = requireGeneration('wait for a task');
      const result =
        found === '2025-11-25'
          ? await settleHandshakeTask(
              context,
              services,
              await getTask(context, services, found, taskId, signal),
              signal,
            )
          : await settleModernTask(context, services, await getTask(context, services, found, taskId, signal), signal);
      return checked(result, services.book.get(taskId)?.toolName, taskId);
    },
    async list(signal) {
      if (requireGeneration('list tasks') === '2025-11-25') return listHandshakeTasks(context, services, signal);
      return services.book.all().map((tracked) => tracked.snapshot);
    },
    async cancel(taskId, signal) {
      if (requireGeneration('cancel a task') === '2025-11-25')
        await cancelHandshakeTask(context, services, taskId, signal);
      else {
        await cancelModernTask(context, taskId, signal);
        // The ack is eventually consistent: read the status once for the views, whatever it says now (after the
        // interval the last answer about the task gave, as every tasks/get).
        await getTask(context, services, '2026-07-28', taskId, signal).catch(() => undefined);
      }
    },
  };
}

/**
 * Tasks, both generations, behind one extension: declared as `io.modelcontextprotocol/tasks` (2026-07-28 per-request
 * capabilities) and, for the handshake era, the core `capabilities.tasks` of 2025-11-25 when the client hosts tasks.
 */
export const tasksExtension: ExtensionDefinition<TasksServices, TasksApi> = {
  id: TASKS_EXTENSION_ID,
  settings: () => ({}),
  coreCapabilities: ({ receiver }) => {
    if (!receiver.sampling && !receiver.elicitation) return {};
    const requests: JsonObject = {};
    if (receiver.sampling) requests.sampling = { createMessage: {} };
    if (receiver.elicitation) requests.elicitation = { create: {} };
    return { tasks: { list: {}, cancel: {}, requests } };
  },
  methods: TASK_METHODS,
  resultTypes: { task: resolveTaskResult },
  activate,
};
