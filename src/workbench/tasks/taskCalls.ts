import type { CallOptions, CallToolOutcome, McpClient } from '../../protocol/client';
import { TASKS_API } from '../../protocol/extensions/tasks/tasksKey';
import type { Tool } from '../../protocol/types';

interface TaskAwareCallOptions extends CallOptions {
  /** Run a tool whose task support is optional as a task (the form's "Run as Task", or the setting's default). */
  runAsTask?: boolean;
}

/**
 * Calls a tool the way the tasks extension's `taskMode` decides (host-neutral: the extension's form and History use
 * it): a 2025-11-25 task runs through the tasks API, everything else is a plain callTool (a 2026-07-28 answer that is
 * a task is waited for by the core). Either way the result gets callTool's checks. `taskId` names the task the call
 * ran as.
 */
export async function callToolWithTasks(
  client: McpClient,
  tool: Tool,
  args: Record<string, unknown>,
  options: TaskAwareCallOptions = {},
): Promise<CallToolOutcome & { taskId?: string }> {
  const tasks = client.extension(TASKS_API);
  if (!tasks || tasks.taskMode(tool, { asTask: options.runAsTask }).kind !== 'task')
    return client.callTool(tool.name, args, options);
  const outcome = await tasks.callTool(tool, args, {
    asTask: options.runAsTask,
    signal: options.signal,
    onProgress: options.onProgress,
    timeoutMs: options.timeoutMs,
  });
  switch (outcome.kind) {
    case 'result': {
      const { kind: _kind, ...checked } = outcome;
      return checked;
    }
    case 'task':
      // Only a call with wait: false is handed its task; this one waits.
      throw new Error(`${client.serverName}: ${tool.name} returned task ${outcome.task.taskId} unexpectedly`);
  }
}

/**
 * What the Call Tool form offers for running a call as a task: nothing where the choice could not reach the call
 * (`taskMode` would not run it as a 2025-11-25 task even when asked), a checkbox for `optional` (checked when
 * `mcpWorkbench.tasks.runOptionalAsTask` is on), and a checked, disabled one for `required`.
 */
export type RunAsTaskChoice = { kind: 'none' } | { kind: 'optional'; checked: boolean } | { kind: 'required' };

export function runAsTaskChoice(
  client: McpClient | undefined,
  tool: Tool,
  runOptionalAsTask: boolean,
): RunAsTaskChoice {
  // 2026-07-28 servers decide per call whether an answer is a task; its tools carry no task support to choose by.
  const mode = client?.extension(TASKS_API)?.taskMode(tool, { asTask: true });
  if (mode?.kind !== 'task') return { kind: 'none' };
  return mode.reason === 'required' ? { kind: 'required' } : { kind: 'optional', checked: runOptionalAsTask };
}
