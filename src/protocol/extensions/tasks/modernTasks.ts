import { LocalError } from '../../errors';
import type { InputRequest } from '../../eras/era';
import type { ServerRequestMethod } from '../../methods';
import type { JsonObject } from '../../types';
import type { ExtensionContext, ResultTypeContext } from '../protocolExtension';
import { readTask, taskFailure, type TaskSnapshot } from './taskModel';
import { getTask, noteTaskAnswer, pollTask } from './taskPolling';
import type { TasksServices } from './taskServices';
import { isObject } from '../../guards';

/**
 * The 2026-07-28 tasks extension (SEP-2663): a tools/call answered with `resultType: "task"` is polled with
 * tasks/get until it ends; the result, the error and the input it needs are inlined in tasks/get. Input requests
 * are answered through the host's services and sent back with tasks/update, each key once over the task's life.
 */

const GENERATION = '2026-07-28';
/** Methods an input request may name (the server→client requests this client serves). */
const INPUT_METHODS: ReadonlySet<string> = new Set<ServerRequestMethod>([
  'ping',
  'roots/list',
  'sampling/createMessage',
  'elicitation/create',
]);
/** Input requests one task may ask in all: each can be a person's dialog. */
const MAX_INPUTS_PER_TASK = 64;

export async function cancelModernTask(context: ExtensionContext, taskId: string, signal?: AbortSignal): Promise<void> {
  await context.request('tasks/cancel', { taskId }, { signal });
}

/** The resultType "task" handler: the call's final result once its task ends (or the task itself for `--no-wait`). */
export async function resolveTaskResult(
  result: JsonObject,
  context: ResultTypeContext,
  services: TasksServices,
): Promise<JsonObject> {
  if (context.method !== 'tools/call') {
    throw new LocalError(
      'invalid-result',
      `${context.serverName}: answered ${context.method} with a task, which the tasks extension allows only on tools/call`,
    );
  }
  const call = context.params ? services.calls.get(context.params) : undefined;
  const toolName = typeof context.params?.name === 'string' ? context.params.name : undefined;
  const sent = context.params?.arguments;
  const args = isObject(sent) ? sent : undefined;
  const first = readTask(context.serverName, GENERATION, result, `the tools/call answer for ${toolName ?? 'a tool'}`);
  noteTaskAnswer(services, first);
  services.book.record(GENERATION, first, { toolName, arguments: args });
  if (call) call.task = first;
  if (call && !call.wait) return { content: [{ type: 'text', text: `task ${first.taskId} is ${first.status}` }] };
  return settleModernTask(context, services, first, call?.signal ?? context.signal);
}

/** Polls a 2026-07-28 task to its end, answering its input on the way; returns its result or throws its failure. */
export async function settleModernTask(
  context: ExtensionContext,
  services: TasksServices,
  first: TaskSnapshot,
  signal?: AbortSignal,
): Promise<JsonObject> {
  const answered = new Set<string>();
  const unanswered = (task: TaskSnapshot) =>
    task.status === 'input_required' && task.inputRequests
      ? Object.keys(task.inputRequests).filter((key) => !answered.has(key))
      : [];
  let task = first;
  for (;;) {
    task = await pollTask({
      serverName: context.serverName,
      first: task,
      get: () => getTask(context, services, GENERATION, first.taskId, signal),
      // Keys already answered are not shown again: the server may not have caught up yet (eventual consistency).
      stopAt: (snapshot) => unanswered(snapshot).length > 0,
      signal,
      lifetime: context.lifetime,
      maxWaitMs: services.maxWaitMs,
    });
    switch (task.status) {
      case 'completed':
        if (!task.result)
          throw new LocalError(
            'invalid-result',
            `${context.serverName}: task ${task.taskId} completed without a result`,
          );
        return task.result;
      case 'failed':
        throw taskFailure(context.serverName, task);
      case 'cancelled':
        throw new LocalError(
          'cancelled',
          `${context.serverName}: task ${task.taskId} was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
        );
      case 'working':
        throw new LocalError(
          'protocol-violation',
          `${context.serverName}: task ${task.taskId} stopped being polled while working`,
        );
      case 'input_required': {
        const keys = unanswered(task);
        if (answered.size + keys.length > MAX_INPUTS_PER_TASK) {
          throw new LocalError(
            'invalid-result',
            `${context.serverName}: task ${task.taskId} asked for more than ${MAX_INPUTS_PER_TASK} inputs; this client stopped answering it`,
          );
        }
        const requests = readInputRequests(context.serverName, task.taskId, task.inputRequests ?? {}, keys);
        for (const key of keys) answered.add(key);
        const inputResponses = await context.answerInputRequests(requests, signal);
        await context.request('tasks/update', { taskId: task.taskId, inputResponses }, { signal });
        task = await getTask(context, services, GENERATION, first.taskId, signal);
        continue;
      }
    }
  }
}

function readInputRequests(
  serverName: string,
  taskId: string,
  raw: JsonObject,
  keys: readonly string[],
): Record<string, InputRequest> {
  const requests: Record<string, InputRequest> = {};
  for (const key of keys) {
    const entry = raw[key] as JsonObject | null;
    const method = typeof entry === 'object' && entry !== null ? entry.method : undefined;
    if (typeof method !== 'string' || !INPUT_METHODS.has(method)) {
      throw new LocalError(
        'invalid-result',
        `${serverName}: input request ${JSON.stringify(key)} of task ${taskId} names ${JSON.stringify(method) ?? 'no method'}, which this client cannot answer`,
      );
    }
    const params = (entry as JsonObject).params ?? {};
    if (!isObject(params)) {
      throw new LocalError(
        'invalid-result',
        `${serverName}: input request ${JSON.stringify(key)} of task ${taskId} has params that are not an object`,
      );
    }
    // Tag the request with its task so the review panel and forms can name it.
    const tagged = {
      ...(params as JsonObject),
      _meta: {
        ...((params as JsonObject)._meta as JsonObject | undefined),
        'io.modelcontextprotocol/related-task': { taskId },
      },
    };
    requests[key] = { method, params: tagged } as InputRequest;
  }
  return requests;
}
