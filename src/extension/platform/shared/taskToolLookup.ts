import { TASKS_API } from '../../../protocol/extensions/tasks/tasksKey';
import type { TaskToolLookup } from '../../../workbench/tasks/relatedTask';
import type { ServerManager } from '../servers/serverManager';

/** Finds the tool of a task in the task book of the named server's running client (the review panel's titles). */
export function taskToolLookup(manager: () => ServerManager | undefined): TaskToolLookup {
  return (serverName, taskId) => {
    for (const controller of manager()?.byName(serverName) ?? []) {
      const toolName = controller.client?.extension(TASKS_API)?.book.get(taskId)?.toolName;
      if (toolName) return toolName;
    }
    return undefined;
  };
}
