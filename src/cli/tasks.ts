import type { CallToolOutcome, McpClient } from '../protocol/client';
import type { Disposable } from '../protocol/disposable';
import { LocalError } from '../protocol/errors';
import {
  TASKS_API,
  type TaskMode,
  type TasksApi,
  type TaskSnapshot,
  type TrackedTask,
} from '../protocol/extensions/tasks';
import type { Tool } from '../protocol/types';
import { UsageError, type ParsedArgs } from './args';
import type { CommandOutcome } from './main';
import { printable } from './printable';

/**
 * Tasks on the command line: `call` waits for a task and prints its result (`--no-wait` prints the task, `--task`
 * asks for one where the tool offers it optionally), `tasks [list]`, `task get|cancel|wait <id>`. The task's status
 * goes to stderr as it changes; stdout stays the one JSON answer.
 */

export const TASKS_USAGE = `  tasks [list]                         the server's tasks (2025-11-25 tasks/list; a 2026-07-28 server has no
                                       list, so only tasks this run saw)
  task get <id>                        one task's status
  task cancel <id>                     ask the server to cancel a task (prints its status afterwards)
  task wait <id>                       wait for a task and print its result (exit 1 when it failed)`;

export const TASK_OPTIONS_USAGE = `  --task                    call: run as a task where the tool offers one optionally (2025-11-25
                            execution.taskSupport "optional"; "required" tools always run as tasks)
  --no-wait                 call: print the task as soon as the server makes one, without waiting for it`;

function tasksOf(client: McpClient): TasksApi {
  const api = client.extension(TASKS_API);
  if (!api)
    throw new LocalError(
      'capability-missing',
      `${client.serverName}: the tasks extension is not enabled in this client`,
    );
  return api;
}

/** A snapshot as printed: timestamps as ISO 8601 again. */
function printableTask(task: TaskSnapshot): Record<string, unknown> {
  const { createdAt, lastUpdatedAt, ...rest } = task;
  return {
    ...rest,
    ...(createdAt === undefined ? {} : { createdAt: new Date(createdAt).toISOString() }),
    ...(lastUpdatedAt === undefined ? {} : { lastUpdatedAt: new Date(lastUpdatedAt).toISOString() }),
  };
}

/** Writes a task's status line to stderr each time its status or message changes. */
export function reportTaskProgress(client: McpClient): Disposable | undefined {
  const api = client.extension(TASKS_API);
  if (!api) return undefined;
  const last = new Map<string, string>();
  return api.book.onDidChange((tracked: TrackedTask) => {
    const { taskId, status, statusMessage } = tracked.snapshot;
    const line = `task ${taskId}${tracked.toolName ? ` (${tracked.toolName})` : ''}: ${status}${statusMessage ? ` - ${statusMessage}` : ''}`;
    if (last.get(taskId) === line) return;
    last.set(taskId, line);
    process.stderr.write(`${printable(line)}\n`);
  });
}

/**
 * What `call` and `task wait` print for a tool result, and when it counts as failed: the result with the verdict of
 * its structuredContent against the tool's outputSchema, whether it came directly or as a task's result.
 */
function toolCallOutcome(
  serverName: string,
  toolName: string | undefined,
  outcome: CallToolOutcome,
  taskId?: string,
): CommandOutcome {
  const output = {
    ...outcome.result,
    ...(outcome.outputValidation ? { outputValidation: outcome.outputValidation } : {}),
  };
  const what = toolName === undefined ? `task ${taskId ?? ''}` : `tool ${toolName}`;
  if (outcome.result.isError === true)
    return { output, failure: { kind: 'tool-error', message: `${serverName}: ${what} reported an error` } };
  if (outcome.outputValidation?.kind === 'invalid') {
    return {
      output,
      failure: {
        kind: 'output-invalid',
        message: `${serverName}: structuredContent of ${toolName ?? what} does not match its outputSchema`,
      },
    };
  }
  return { output };
}

/**
 * `call`: as the tasks extension's `taskMode` decides for `--task` and `--no-wait`. A task is waited for and its
 * result checked like a direct one (`--no-wait` prints the task instead); a plain call is `McpClient.callTool`, whose
 * 2026-07-28 task answers the core waits for. `--task` on a tool that cannot run as one says why on stderr.
 */
export async function runCall(
  client: McpClient,
  name: string,
  tool: Tool | undefined,
  toolArgs: Record<string, unknown>,
  args: ParsedArgs,
): Promise<CommandOutcome> {
  const api = client.extension(TASKS_API);
  const mode = api && tool ? api.taskMode(tool, { asTask: args.asTask, wait: !args.noWait }) : undefined;
  if (args.asTask && mode?.kind === 'direct')
    process.stderr.write(
      `${printable(`${client.serverName}: ${name} runs without a task (${DIRECT_REASONS[mode.reason]})`)}\n`,
    );
  const throughTasks = mode?.kind === 'task' || (mode?.kind === 'server-decides' && !mode.wait);
  if (!api || !tool || !throughTasks)
    return toolCallOutcome(client.serverName, name, await client.callTool(name, toolArgs));
  const outcome = await api.callTool(tool, toolArgs, { asTask: args.asTask, wait: !args.noWait });
  switch (outcome.kind) {
    case 'task':
      return { output: printableTask(outcome.task) };
    case 'result':
      return toolCallOutcome(client.serverName, name, outcome);
  }
}

const DIRECT_REASONS: Readonly<Record<Extract<TaskMode, { kind: 'direct' }>['reason'], string>> = {
  'no-tasks': 'the server offers no tasks',
  'no-tool-call-tasks': 'the server does not offer tasks for tools/call',
  forbidden: 'its execution.taskSupport does not allow one',
  'not-asked': 'no task was asked for',
};

export async function runTasksCommand(client: McpClient, args: ParsedArgs): Promise<CommandOutcome> {
  const [sub = 'list'] = args.positionals;
  if (sub !== 'list') throw new UsageError(`tasks takes "list" or nothing, got ${sub}`);
  return { output: (await tasksOf(client).list()).map(printableTask) };
}

export async function runTaskCommand(client: McpClient, args: ParsedArgs): Promise<CommandOutcome> {
  const [sub, taskId] = args.positionals;
  if ((sub !== 'get' && sub !== 'cancel' && sub !== 'wait') || !taskId)
    throw new UsageError('task needs: get <id>, cancel <id> or wait <id>');
  const api = tasksOf(client);
  switch (sub) {
    case 'get':
      return { output: printableTask(await api.get(taskId)) };
    case 'cancel': {
      await api.cancel(taskId);
      const seen = api.book.get(taskId)?.snapshot;
      return { output: seen ? printableTask(seen) : { taskId, cancelRequested: true } };
    }
    case 'wait':
      return toolCallOutcome(client.serverName, api.book.get(taskId)?.toolName, await api.wait(taskId), taskId);
  }
}
