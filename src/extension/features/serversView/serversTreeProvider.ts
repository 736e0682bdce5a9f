import * as vscode from 'vscode';
import type { AgentToolPolicies } from '../../platform/gateway/agentToolPolicies';
import type { Tool } from '../../../protocol/types';
import { nodeId } from '../../platform/servers/treeIds';
import {
  groupItem,
  promptItem,
  resourceItem,
  templateItem,
  toolItem,
  toolTooltip,
  type OfferingGroup,
} from './offeringItems';
import { personVisibleTools } from '../../platform/apps/appsSetting';
import { rowPrompts, rowResources, rowTemplates, rowTools } from './rowLists';
import { ResourceSubscriptions } from '../../platform/servers/resourceSubscriptions';
import type { ServerCatalog } from '../../platform/servers/serverCatalog';
import type { ServerController } from '../../platform/servers/serverController';
import type { ConfigEntryProblem } from '../../platform/config/configLoader';
import { badEntryItem, configErrorItem } from './configRows';
import type { ServerManager } from '../../platform/servers/serverManager';
import { assertNever } from '../../platform/servers/serverState';
import type { ServerSection, ServerSectionNode, ToolLintService } from '../../platform/services';
import { sayStoredError } from '../../platform/ui/coreErrors';
import type { ExpandToStart } from './expandToStart';
import { firstLine, serverItem } from './serverItem';
import {
  TOOL_PAGE_SIZE,
  type ConfigSyntaxErrorSource,
  type ServerNodes,
  type ServersTreeNode,
  type StartHintSource,
} from './serversTreeNodes';

export { TOOL_PAGE_SIZE, type ServersTreeNode };

export const SERVERS_VIEW_ID = 'mcpWorkbench.servers';

/**
 * The Servers view: one node per configured server; while it runs, one group per capability it declares (tools,
 * resources, resource templates, prompts) with every listed item underneath.
 *
 * Built to stay fast with tens of thousands of tools: nodes and tree items are cached, so VS Code can be told
 * which node changed (onDidChangeTreeData with that node) and only that part is fetched again; group counts come
 * from the lists' lengths without building child nodes.
 */
