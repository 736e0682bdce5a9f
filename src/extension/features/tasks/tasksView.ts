import * as vscode from 'vscode';
import type { CallToolOutcome } from '../../../protocol/client';
import type { TasksApi, TaskStatusKind, TrackedTask } from '../../../protocol/extensions/tasks';
import { TASKS_API } from '../../../protocol/extensions/tasks/tasksKey';
import type { JsonObject } from '../../../protocol/types';
import type { HistoryRecording } from '../../../workbench/history/historyLog';
import { PickedUpTaskHistory, taskResultCall, type TaskArgumentsNote } from '../../../workbench/tasks/taskResult';
import { EarlierTasks, shortAge, taskRow, type RowArguments, type TaskRow } from '../../../workbench/tasks/taskRows';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { TaskMemory } from './taskMemory';
import { showError } from '../../platform/ui/coreErrors';

export const TASKS_VIEW_ID = 'mcpWorkbench.tasks';

/** A finished task's result, for the host's result view, with the call it came from as the task book kept it. */
type TaskResultShower = (
  controller: ServerController,
  task: { toolName: string; args: JsonObject; argumentsNote?: string; outcome: CallToolOutcome; durationMs: number },
) => void;

export interface TaskNode {
  readonly kind: 'task';
  readonly controllerId: string;
  readonly row: TaskRow;
}

function statusLabel(status: TaskStatusKind): string {
  switch (status) {
    case 'working':
      return vscode.l10n.t('working');
    case 'input_required':
      return vscode.l10n.t('input required');
    case 'completed':
      return vscode.l10n.t('completed');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
  }
}

function argumentsNoteText(note: TaskArgumentsNote): string {
  switch (note.kind) {
    case 'omitted':
      return vscode.l10n.t(
        'The arguments of this call ({0} characters as JSON) were too long to keep with its task.',
        note.chars,
      );
    case 'unknown':
      return vscode.l10n.t('The arguments of this task are not known: it was not started in this window.');
  }
}

function rowArgumentsText(shown: RowArguments): string {
  switch (shown.kind) {
    case 'shown':
      return vscode.l10n.t('Arguments: {0}', shown.text);
    case 'omitted':
      return vscode.l10n.t('Arguments: {0} characters as JSON, too long to keep', shown.chars);
  }
}

function statusIcon(status: TaskStatusKind): vscode.ThemeIcon {
  switch (status) {
    case 'working':
      return new vscode.ThemeIcon('sync~spin');
    case 'input_required':
      return new vscode.ThemeIcon('question');
    case 'completed':
      return new vscode.ThemeIcon('pass');
    case 'failed':
      return new vscode.ThemeIcon('error');
    case 'cancelled':
      return new vscode.ThemeIcon('circle-slash');
  }
}

/**
 * The Tasks view: every task of every running server (tool, status, status message, age, progress), Cancel on live
 * ones, Open Result on finished ones. It reads each client's task book, which polling fills, and 2025-11-25 status
 * notifications update between polls (the view redraws on either); it never relies on the notifications. 2026-07-28 tasks that are still live are kept in workspace state and polled
 * again when their server runs after a Reload Window.
 */
