import type { McpClient } from '../protocol/client';
import type { Disposable } from '../protocol/disposable';
import { LocalError } from '../protocol/errors';
import { tasksExtension, type TasksApi, type TaskSnapshot, type TrackedTask } from '../protocol/extensions/tasks';
import type { Tool } from '../protocol/types';
import { UsageError, type ParsedArgs } from './args';
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
  const api = client.extension(tasksExtension);
  if (!api) throw new LocalError('capability-missing', `${client.serverName}: the tasks extension is not enabled in this client`);
  return api;
}

/** A snapshot as printed: timestamps as ISO 8601 again. */
export function printableTask(task: TaskSnapshot): Record<string, unknown> {
  const { createdAt, lastUpdatedAt, ...rest } = task;
  return {
    ...rest,
    ...(createdAt === undefined ? {} : { createdAt: new Date(createdAt).toISOString() }),
    ...(lastUpdatedAt === undefined ? {} : { lastUpdatedAt: new Date(lastUpdatedAt).toISOString() }),
  };
}

/** Writes a task's status line to stderr each time its status or message changes. */
export function reportTaskProgress(client: McpClient): Disposable | undefined {
  const api = client.extension(tasksExtension);
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
 * `call` through the tasks API when a task is asked for or needed: `--no-wait`, `--task`, or a 2025-11-25 tool that
 * requires one. Returns undefined when a plain call serves (2026-07-28 tasks are then waited for transparently).
 */
export async function callAsTask(client: McpClient, tool: Tool | undefined, toolArgs: Record<string, unknown>, args: ParsedArgs): Promise<{ output: unknown; isError?: boolean } | undefined> {
  const api = client.extension(tasksExtension);
  if (!api || !tool) return undefined;
  const generation = api.generation();
  const needsTask = generation === '2025-11-25' && api.taskSupport(tool) === 'required';
  if (!needsTask && !args.noWait && !args.asTask) return undefined;
  const outcome = await api.callTool(tool, toolArgs, { asTask: args.asTask, wait: !args.noWait });
  switch (outcome.kind) {
    case 'task':
      return { output: printableTask(outcome.task) };
    case 'result':
      return { output: outcome.result, isError: outcome.result.isError === true };
  }
}

export async function runTasksCommand(client: McpClient, args: ParsedArgs): Promise<{ output: unknown }> {
  const [sub = 'list'] = args.positionals;
  if (sub !== 'list') throw new UsageError(`tasks takes "list" or nothing, got ${sub}`);
  return { output: (await tasksOf(client).list()).map(printableTask) };
}

export async function runTaskCommand(client: McpClient, args: ParsedArgs): Promise<{ output: unknown }> {
  const [sub, taskId] = args.positionals;
  if ((sub !== 'get' && sub !== 'cancel' && sub !== 'wait') || !taskId) throw new UsageError('task needs: get <id>, cancel <id> or wait <id>');
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
      return { output: await api.wait(taskId) };
  }
}
