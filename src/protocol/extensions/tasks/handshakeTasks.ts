import { LocalError } from '../../errors';
import type { ExtensionContext } from '../protocolExtension';
import type { JsonObject } from '../../types';
import { readTask, taskFailure, type TaskSnapshot } from './taskModel';
import { getTask, noteTaskAnswer, pollTask } from './taskPolling';
import type { TasksServices } from './taskServices';

/**
 * The 2025-11-25 requester side (basic/utilities/tasks.mdx): a tools/call carrying `task` is answered with
 * `{ task }`; the client polls tasks/get and fetches the result with tasks/result. Input the task needs
 * (elicitation, sampling) arrives as ordinary server→client requests tagged with the related task while
 * tasks/result waits, so tasks/result is sent as soon as the task says input_required, as the text prescribes.
 */

const GENERATION = '2025-11-25';

/** Starts a task-augmented tools/call; returns the task, or the plain result when the server ran the call at once. */
export async function startHandshakeToolTask(
  context: ExtensionContext,
  services: TasksServices,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ kind: 'task'; task: TaskSnapshot } | { kind: 'result'; result: JsonObject }> {
  const raw: JsonObject = await context.request('tools/call', { name, arguments: args, task: {} }, { signal });
  if (raw.task === undefined && Array.isArray(raw.content)) return { kind: 'result', result: raw };
  const task = readTask(context.serverName, GENERATION, raw.task, `the tools/call answer for ${name}`);
  noteTaskAnswer(services, task);
  services.book.record(GENERATION, task, { toolName: name, arguments: args as JsonObject });
  return { kind: 'task', task };
}

/** Waits for a 2025-11-25 task and returns its result (the original request's result shape). */
export async function settleHandshakeTask(
  context: ExtensionContext,
  services: TasksServices,
  first: TaskSnapshot,
  signal?: AbortSignal,
): Promise<JsonObject> {
  const started = Date.now();
  const settled = await pollTask({
    serverName: context.serverName,
    first,
    get: () => getTask(context, services, GENERATION, first.taskId, signal),
    // The server delivers the input it needs while tasks/result is open.
    stopAt: (task) => task.status === 'input_required',
    signal,
    lifetime: context.lifetime,
    maxWaitMs: services.maxWaitMs,
  });
  switch (settled.status) {
    case 'failed':
      throw taskFailure(context.serverName, settled);
    case 'cancelled':
      throw new LocalError(
        'cancelled',
        `${context.serverName}: task ${settled.taskId} was cancelled${settled.statusMessage ? `: ${settled.statusMessage}` : ''}`,
      );
    case 'working':
      throw new LocalError(
        'protocol-violation',
        `${context.serverName}: task ${settled.taskId} stopped being polled while working`,
      );
    case 'input_required':
    case 'completed': {
      const timeoutMs = Math.max(1_000, services.maxWaitMs - (Date.now() - started));
      const result = await context.request('tasks/result', { taskId: settled.taskId }, { signal, timeoutMs });
      // The status after the result, for the views (best effort: the server may have discarded the task). Not
      // waited for: it goes out only once the last answer's pollInterval has passed, and the result is here now.
      void getTask(context, services, GENERATION, settled.taskId).catch(() => undefined);
      return result;
    }
  }
}

export async function listHandshakeTasks(
  context: ExtensionContext,
  services: TasksServices,
  signal?: AbortSignal,
): Promise<TaskSnapshot[]> {
  const tasks: TaskSnapshot[] = [];
  let cursor: string | undefined;
  // Bounded like every paginated list: a server handing out cursors forever is cut off.
  for (let page = 0; page < 100; page++) {
    const raw = await context.request('tasks/list', cursor === undefined ? {} : { cursor }, { signal });
    if (!Array.isArray(raw.tasks))
      throw new LocalError('invalid-result', `${context.serverName}: the tasks/list result has no tasks array`);
    for (const entry of raw.tasks) {
      const task = readTask(context.serverName, GENERATION, entry, 'an entry of the tasks/list result');
      services.book.record(GENERATION, task);
      tasks.push(task);
    }
    if (typeof raw.nextCursor !== 'string' || raw.nextCursor === cursor) return tasks;
    cursor = raw.nextCursor;
  }
  throw new LocalError(
    'protocol-violation',
    `${context.serverName}: tasks/list returned more than 100 pages; giving up`,
  );
}

export async function cancelHandshakeTask(
  context: ExtensionContext,
  services: TasksServices,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskSnapshot> {
  const raw = await context.request('tasks/cancel', { taskId }, { signal });
  const task = readTask(context.serverName, GENERATION, raw, 'the tasks/cancel result');
  noteTaskAnswer(services, task);
  services.book.record(GENERATION, task);
  return task;
}
