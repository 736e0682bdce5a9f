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
