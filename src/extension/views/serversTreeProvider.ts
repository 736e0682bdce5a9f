import * as vscode from 'vscode';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../protocol/types';
import { eraLabel } from '../../protocol/eras/select';
import { groupItem, nodeId, promptItem, resourceItem, templateItem, toolItem, type OfferingGroup } from './offeringItems';
import { ResourceSubscriptions } from '../resources/resourceSubscriptions';
import type { ServerCatalog } from '../servers/serverCatalog';
import type { ServerController } from '../servers/serverController';
import { describeTarget, transportLabel } from '../config/serverEntry';
import type { ServerManager } from '../servers/serverManager';
import { ServerState, assertNever } from '../servers/serverState';

export const SERVERS_VIEW_ID = 'mcpWorkbench.servers';

export type ServersTreeNode =
  | { kind: 'server'; controller: ServerController }
  | { kind: 'group'; controller: ServerController; group: OfferingGroup }
  | { kind: 'tool'; controller: ServerController; tool: Tool }
  | { kind: 'resource'; controller: ServerController; resource: Resource }
  | { kind: 'template'; controller: ServerController; template: ResourceTemplate }
  | { kind: 'prompt'; controller: ServerController; prompt: Prompt }
  | { kind: 'message'; controller: ServerController; text: string; icon: vscode.ThemeIcon };

/**
 * The Servers view: one node per configured server; while it runs, one group per capability it declares (tools,
 * resources, resource templates, prompts) with every listed item underneath.
 */
