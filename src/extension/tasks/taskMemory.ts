import type * as vscode from 'vscode';

/** Workspace-state key of the 2026-07-28 task ids still worth polling, by server name. */
const KEY = 'mcpWorkbench.tasks.pending';
/** Ids kept per server: a workspace cannot make the state grow without bound. */
const MAX_PER_SERVER = 50;

/**
 * The 2026-07-28 tasks that were live when last seen, kept in workspace state so a Reload Window polls them again
 * (SEP-2663: clients SHOULD persist task ids). Finished and cancelled tasks are forgotten.
 */
export class TaskMemory {
  constructor(private readonly state: vscode.Memento) {}

  pending(serverName: string): string[] {
    const all = this.state.get<Record<string, unknown>>(KEY, {});
    const ids = all[serverName];
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string').slice(0, MAX_PER_SERVER) : [];
  }

  remember(serverName: string, taskId: string): Thenable<void> | undefined {
    const ids = this.pending(serverName);
    if (ids.includes(taskId)) return undefined;
    return this.write(serverName, [...ids, taskId].slice(-MAX_PER_SERVER));
  }

  forget(serverName: string, taskId: string): Thenable<void> | undefined {
    const ids = this.pending(serverName);
    if (!ids.includes(taskId)) return undefined;
    return this.write(serverName, ids.filter((id) => id !== taskId));
  }

  private write(serverName: string, ids: string[]): Thenable<void> {
    const all = { ...this.state.get<Record<string, unknown>>(KEY, {}) };
    if (ids.length === 0) delete all[serverName];
    else all[serverName] = ids;
    return this.state.update(KEY, all);
  }
}
