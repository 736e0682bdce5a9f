import * as vscode from 'vscode';
import type { ConnectedAgent } from '../../../workbench/gateway/agents';
import { describeAgent, type GatewayService } from '../../platform/gateway/gatewayService';
import type { ServerController } from '../../platform/servers/serverController';
import { assertNever } from '../../platform/servers/serverState';
import { nodeId } from '../../platform/servers/treeIds';
import type { ServerSection } from '../../platform/services';

/** The Agents rows of the Servers view: under a served server, the agents connected through its gateway. */
export type AgentsTreeNode = { kind: 'section'; section: 'agents'; controller: ServerController } & (
  { row: 'agentsGroup' } | { row: 'agent'; agent: ConnectedAgent }
);

/** The rows' context value: the Disconnect action's `when`. */
export const AGENT_ROW_CONTEXT = 'gatewayAgent';

/**
 * Which agents reach a server through its gateway, with Disconnect on each: shown under a running server while its
 * gateway has at least one agent. The names are the agents' own (their clientInfo), drawn escaped.
 */
export class AgentsSection implements ServerSection<AgentsTreeNode>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<AgentsTreeNode | undefined>();
  private readonly groups = new Map<string, AgentsTreeNode>();
  private readonly subscription: vscode.Disposable;
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly gateways: GatewayService) {
    // A row comes or goes under the server: the server's rows are redrawn (undefined: VS Code asks again).
    this.subscription = gateways.onDidChange(() => this.changeEmitter.fire(undefined));
  }

  groupNode(controller: ServerController): AgentsTreeNode | undefined {
    if (this.gateways.agents(controller.id).length === 0) return undefined;
    let group = this.groups.get(controller.id);
    if (!group || group.controller !== controller) {
      group = { kind: 'section', section: 'agents', row: 'agentsGroup', controller };
      this.groups.set(controller.id, group);
    }
    return group;
  }

  children(node: AgentsTreeNode): AgentsTreeNode[] {
    if (node.row !== 'agentsGroup') return [];
    return this.gateways
      .agents(node.controller.id)
      .map((agent) => ({ kind: 'section', section: 'agents', row: 'agent', controller: node.controller, agent }));
  }

  item(node: AgentsTreeNode): vscode.TreeItem {
    switch (node.row) {
      case 'agentsGroup': {
        const count = this.gateways.agents(node.controller.id).length;
        const item = new vscode.TreeItem(vscode.l10n.t('Agents'), vscode.TreeItemCollapsibleState.Expanded);
        item.id = `${nodeId(node.controller)}/agents`;
        item.description = String(count);
        item.tooltip = vscode.l10n.t('Agents connected to this server through the MCP Workbench gateway');
        item.iconPath = new vscode.ThemeIcon('plug');
        item.contextValue = 'gatewayAgents';
        return item;
      }
      case 'agent': {
        const label = describeAgent(node.agent);
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
        item.id = `${nodeId(node.controller)}/agents/${node.agent.id}`;
        item.tooltip = vscode.l10n.t('{0}: connected through the gateway; Disconnect ends its session', label);
        item.iconPath = new vscode.ThemeIcon('account');
        item.contextValue = AGENT_ROW_CONTEXT;
        return item;
      }
      default:
        return assertNever(node, 'agents row');
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changeEmitter.dispose();
  }
}