export class ServersTreeProvider implements vscode.TreeDataProvider<ServersTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ServersTreeNode | ServersTreeNode[] | undefined>();
  private readonly subscriptions: vscode.Disposable[];
  private readonly nodes = new Map<ServerController, ServerNodes>();
  /** Items of offering rows, which depend only on the node (resource rows also on their subscription, see below). */
  private readonly items = new WeakMap<ServersTreeNode, vscode.TreeItem>();

  /** Fires undefined when the server list or a server's phase changed, else the nodes whose rows changed. */
  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly catalog: ServerCatalog,
    private readonly resourceSubscriptions: ResourceSubscriptions,
    private readonly configErrors?: ConfigSyntaxErrorSource,
    private readonly skills?: ServerSection,
    private readonly startHint?: StartHintSource,
    private readonly expandToStart?: Pick<ExpandToStart, 'childrenAsked'>,
    private readonly lint?: ToolLintService,
    /** The agents connected through the server's gateway (features/gateway). */
    private readonly agents?: ServerSection,
    /** The tool rules agents are held to: each tool row shows its own. */
    private readonly agentRules?: AgentToolPolicies,
    /** Event types and subscriptions (features/events). */
    private readonly events?: ServerSection,
  ) {
    this.subscriptions = [
      manager.onDidChangeServers(() => this.refresh()),
      manager.onDidChangeServerState((controller) => this.serverChanged(controller)),
      catalog.onDidChange((controller) => this.catalogChanged(controller)),
      resourceSubscriptions.onDidChange(({ controller, uri }) => this.subscriptionChanged(controller, uri)),
      ...(configErrors
        ? [
            configErrors.onDidChangeSyntaxErrors(() => this.refresh()),
            configErrors.onDidChangeEntryProblems(() => this.refresh()),
          ]
        : []),
      ...[skills, agents, events].flatMap((section) =>
        section ? [section.onDidChange((node) => this.changeEmitter.fire(node))] : [],
      ),
      ...(startHint ? [startHint.onDidChange(() => this.changeEmitter.fire(undefined))] : []),
      ...(lint ? [lint.onDidChange((controller) => this.lintChanged(controller))] : []),
      ...(agentRules
        ? [
            agentRules.onDidChange((identity) => {
              for (const controller of manager.servers)
                if (controller.identityKey === identity) this.lintChanged(controller);
            }),
          ]
        : []),
    ];
  }

  /**
   * The server list may have changed (a configuration was applied, trust was granted). The whole view is rebuilt only
   * when its rows changed: a root refresh makes VS Code's extension host forget every row until the view asks for the
   * rows again, and a row expanded in that moment (a person's click starting a server) is lost, the row left expanded,
   * empty and stopped (CI: cancel.e2e.ts). A configuration applied again with the same servers (at start-up, a
   * settings change) refreshes their rows in place instead: their tooltips show the definition.
   */
  refresh(): void {
    for (const controller of [...this.nodes.keys()])
      if (!this.manager.servers.includes(controller)) this.nodes.delete(controller);
    if (this.shownRoot === undefined || this.rootSignature(this.rootNodes()) !== this.shownRoot) {
      this.changeEmitter.fire(undefined);
      return;
    }
    const servers = [...this.nodes.values()].map((nodes) => nodes.server);
    if (servers.length > 0) this.changeEmitter.fire(servers);
  }

  /** What the view was last given as its rows (see refresh). */
  private shownRoot: string | undefined;

  private rootNodes(): ServersTreeNode[] {
    const errors = (this.configErrors?.syntaxErrors ?? []).map((error) => ({ kind: 'configError' as const, error }));
    // A bad entry stands where its server would, among the servers by name.
    const shownBefore = this.badEntries;
    this.badEntries = new Map();
    const named: { name: string; node: ServersTreeNode }[] = [
      ...this.manager.servers.map((controller) => ({ name: controller.name, node: this.nodesOf(controller).server })),
      ...(this.configErrors?.entryProblems ?? []).map((problem) => ({
        name: problem.server,
        node: this.badEntryNode(problem, shownBefore),
      })),
    ];
    const servers = named.sort((a, b) => a.name.localeCompare(b.name)).map(({ node }) => node);
    const hint = this.startHint?.text;
    return [...errors, ...(hint ? [{ kind: 'hint' as const, text: hint }] : []), ...servers];
  }

  /** Bad-entry nodes by what they show, so a refresh with the same problem hands VS Code the same node. */
  private badEntries = new Map<string, ServersTreeNode & { kind: 'badEntry' }>();

  private badEntryNode(
    problem: ConfigEntryProblem,
    shownBefore: ReadonlyMap<string, ServersTreeNode & { kind: 'badEntry' }>,
  ): ServersTreeNode & { kind: 'badEntry' } {
    const key = JSON.stringify({ ...problem, configUri: problem.configUri.toString() });
    const node = shownBefore.get(key) ?? { kind: 'badEntry', problem };
    this.badEntries.set(key, node);
    return node;
  }

  private rootSignature(rows: readonly ServersTreeNode[]): string {
    return JSON.stringify(
      rows.map((row) => {
        switch (row.kind) {
          case 'server':
            return `server:${nodeId(row.controller)}`;
          case 'hint':
            return `hint:${row.text}`;
          case 'configError':
            return `error:${JSON.stringify(row.error)}`;
          case 'badEntry':
            return `badEntry:${JSON.stringify(row.problem)}`;
          default:
            return `${row.kind}`;
        }
      }),
    );
  }

  getChildren(node?: ServersTreeNode): ServersTreeNode[] {
    if (!node) {
      const rows = this.rootNodes();
      this.shownRoot = this.rootSignature(rows);
      return rows;
    }
    if (node.kind === 'group') return this.groupChildren(node.controller, node.group);
    if (node.kind === 'section') return this.sectionOf(node)?.children(node) ?? [];
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
        const sections = [this.skills, this.events, this.agents]
          .map((section) => section?.groupNode(controller))
          .filter((section): section is ServerSectionNode => section !== undefined);
        if (sections.length > 0) return [...groups.map((group) => this.groupNode(controller, group)), ...sections];
        if (groups.length === 0)
          return [
            message(
              controller,
              vscode.l10n.t('This server offers no tools, resources or prompts'),
              new vscode.ThemeIcon('info'),
            ),
          ];
        return groups.map((group) => this.groupNode(controller, group));
      }
      case 'starting':
        return [message(controller, vscode.l10n.t('Starting…'), new vscode.ThemeIcon('loading~spin'))];
      case 'error':
        return [
          message(
            controller,
            firstLine(sayStoredError(state, controller)),
            new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
          ),
        ];
      case 'stopped':
        // Expanding starts the server (ExpandToStart: the onDidExpandElement handler, and this when that event was
        // lost); its tools arrive with the refresh.
        this.expandToStart?.childrenAsked(controller);
        return state.note ? [message(controller, state.note, new vscode.ThemeIcon('shield'))] : [];
      case 'signInRequired':
        return [
          message(
            controller,
            vscode.l10n.t('Sign in required: use Sign In to open the authorization page in your browser'),
            new vscode.ThemeIcon('account'),
          ),
        ];
      default:
        return assertNever(state, 'server state');
    }
  }

  getTreeItem(node: ServersTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server':
        return serverItem(node.controller, this.manager.servers);
      case 'group': {
        const item = groupItem(node.controller, node.group, this.groupCount(node.controller, node.group));
        if (node.group === 'tools') item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
        return item;
      }
      case 'tool':
        return this.cachedItem(node, () =>
          toolItem(
            node.controller,
            node.tool,
            this.lint,
            this.agentRules?.rule(node.controller.identityKey, node.tool.name),
          ),
        );
      case 'resource':
        return this.cachedItem(node, () =>
          resourceItem(node.controller, node.resource, this.resourceContext(node.controller, node.resource.uri)),
        );
      case 'template':
        return this.cachedItem(node, () => templateItem(node.controller, node.template));
      case 'prompt':
        return this.cachedItem(node, () => promptItem(node.controller, node.prompt));
      case 'more': {
        const item = new vscode.TreeItem(
          vscode.l10n.t('Show {0} more…', Math.min(TOOL_PAGE_SIZE, node.total - node.shown)),
          vscode.TreeItemCollapsibleState.None,
        );
        item.id = `${nodeId(node.controller)}/tools/more/${node.shown}`;
        item.description = vscode.l10n.t('{0} of {1} shown; Call Tool… searches them all', node.shown, node.total);
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.contextValue = 'more';
        item.command = { command: 'mcpWorkbench.showMoreTools', title: vscode.l10n.t('Show More'), arguments: [node] };
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = `${nodeId(node.controller)}/message`;
        item.iconPath = node.icon;
        item.contextValue = 'message';
        return item;
      }
      case 'configError':
        return configErrorItem(node.error);
      case 'badEntry':
        return badEntryItem(node.problem);
      case 'hint': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = 'startHint';
        item.iconPath = new vscode.ThemeIcon('lightbulb');
        item.tooltip = node.text;
        item.contextValue = 'hint';
        return item;
      }
      case 'section':
        return this.sectionOf(node)?.item(node) ?? new vscode.TreeItem('');
      default:
        return assertNever(node, 'tree node');
    }
  }

  /** The feature whose row this is (each names its rows' `section`). */
  private sectionOf(node: ServerSectionNode): ServerSection | undefined {
    return node.section === 'agents' ? this.agents : node.section === 'events' ? this.events : this.skills;
  }

  /** Tooltips of tool rows are built when VS Code asks (on hover), not for every row up front. */
  resolveTreeItem(item: vscode.TreeItem, node: ServersTreeNode): vscode.TreeItem {
    if (node.kind === 'tool' && item.tooltip === undefined)
      item.tooltip = toolTooltip(node.tool, this.lint?.forTool(node.controller, node.tool.name));
    return item;
  }

  private cachedItem(node: ServersTreeNode, build: () => vscode.TreeItem): vscode.TreeItem {
    let item = this.items.get(node);
    if (!item) {
      item = build();
      this.items.set(node, item);
    }
    return item;
  }

  private nodesOf(controller: ServerController): ServerNodes {
    let nodes = this.nodes.get(controller);
    if (!nodes || nodes.epoch !== controller.epoch) {
      nodes = {
        epoch: controller.epoch,
        server: { kind: 'server', controller },
        groups: new Map(),
        children: new Map(),
        toolLimit: TOOL_PAGE_SIZE,
      };
      this.nodes.set(controller, nodes);
    }
    return nodes;
  }

  private groupNode(controller: ServerController, group: OfferingGroup): ServersTreeNode & { kind: 'group' } {
    const { groups } = this.nodesOf(controller);
    let node = groups.get(group);
    if (!node) {
      node = { kind: 'group', controller, group };
      groups.set(group, node);
    }
    return node;
  }

  /** A state change: a new phase changes the server's item ids, so the root is refreshed; else only its row. */
  private serverChanged(controller: ServerController): void {
    const nodes = this.nodes.get(controller);
    if (!nodes) return; // never shown (or dropped): nothing in the view to update
    if (nodes.epoch !== controller.epoch) {
      this.nodes.delete(controller);
      this.changeEmitter.fire(undefined);
      return;
    }
    // Same phase (e.g. the tool list changed): the server row (its tool count) and with it the groups below.
    this.changeEmitter.fire(nodes.server);
  }

  /** Resources, templates or prompts were listed again: only those groups (their counts and children) change. */
  private catalogChanged(controller: ServerController): void {
    const nodes = this.nodes.get(controller);
    if (!nodes || nodes.epoch !== controller.epoch) return; // the state change refreshes the whole server
    const changed = (['resources', 'templates', 'prompts'] as const).flatMap((group) => {
      const node = nodes.groups.get(group);
      return node ? [node] : [];
    });
    if (changed.length > 0) this.changeEmitter.fire(changed);
  }

  /** The lint ran again on a server: its tool rows shown so far get their badge and tooltip again. */
  /** A tool row's lint or agent rule changed: the server's tool rows are drawn again. */
  private lintChanged(controller: ServerController): void {
    const nodes = this.nodes.get(controller); // a new phase (another epoch) rebuilds the server's rows anyway
    const rows = nodes?.epoch === controller.epoch ? (nodes.tools?.nodes ?? []).filter((n) => n.kind === 'tool') : [];
    for (const row of rows) this.items.delete(row);
    if (rows.length > 0) this.changeEmitter.fire(rows);
  }

  /** A resource was (un)subscribed: only its row changes (context value and mark). */
  private subscriptionChanged(controller: ServerController, uri: string): void {
    const nodes = this.nodes.get(controller);
    const row = nodes?.children
      .get('resources')
      ?.nodes.find((node) => node.kind === 'resource' && node.resource.uri === uri);
    if (!row) return;
    this.items.delete(row);
    this.changeEmitter.fire(row);
  }

  /** How many rows a group has, without building them; undefined while the server's lists are still loading. */
  private groupCount(controller: ServerController, group: OfferingGroup): number | undefined {
    const state = controller.state;
    if (state.kind !== 'running') return 0;
    if (group === 'tools') return rowTools(personVisibleTools(state.tools)).length;
    const offerings = this.catalog.offerings(controller);
    if (!offerings || offerings.loading) return undefined;
    return group === 'resources'
      ? rowResources(offerings.resources).length
      : group === 'templates'
        ? rowTemplates(offerings.templates).length
        : rowPrompts(offerings.prompts).length;
  }

  /** The rows of a group, reused while the list they come from is unchanged. */
  private groupChildren(controller: ServerController, group: OfferingGroup): ServersTreeNode[] {
    const state = controller.state;
    if (state.kind !== 'running') return [];
    if (group === 'tools') return this.toolRows(controller, rowTools(personVisibleTools(state.tools)));
    const offerings = this.catalog.offerings(controller);
    if (!offerings || offerings.loading)
      return [message(controller, vscode.l10n.t('Loading…'), new vscode.ThemeIcon('loading~spin'))];
    const nodes =
      group === 'resources'
        ? this.cachedChildren(controller, group, rowResources(offerings.resources), (resource) => ({
            kind: 'resource',
            controller,
            resource,
          }))
        : group === 'templates'
          ? this.cachedChildren(controller, group, rowTemplates(offerings.templates), (template) => ({
              kind: 'template',
              controller,
              template,
            }))
          : this.cachedChildren(controller, group, rowPrompts(offerings.prompts), (prompt) => ({
              kind: 'prompt',
              controller,
              prompt,
            }));
    return offerings.error ? [message(controller, offerings.error, new vscode.ThemeIcon('warning')), ...nodes] : nodes;
  }

  /** The next page of tool rows (the "more" row's command); only the tools group is fetched again. */
  showMore(node: unknown): void {
    if (typeof node !== 'object' || node === null || (node as Partial<ServersTreeNode>).kind !== 'more') return;
    const { controller } = node as ServersTreeNode & { kind: 'more' };
    const nodes = this.nodes.get(controller);
    const group = nodes?.groups.get('tools');
    if (!nodes || !group || nodes.epoch !== controller.epoch) return;
    nodes.toolLimit += TOOL_PAGE_SIZE;
    this.changeEmitter.fire(group);
  }

  private toolRows(controller: ServerController, tools: readonly Tool[]): ServersTreeNode[] {
    const nodes = this.nodesOf(controller);
    const limit = Math.min(nodes.toolLimit, tools.length);
    let cached = nodes.tools;
    if (!cached || cached.source !== tools) cached = { source: tools, limit: 0, nodes: [] };
    if (cached.limit !== limit || limit < tools.length !== (cached.more !== undefined)) {
      // Rows already shown keep their node objects, so VS Code keeps their state; only the new page is built.
      const kept = cached.nodes.slice(0, Math.min(cached.limit, limit));
      for (let index = kept.length; index < limit; index++) kept.push({ kind: 'tool', controller, tool: tools[index] });
      cached = {
        source: tools,
        limit,
        nodes: kept,
        more: limit < tools.length ? { kind: 'more', controller, shown: limit, total: tools.length } : undefined,
      };
    }
    nodes.tools = cached;
    return cached.more ? [...cached.nodes, cached.more] : cached.nodes;
  }

  private cachedChildren<T>(
    controller: ServerController,
    group: OfferingGroup,
    source: readonly T[],
    build: (item: T) => ServersTreeNode,
  ): ServersTreeNode[] {
    const { children } = this.nodesOf(controller);
    const cached = children.get(group);
    if (cached && cached.source === source) return cached.nodes;
    const nodes = source.map(build);
    children.set(group, { source, nodes });
    return nodes;
  }

  private resourceContext(controller: ServerController, uri: string): string {
    if (!ResourceSubscriptions.supported(controller)) return 'resource';
    return this.resourceSubscriptions.isSubscribed(controller, uri) ? 'resource.subscribed' : 'resource.subscribable';
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
    this.nodes.clear();
  }
}

function message(controller: ServerController, text: string, icon: vscode.ThemeIcon): ServersTreeNode {
  return { kind: 'message', controller, text, icon };
}
