import * as vscode from 'vscode';
import type {
  HistoryEntry,
  HistoryLog,
  HistoryOutcome,
  HistoryOperation,
  HistorySource,
} from '../../../workbench/history/historyLog';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { assertNever } from '../../platform/servers/serverState';

export const HISTORY_VIEW_ID = 'mcpWorkbench.history';

export type HistoryNode = { kind: 'server'; serverName: string } | { kind: 'entry'; entry: HistoryEntry };

/**
 * The History view: one row per server with entries this session, its exchanges underneath, newest first. A new
 * entry refreshes only its server's row (or the root when the server is new to the view).
 */
export class HistoryTreeProvider implements vscode.TreeDataProvider<HistoryNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<HistoryNode | HistoryNode[] | undefined>();
  private readonly serverNodes = new Map<string, HistoryNode & { kind: 'server' }>();
  private readonly entryNodes = new WeakMap<HistoryEntry, HistoryNode & { kind: 'entry' }>();
  private readonly subscription: { dispose(): void };

  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(private readonly history: HistoryLog) {
    this.subscription = history.onDidChange((change) => {
      const present = new Set(history.serverNames());
      const appeared = change.serverNames.some((name) => present.has(name) && !this.serverNodes.has(name));
      const vanished = change.serverNames.some((name) => !present.has(name) && this.serverNodes.has(name));
      for (const name of change.serverNames) if (!present.has(name)) this.serverNodes.delete(name);
      if (appeared || vanished) {
        this.changeEmitter.fire(undefined);
        return;
      }
      const nodes = change.serverNames.flatMap((name) => {
        const node = this.serverNodes.get(name);
        return node ? [node] : [];
      });
      if (nodes.length > 0) this.changeEmitter.fire(nodes);
    });
  }

  getChildren(node?: HistoryNode): HistoryNode[] {
    if (!node) return this.history.serverNames().map((serverName) => this.serverNode(serverName));
    if (node.kind === 'entry') return [];
    return this.history.of(node.serverName).map((entry) => this.entryNode(entry));
  }

  /** The node for an entry (the same object each time, as VS Code needs for reveal and refresh). */
  entryNode(entry: HistoryEntry): HistoryNode & { kind: 'entry' } {
    let node = this.entryNodes.get(entry);
    if (!node) {
      node = { kind: 'entry', entry };
      this.entryNodes.set(entry, node);
    }
    return node;
  }

  getParent(node: HistoryNode): HistoryNode | undefined {
    return node.kind === 'entry' ? this.serverNode(node.entry.server.name) : undefined;
  }

  getTreeItem(node: HistoryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': {
        const count = this.history.of(node.serverName).length;
        const item = new vscode.TreeItem(node.serverName, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `history/server/${node.serverName}`;
        item.description = count === 1 ? vscode.l10n.t('1 exchange') : vscode.l10n.t('{0} exchanges', count);
        item.iconPath = new vscode.ThemeIcon('server');
        item.contextValue = 'historyServer';
        return item;
      }
      case 'entry':
        return entryItem(node);
      default:
        return assertNever(node, 'history node');
    }
  }

  private serverNode(serverName: string): HistoryNode & { kind: 'server' } {
    let node = this.serverNodes.get(serverName);
    if (!node) {
      node = { kind: 'server', serverName };
      this.serverNodes.set(serverName, node);
    }
    return node;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}

