import type { CallOptions, CallToolOutcome, McpClient } from '../../protocol/client';
import { tasksExtension } from '../../protocol/extensions/tasks';
import type { CallToolResult, Tool } from '../../protocol/types';

export interface TaskAwareCallOptions extends CallOptions {
  /** Run a tool whose task support is optional as a task (the form's "Run as Task", or the setting's default). */
  runAsTask?: boolean;
}

/**
 * Calls a tool the way its task support asks (host-neutral: the extension's form and History use it):
 * 2025-11-25 `required` is always task-augmented, `optional` only when asked, `forbidden` never; a 2026-07-28
 * answer that is a task is waited for by the core either way. `taskId` names the task the call ran as.
 */
export async function callToolWithTasks(client: McpClient, tool: Tool, args: Record<string, unknown>, options: TaskAwareCallOptions = {}): Promise<CallToolOutcome & { taskId?: string }> {
  const tasks = client.extension(tasksExtension);
  const generation = tasks?.generation();
  const support = tasks?.taskSupport(tool);
  const legacyTask = generation === '2025-11-25' && (support === 'required' || (support === 'optional' && options.runAsTask === true));
  if (!tasks || !legacyTask) return client.callTool(tool.name, args, options);
  const outcome = await tasks.callTool(tool, args, { asTask: options.runAsTask, signal: options.signal, onProgress: options.onProgress, timeoutMs: options.timeoutMs });
  switch (outcome.kind) {
    case 'result':
      // tasks/result answers with the original request's result shape; the same check callTool makes.
      if (!Array.isArray(outcome.result.content)) throw new Error(`${client.serverName}: the result of task ${outcome.taskId ?? ''} for ${tool.name} has no content array`);
      return { result: outcome.result as CallToolResult, ...(outcome.taskId ? { taskId: outcome.taskId } : {}) };
    case 'task':
      // Only a call with wait: false is handed its task; this one waits.
      throw new Error(`${client.serverName}: ${tool.name} returned task ${outcome.task.taskId} unexpectedly`);
  }
}

/**
 * What the Call Tool form offers for running a call as a task: nothing where the choice could not reach the call
 * (no 2025-11-25 tasks on this connection, or a tool without task support), a checkbox for `optional` (checked when
 * `mcpWorkbench.tasks.runOptionalAsTask` is on), and a checked, disabled one for `required`.
 */
export type RunAsTaskChoice = { kind: 'none' } | { kind: 'optional'; checked: boolean } | { kind: 'required' };

export function runAsTaskChoice(client: McpClient | undefined, tool: Tool, runOptionalAsTask: boolean): RunAsTaskChoice {
  const tasks = client?.extension(tasksExtension);
  // 2026-07-28 servers decide per call whether an answer is a task; its tools carry no task support to choose by.
  if (!tasks || tasks.generation() !== '2025-11-25') return { kind: 'none' };
  const support = tasks.taskSupport(tool);
  switch (support) {
    case 'forbidden':
      return { kind: 'none' };
    case 'optional':
      return { kind: 'optional', checked: runOptionalAsTask };
    case 'required':
      return { kind: 'required' };
  }
}