export class ServersTreeProvider implements vscode.TreeDataProvider<ServersTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ServersTreeNode | undefined>();
  private readonly subscriptions: vscode.Disposable[];

  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly catalog: ServerCatalog,
    private readonly resourceSubscriptions: ResourceSubscriptions,
  ) {
    // Item ids change with the server's phase, so a whole refresh is the honest update (the list is short).
    this.subscriptions = [
      manager.onDidChangeServers(() => this.refresh()),
      manager.onDidChangeServerState(() => this.refresh()),
      catalog.onDidChange(() => this.refresh()),
      resourceSubscriptions.onDidChange(() => this.refresh()),
    ];
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
    if (node.kind === 'group') return this.groupChildren(node.controller, node.group);
    if (node.kind !== 'server') return [];
    const { controller } = node;
    const state = controller.state;
    switch (state.kind) {
      case 'running': {
        const capabilities = state.session.capabilities;
        const groups: OfferingGroup[] = [];
        if (capabilities.tools) groups.push('tools');
        if (capabilities.resources) groups.push('resources', 'templates');
        if (capabilities.prompts) groups.push('prompts');
        if (groups.length === 0) return [message(controller, vscode.l10n.t('This server offers no tools, resources or prompts'), new vscode.ThemeIcon('info'))];
        return groups.map((group) => ({ kind: 'group' as const, controller, group }));
      }
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
        return serverItem(node.controller, this.manager.servers, this.catalog);
      case 'group': {
        const item = groupItem(node.controller, node.group, this.groupChildren(node.controller, node.group, false)?.length);
        if (node.group === 'tools') item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
        return item;
      }
      case 'tool':
        return toolItem(node.controller, node.tool);
      case 'resource':
        return resourceItem(node.controller, node.resource, this.resourceContext(node.controller, node.resource.uri));
      case 'template':
        return templateItem(node.controller, node.template);
      case 'prompt':
        return promptItem(node.controller, node.prompt);
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

  /** The items of a group; undefined (when not `withPlaceholders`) while the server's lists are still loading. */
  private groupChildren(controller: ServerController, group: OfferingGroup, withPlaceholders?: true): ServersTreeNode[];
  private groupChildren(controller: ServerController, group: OfferingGroup, withPlaceholders: false): ServersTreeNode[] | undefined;
  private groupChildren(controller: ServerController, group: OfferingGroup, withPlaceholders = true): ServersTreeNode[] | undefined {
    const state = controller.state;
    if (state.kind !== 'running') return [];
    if (group === 'tools') return state.tools.map((tool) => ({ kind: 'tool' as const, controller, tool }));
    const offerings = this.catalog.offerings(controller);
    if (!offerings || offerings.loading) {
      return withPlaceholders ? [message(controller, vscode.l10n.t('Loading…'), new vscode.ThemeIcon('loading~spin'))] : undefined;
    }
    const nodes: ServersTreeNode[] =
      group === 'resources'
        ? offerings.resources.map((resource) => ({ kind: 'resource' as const, controller, resource }))
        : group === 'templates'
          ? offerings.templates.map((template) => ({ kind: 'template' as const, controller, template }))
          : offerings.prompts.map((prompt) => ({ kind: 'prompt' as const, controller, prompt }));
    if (withPlaceholders && offerings.error) nodes.unshift(message(controller, offerings.error, new vscode.ThemeIcon('warning')));
    return nodes;
  }

  private resourceContext(controller: ServerController, uri: string): string {
    if (!ResourceSubscriptions.supported(controller)) return 'resource';
    return this.resourceSubscriptions.isSubscribed(controller, uri) ? 'resource.subscribed' : 'resource.subscribable';
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
  }
}

function message(controller: ServerController, text: string, icon: vscode.ThemeIcon): ServersTreeNode {
  return { kind: 'message', controller, text, icon };
}

function serverItem(controller: ServerController, all: readonly ServerController[], catalog: ServerCatalog): vscode.TreeItem {
  const state = controller.state;
  const item = new vscode.TreeItem(
    controller.name,
    state.kind === 'running' ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
  );
  item.id = nodeId(controller);
  item.iconPath = stateIcon(state);
  item.contextValue = `server.${state.kind}`;
  const sharedName = all.some((other) => other !== controller && other.name === controller.name);
  const parts = [ServerState.label(state), transportLabel(controller.entry.definition)];
  if (state.kind === 'running') parts.push(...offeringCounts(controller, state.tools.length, catalog));
  if (sharedName) parts.push(controller.entry.origin.folder.name);
  item.description = parts.join(' · ');
  item.tooltip = serverTooltip(controller);
  return item;
}

/** "3 tools · 7 resources · 2 prompts", only for what the server declares. */
function offeringCounts(controller: ServerController, toolCount: number, catalog: ServerCatalog): string[] {
  const capabilities = controller.client?.state.kind === 'ready' ? controller.client.session.capabilities : {};
  const offerings = catalog.offerings(controller);
  const counts: string[] = [];
  if (capabilities.tools) counts.push(vscode.l10n.t('{0} tools', toolCount));
  if (offerings && !offerings.loading) {
    if (capabilities.resources) counts.push(vscode.l10n.t('{0} resources', offerings.resources.length));
    if (capabilities.prompts) counts.push(vscode.l10n.t('{0} prompts', offerings.prompts.length));
  }
  return counts;
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
  md.appendMarkdown(`**${escape(entry.name)}** — ${escape(ServerState.label(state))}\n\n`);
  // The origin label says which source (workspace folder's mcp.json or user settings); the path says which file.
  const file = entry.origin.configUri.scheme === 'file' ? ` — \`${entry.origin.configUri.fsPath}\`` : '';
  md.appendMarkdown(`${escape(vscode.l10n.t('Defined in'))}: ${escape(entry.origin.label)}${file}\n\n`);
  md.appendMarkdown(`${escape(entry.definition.kind === 'stdio' ? vscode.l10n.t('Command') : vscode.l10n.t('URL'))}:`);
  md.appendCodeblock(describeTarget(entry.definition), 'text');
  if (state.kind === 'running') {
    const { serverInfo } = state.session;
    md.appendMarkdown(
      `\n${escape(vscode.l10n.t('Server'))}: ${escape(`${serverInfo.title ?? serverInfo.name} ${serverInfo.version}`)} · ` +
        `${escape(vscode.l10n.t('protocol {0}', eraLabel(state.session)))}` +
        (state.pid === undefined ? '' : ` · pid ${state.pid}`) +
        '\n',
    );
    if (state.session.instructions) {
      md.appendMarkdown(`\n**${escape(vscode.l10n.t('Instructions'))}**:`);
      md.appendCodeblock(state.session.instructions, 'text');
    }
  }
  if (state.kind === 'error') {
    md.appendMarkdown(`\n**${escape(vscode.l10n.t('Last error'))}**:`);
    const tail = state.stderrTail.filter((line) => !state.message.includes(line));
    md.appendCodeblock([state.message, ...(tail.length ? ['', '--- stderr ---', ...tail] : [])].join('\n'), 'text');
  }
  return md;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