function entryItem(node: HistoryNode & { kind: 'entry' }): vscode.TreeItem {
  const { entry } = node;
  const item = new vscode.TreeItem(operationTitle(entry.operation), vscode.TreeItemCollapsibleState.None);
  item.id = `history/entry/${entry.id}`;
  item.description = [
    new Date(entry.startedAt).toLocaleTimeString(),
    entry.durationMs === undefined ? '' : vscode.l10n.t('{0} ms', entry.durationMs),
    outcomeLabel(entry.outcome),
    entry.source ? sourceLabel(entry.source) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  item.iconPath = entryIcon(entry);
  item.contextValue = `historyEntry.${entry.operation.kind}`;
  item.tooltip = entryTooltip(entry);
  item.command = { command: 'mcpWorkbench.openHistoryEntry', title: vscode.l10n.t('Open Result'), arguments: [node] };
  return item;
}

/** Who asked, when it was not the person: an app, or an agent through the gateway (its own words, escaped). */
export function sourceLabel(source: HistorySource): string {
  switch (source.kind) {
    case 'app':
      return vscode.l10n.t('by the app of {0}', escapeForDisplay(source.appTool));
    case 'agent':
      return vscode.l10n.t(
        'by agent {0}',
        escapeForDisplay(source.version ? `${source.name} ${source.version}` : source.name || '?'),
      );
    default:
      return assertNever(source, 'history source');
  }
}

export function operationTitle(operation: HistoryOperation): string {
  switch (operation.kind) {
    case 'tool':
      return operation.toolName;
    case 'resource':
      return operation.uri;
    case 'prompt':
      return operation.promptName;
    case 'sampling':
      return operation.model ? vscode.l10n.t('Sampling ({0})', operation.model) : vscode.l10n.t('Sampling');
    case 'elicitation':
      return vscode.l10n.t('Elicitation: {0}', firstLine(operation.message).slice(0, 80));
    case 'conversation':
      return vscode.l10n.t('Conversation ({0}): {1}', operation.model, firstLine(operation.title).slice(0, 80));
    case 'events':
      return vscode.l10n.t('Events: {0} by {1}', operation.eventName, operation.mode);
    default:
      return assertNever(operation, 'history operation');
  }
}

export function kindLabel(operation: HistoryOperation): string {
  switch (operation.kind) {
    case 'tool':
      return vscode.l10n.t('Tool call');
    case 'resource':
      return vscode.l10n.t('Resource read');
    case 'prompt':
      return vscode.l10n.t('Prompt get');
    case 'sampling':
      return vscode.l10n.t('Sampling request');
    case 'elicitation':
      return vscode.l10n.t('Elicitation request');
    case 'conversation':
      return vscode.l10n.t('Conversation with a model');
    case 'events':
      return vscode.l10n.t('Events subscription');
    default:
      return assertNever(operation, 'history operation');
  }
}

export function outcomeLabel(outcome: HistoryOutcome): string {
  const note = 'note' in outcome && outcome.note ? ` (${outcome.note})` : '';
  switch (outcome.kind) {
    case 'succeeded':
      return vscode.l10n.t('succeeded') + note;
    case 'tool-error':
      return vscode.l10n.t('tool reported an error') + note;
    case 'failed':
      return vscode.l10n.t('failed: {0}', firstLine(outcome.message));
    case 'cancelled':
      return vscode.l10n.t('cancelled');
    case 'declined':
      return vscode.l10n.t('declined') + note;
    default:
      return assertNever(outcome, 'history outcome');
  }
}

function entryIcon(entry: HistoryEntry): vscode.ThemeIcon {
  const codicons: Record<HistoryOperation['kind'], string> = {
    tool: 'tools',
    resource: 'file',
    prompt: 'comment-discussion',
    sampling: 'hubot',
    elicitation: 'question',
    conversation: 'sparkle',
    events: 'broadcast',
  };
  const failed = entry.outcome.kind === 'failed' || entry.outcome.kind === 'tool-error';
  return new vscode.ThemeIcon(
    codicons[entry.operation.kind],
    failed ? new vscode.ThemeColor('errorForeground') : undefined,
  );
}

function entryTooltip(entry: HistoryEntry): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMarkdown(kindLabel(entry.operation))}** · ${escapeMarkdown(entry.server.name)}\n\n`);
  md.appendText(
    `${new Date(entry.startedAt).toLocaleString()}${entry.durationMs === undefined ? '' : ` · ${entry.durationMs} ms`} · ${outcomeLabel(entry.outcome)}\n`,
  );
  const args = operationArguments(entry.operation);
  if (args !== undefined) md.appendCodeblock(shorten(JSON.stringify(args, null, 2), 1500), 'json');
  return md;
}

/** What the operation was called with, when it takes arguments. */
export function operationArguments(operation: HistoryOperation): unknown {
  switch (operation.kind) {
    case 'tool':
    case 'prompt':
    case 'events':
      return operation.arguments;
    case 'resource':
    case 'sampling':
    case 'elicitation':
    case 'conversation':
      return undefined;
    default:
      return assertNever(operation, 'history operation');
  }
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n…`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
