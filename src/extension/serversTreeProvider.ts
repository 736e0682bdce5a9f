import * as vscode from 'vscode';
import type { Tool } from '../core/protocol/types';
import type { ServerController } from './serverController';
import { describeTarget, transportLabel } from './serverEntry';
import type { ServerManager } from './serverManager';
import { assertNever, type ServerState } from './serverState';

export const SERVERS_VIEW_ID = 'mcpWorkbench.servers';

export type ServersTreeNode =
  | { kind: 'server'; controller: ServerController }
  | { kind: 'tool'; controller: ServerController; tool: Tool }
  | { kind: 'message'; controller: ServerController; text: string; icon: vscode.ThemeIcon };

/** The Servers view: one node per configured server, its tools underneath while it runs. */
export class ServersTreeProvider implements vscode.TreeDataProvider<ServersTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ServersTreeNode | undefined>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(private readonly manager: ServerManager) {
    // Item ids change with the server's phase, so a whole refresh is the honest update (the list is short).
    this.subscriptions = [manager.onDidChangeServers(() => this.refresh()), manager.onDidChangeServerState(() => this.refresh())];
  }

  refresh(): void {
    this.changeEmitter.fire(undefined);
  }

  getChildren(node?: ServersTreeNode): ServersTreeNode[] {
    if (!node) {
      return [...this.manager.servers]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((controller) => ({ kind: 'server' as const, controller }));
    }
    if (node.kind !== 'server') return [];
    const { controller } = node;
    const state = controller.state;
    switch (state.kind) {
      case 'running':
        if (state.tools.length === 0) return [message(controller, vscode.l10n.t('No tools'), new vscode.ThemeIcon('info'))];
        return state.tools.map((tool) => ({ kind: 'tool' as const, controller, tool }));
      case 'starting':
        return [message(controller, vscode.l10n.t('Starting…'), new vscode.ThemeIcon('loading~spin'))];
      case 'error':
        return [message(controller, firstLine(state.message), new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')))];
      case 'stopped':
        // Expanding starts the server (see the onDidExpandElement handler); its tools arrive with the refresh.
        return state.note ? [message(controller, state.note, new vscode.ThemeIcon('shield'))] : [];
      default:
        return assertNever(state, 'server state');
    }
  }

  getTreeItem(node: ServersTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server':
        return serverItem(node.controller, this.manager.servers);
      case 'tool':
        return toolItem(node.controller, node.tool);
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${nodeId(node.controller)}/message`;
        item.iconPath = node.icon;
        item.contextValue = 'message';
        return item;
      }
      default:
        return assertNever(node, 'tree node');
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
  }
}

function message(controller: ServerController, text: string, icon: vscode.ThemeIcon): ServersTreeNode {
  return { kind: 'message', controller, text, icon };
}

/** The epoch makes the id change when the server settles in a new phase: stopped comes back collapsed, running expanded. */
function nodeId(controller: ServerController): string {
  return `${controller.id}@${controller.epoch}`;
}

function serverItem(controller: ServerController, all: readonly ServerController[]): vscode.TreeItem {
  const state = controller.state;
  const item = new vscode.TreeItem(
    controller.name,
    state.kind === 'running' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = nodeId(controller);
  item.iconPath = stateIcon(state);
  item.contextValue = `server.${state.kind}`;
  const sharedName = all.some((other) => other !== controller && other.name === controller.name);
  const parts = [stateLabel(state), transportLabel(controller.entry.definition)];
  if (state.kind === 'running') parts.push(vscode.l10n.t('{0} tools', state.tools.length));
  if (sharedName) parts.push(controller.entry.origin.folder.name);
  item.description = parts.join(' · ');
  item.tooltip = serverTooltip(controller);
  return item;
}

export function stateLabel(state: ServerState): string {
  switch (state.kind) {
    case 'stopped':
      return state.note ?? vscode.l10n.t('stopped');
    case 'starting':
      return vscode.l10n.t('starting');
    case 'running':
      return vscode.l10n.t('running');
    case 'error':
      return vscode.l10n.t('error');
    default:
      return assertNever(state, 'server state');
  }
}

function stateIcon(state: ServerState): vscode.ThemeIcon {
  switch (state.kind) {
    case 'stopped':
      return new vscode.ThemeIcon('circle-outline');
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'running':
      return new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'));
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
    default:
      return assertNever(state, 'server state');
  }
}

function serverTooltip(controller: ServerController): vscode.MarkdownString {
  const { entry, state } = controller;
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(entry.name)}** — ${escape(stateLabel(state))}\n\n`);
  md.appendMarkdown(`${escape(vscode.l10n.t('Defined in'))}: \`${entry.origin.configUri.fsPath || entry.origin.configUri.toString()}\`\n\n`);
  md.appendMarkdown(`${escape(entry.definition.kind === 'stdio' ? vscode.l10n.t('Command') : vscode.l10n.t('URL'))}:`);
  md.appendCodeblock(describeTarget(entry.definition), 'text');
  if (state.kind === 'running') {
    const { serverInfo, protocolVersion } = state.session;
    md.appendMarkdown(
      `\n${escape(vscode.l10n.t('Server'))}: ${escape(`${serverInfo.title ?? serverInfo.name} ${serverInfo.version}`)} · ` +
        `${escape(vscode.l10n.t('protocol {0}', protocolVersion))}` +
        (state.pid === undefined ? '' : ` · pid ${state.pid}`) +
        '\n',
    );
  }
  if (state.kind === 'error') {
    md.appendMarkdown(`\n**${escape(vscode.l10n.t('Last error'))}**:`);
    const tail = state.stderrTail.filter((line) => !state.message.includes(line));
    md.appendCodeblock([state.message, ...(tail.length ? ['', '--- stderr ---', ...tail] : [])].join('\n'), 'text');
  }
  return md;
}

function toolItem(controller: ServerController, tool: Tool): vscode.TreeItem {
  const item = new vscode.TreeItem(tool.name, vscode.TreeItemCollapsibleState.None);
  item.id = `${nodeId(controller)}/tool/${tool.name}`;
  const title = tool.title ?? tool.annotations?.title;
  item.description = title && title !== tool.name ? title : firstLine(tool.description ?? '');
  item.iconPath = new vscode.ThemeIcon('tools');
  item.contextValue = 'tool';
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escape(title ?? tool.name)}** \`${tool.name}\`\n\n`);
  if (tool.description) md.appendText(`${tool.description}\n\n`);
  const hints = annotationLabels(tool);
  if (hints.length) md.appendMarkdown(hints.map((hint) => `\`${hint}\``).join(' '));
  item.tooltip = md;
  return item;
}

function annotationLabels(tool: Tool): string[] {
  const a = tool.annotations;
  if (!a) return [];
  const labels: string[] = [];
  if (a.readOnlyHint === true) labels.push(vscode.l10n.t('read-only'));
  if (a.destructiveHint === true && a.readOnlyHint !== true) labels.push(vscode.l10n.t('destructive'));
  if (a.idempotentHint === true) labels.push(vscode.l10n.t('idempotent'));
  if (a.openWorldHint === true) labels.push(vscode.l10n.t('open world'));
  if (a.openWorldHint === false) labels.push(vscode.l10n.t('closed world'));
  return labels;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