export class TasksTreeProvider implements vscode.TreeDataProvider<TaskNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watched = new Map<string, { client: unknown; api: TasksApi; subscription: vscode.Disposable }>();
  /** Finished tasks of servers' earlier connections: they stay in the view after a stop or a restart. */
  private readonly earlier = new EarlierTasks();
  /** Results of tasks this view resumed after a reload (their calls' results live in the form and History). */
  private readonly results = new Map<string, JsonObject>();
  private readonly memory: TaskMemory;
  private readonly pickedUpHistory: PickedUpTaskHistory;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** What each task's row last showed (status, message, progress, tool), by server id and task id. */
  private readonly shownRows = new Map<string, string>();

  constructor(
    private readonly manager: ServerManager,
    workspaceState: vscode.Memento,
    /** Draws a task's result the way a call's result is drawn (the tool's result tab), given by the host. */
    private readonly showResult: TaskResultShower,
    history: HistoryRecording,
  ) {
    this.memory = new TaskMemory(workspaceState);
    this.pickedUpHistory = new PickedUpTaskHistory(history);
    this.subscriptions.push(manager.onDidChangeServerState((controller) => this.watch(controller)));
    for (const controller of manager.servers) this.watch(controller);
  }

  getTreeItem(node: TaskNode): vscode.TreeItem {
    const { row } = node;
    const item = new vscode.TreeItem(row.toolName ?? row.taskId, vscode.TreeItemCollapsibleState.None);
    const parts = [statusLabel(row.status), row.statusMessage, row.progress, shortAge(row.ageMs)].filter(
      (part): part is string => Boolean(part),
    );
    item.description = parts.join(' · ');
    const argumentsLine = row.arguments ? `\n${rowArgumentsText(row.arguments)}` : '';
    const earlierLine = row.earlier
      ? `\n${vscode.l10n.t('Seen on an earlier connection to {0} (it stopped or restarted since).', row.serverName)}`
      : '';
    item.tooltip = new vscode.MarkdownString().appendText(
      vscode.l10n.t('Task {0} of {1}: {2}', row.taskId, row.serverName, statusLabel(row.status)) +
        (row.statusMessage ? `\n${row.statusMessage}` : '') +
        argumentsLine +
        earlierLine,
    );
    item.iconPath = statusIcon(row.status);
    // Open Result asks the server again unless the result was kept: only while it runs.
    const canOpen = row.hasResult && (!row.earlier || this.api(this.manager.get(node.controllerId)) !== undefined);
    item.contextValue = row.canCancel ? 'task.live' : canOpen ? 'task.completed' : 'task.ended';
    item.id = `${node.controllerId}/${row.taskId}`;
    return item;
  }

  getChildren(node?: TaskNode): TaskNode[] {
    if (node) return [];
    const nodes: TaskNode[] = [];
    const servers = this.manager.servers;
    this.earlier.keepOnly(new Set(servers.map((controller) => controller.id)));
    for (const controller of servers) {
      // A stopped server has no book, but the finished tasks of its earlier connections still show.
      for (const row of this.earlier.rows(controller.id, this.api(controller)?.book.all() ?? []))
        nodes.push({ kind: 'task', controllerId: controller.id, row });
    }
    return nodes;
  }

  async cancel(node: unknown): Promise<void> {
    const found = this.resolve(node);
    if (!found) return;
    try {
      await found.api.cancel(found.node.row.taskId);
    } catch (error) {
      void showError(error, {
        server: found.controller,
        words: (reason) => vscode.l10n.t('Cancelling task {0} failed: {1}', found.node.row.taskId, reason),
        logAs: `Cancelling task ${found.node.row.taskId} failed`,
      });
    }
  }

  async openResult(node: unknown): Promise<void> {
    const found = this.resolve(node);
    if (!found) return;
    const { taskId } = found.node.row;
    let result =
      this.results.get(taskId) ?? resultOf(found.api.book.get(taskId) ?? this.earlier.get(found.controller.id, taskId));
    try {
      result ??= (await found.api.wait(taskId)).result;
    } catch (error) {
      void showError(error, {
        server: found.controller,
        words: (reason) => vscode.l10n.t('The result of task {0} is not available: {1}', taskId, reason),
        logAs: `The result of task ${taskId} is not available`,
      });
      return;
    }
    const tracked = found.api.book.get(taskId) ?? this.earlier.get(found.controller.id, taskId);
    // tasks/result and a completed 2026-07-28 task carry the original request's result: a CallToolResult, checked
    // as callTool checks one (its outputSchema too when the tool is known).
    let outcome: CallToolOutcome;
    try {
      const client = found.controller.client;
      if (!client) throw new Error(`${found.controller.name} is not running`);
      outcome = client.checkToolResult(result, {
        ...(tracked?.toolName === undefined ? {} : { toolName: tracked.toolName }),
        taskId,
      });
    } catch {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('The result of task {0} is not a tool result (it has no content array).', taskId),
      );
      return;
    }
    const call = taskResultCall(taskId, tracked);
    const argumentsNote = call.argumentsNote ? argumentsNoteText(call.argumentsNote) : undefined;
    const toolResult = outcome.result;
    this.showResult(found.controller, {
      toolName: call.toolName,
      args: call.args,
      ...(argumentsNote ? { argumentsNote } : {}),
      outcome,
      durationMs: call.durationMs,
    });
    const historyNote = call.argumentsNote
      ? vscode.l10n.t('result of task {0}, picked up after a reload (its arguments were not kept)', taskId)
      : vscode.l10n.t('result of task {0}, picked up after a reload', taskId);
    this.pickedUpHistory.opened(
      { id: found.controller.id, name: found.controller.name },
      taskId,
      tracked,
      toolResult,
      historyNote,
    );
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    for (const { subscription } of this.watched.values()) subscription.dispose();
    this.watched.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private api(controller: ServerController | undefined): TasksApi | undefined {
    return controller?.client?.extension(TASKS_API);
  }

  private resolve(node: unknown): { node: TaskNode; api: TasksApi; controller: ServerController } | undefined {
    if (typeof node !== 'object' || node === null || (node as TaskNode).kind !== 'task') return undefined;
    const controller = this.manager.get((node as TaskNode).controllerId);
    const api = controller && this.api(controller);
    return controller && api ? { node: node as TaskNode, api, controller } : undefined;
  }

  /** Listens to a running server's task book (once per connection) and resumes its remembered tasks. */
  private watch(controller: ServerController): void {
    const client = controller.client;
    const current = this.watched.get(controller.id);
    if (current?.client === client) return;
    // The connection ended: its finished tasks stay in the view (see EarlierTasks).
    if (current) this.earlier.retire(controller.id, current.api.book.all());
    current?.subscription.dispose();
    this.watched.delete(controller.id);
    this.refresh();
    const api = this.api(controller);
    if (!client || !api) return;
    const subscription = api.book.onDidChange((tracked) => {
      void this.memory.track(controller.name, tracked);
      // Every poll records the task, mostly unchanged: redrawing the tree each time (every 250 ms at most) replaced
      // the rows' inline actions under a pointer about to click them (the e2e's Open Task Result went nowhere once).
      // Only a change a row shows redraws; the age shown moves on with the next change or refresh.
      const key = `${controller.id}\u0000${tracked.snapshot.taskId}`;
      const shown = rowSignature(tracked);
      if (this.shownRows.get(key) === shown) return;
      this.shownRows.set(key, shown);
      if (this.shownRows.size > MAX_SHOWN_ROW_SIGNATURES)
        this.shownRows.delete(this.shownRows.keys().next().value as string);
      this.refresh();
    });
    this.watched.set(controller.id, { client, api, subscription });
    // The book gets each remembered task's tool and arguments before its first poll records it.
    if (api.generation() === '2026-07-28')
      for (const { taskId } of this.memory.recallInto(controller.name, api.book)) this.resume(controller, api, taskId);
  }

  private resume(controller: ServerController, api: TasksApi, taskId: string): void {
    const serverName = controller.name;
    this.pickedUpHistory.pickedUp(controller.id, taskId);
    api.wait(taskId).then(
      ({ result }) => {
        this.results.set(taskId, result);
        this.refresh();
      },
      // Failed, cancelled, expired or unknown to the server now: the book shows what is known; stop remembering it.
      () => void this.memory.forget(serverName, taskId),
    );
  }
}

/** Bounds the signatures kept (the books themselves keep at most 200 tasks per server). */
const MAX_SHOWN_ROW_SIGNATURES = 2_000;

/** What a row shows of a task, but its age. */
function rowSignature(tracked: TrackedTask): string {
  const row = taskRow(tracked);
  return JSON.stringify([row.toolName, row.status, row.statusMessage, row.progress, row.canCancel, row.hasResult]);
}

function resultOf(tracked: TrackedTask | undefined): JsonObject | undefined {
  const snapshot = tracked?.snapshot;
  return snapshot?.status === 'completed' ? snapshot.result : undefined;
}
