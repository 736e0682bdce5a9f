import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { TASKS_VIEW_ID, TasksTreeProvider, type TaskNode } from './tasksView';

/** The Tasks view: tool calls running as tasks, their status, Cancel and Open Result. */
export const tasksFeature = defineFeature({
  name: 'tasks',
  activate({ platform, services, own, extension }) {
    const tasksTree = new TasksTreeProvider(
      platform.manager,
      extension.workspaceState,
      (controller, task) =>
        services.get('toolResults')?.show(controller, {
          serverName: controller.name,
          toolName: task.toolName,
          args: task.args,
          ...(task.argumentsNote ? { argumentsNote: task.argumentsNote } : {}),
          outcome: task.outcome,
          durationMs: task.durationMs,
        }),
      platform.historyRecorder,
    );
    own(tasksTree, vscode.window.createTreeView<TaskNode>(TASKS_VIEW_ID, { treeDataProvider: tasksTree }));
    return {
      commands: {
        'mcpWorkbench.cancelTask': (node) => tasksTree.cancel(node),
        'mcpWorkbench.openTaskResult': (node) => tasksTree.openResult(node),
        'mcpWorkbench.refreshTasks': () => tasksTree.refresh(),
      },
      exports: { tasksTree },
    };
  },
});
