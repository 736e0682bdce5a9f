import * as vscode from 'vscode';
import { errorMessage } from '../../../protocol/errors';
import { defineFeature } from '../../platform/feature';
import { startWithFeedback } from '../../platform/servers/startServer';
import { AgentsSection, type AgentsTreeNode } from './agentsSection';
import { CHAT_PROVIDER_ID, WorkbenchMcpProvider, mcpApiOf, type ChatServer } from './chatProvider';
import { chooseChatRoute } from './chatRouteCommand';
import { connectAnotherClient } from './connectClient';
import { setToolRule } from './toolRules';

/**
 * Registers the provider, or returns undefined where VS Code refuses it: 1.100 has an earlier form of the API, which
 * throws for a provider contributed as `mcpServerDefinitionProviders` (it wanted `modelContextServerCollections`).
 */
function register(registration: () => vscode.Disposable, log: (line: string) => void): vscode.Disposable | undefined {
  try {
    return registration();
  } catch (error) {
    log(`VS Code refused the MCP server definition provider: ${errorMessage(error)}`);
    return undefined;
  }
}

/** Context key: this VS Code has the MCP provider API (1.101+), so the chat-route command is offered. */
const API_CONTEXT_KEY = 'mcpWorkbench.chatProviderApi';

/**
 * The gateway in VS Code (issue 37): the servers for VS Code's chat (an MCP server definition provider, where the
 * API exists), Connect Another Client…, and the agents connected under each server in the Servers view.
 */
export const gatewayFeature = defineFeature({
  name: 'gateway',
  activate({ platform, services, own, extension }) {
    const { manager, gateways, chatRoute } = platform;
    const section = new AgentsSection(gateways);
    services.offer('agentsSection', section);
    own(section);

    const api = mcpApiOf(vscode);
    let provider: WorkbenchMcpProvider | undefined;
    if (api) {
      const candidate = new WorkbenchMcpProvider({
        api,
        servers: () =>
          manager.servers.map((controller): ChatServer => ({
            id: controller.id,
            name: controller.name,
            scope: controller.entry.origin.scope,
            where:
              controller.entry.origin.scope === 'workspace'
                ? controller.entry.origin.folder.name
                : controller.entry.origin.label,
          })),
        route: () => chatRoute.route,
        served: (id) => gateways.served(id),
        startAndServe: async (id) => {
          const controller = manager.get(id);
          // The tree's start: trust, then the first-start consent; a refusal leaves chat's server not started.
          if (!controller || !(await startWithFeedback(controller))) return undefined;
          return gateways.serve(controller);
        },
        uriOf: (url) => vscode.Uri.parse(url),
      });
      const registration = register(
        () => api.lm.registerMcpServerDefinitionProvider(CHAT_PROVIDER_ID, candidate),
        (line) => platform.ownLog.info(line),
      );
      if (registration) {
        provider = candidate;
        chatRoute.available = true;
        own(
          candidate,
          registration,
          manager.onDidChangeServers(() => candidate.fireChanged()),
          chatRoute.onDidChange(() => candidate.fireChanged()),
        );
      } else {
        candidate.dispose();
        platform.ownLog.info(
          "VS Code's chat does not take MCP servers from extensions here; the gateway serves other clients only",
        );
      }
    }
    void vscode.commands.executeCommand('setContext', API_CONTEXT_KEY, chatRoute.available);

    return {
      commands: {
        'mcpWorkbench.connectAnotherClient': () => connectAnotherClient(manager, gateways, extension.globalStorageUri),
        'mcpWorkbench.chooseChatRoute': () => chooseChatRoute(chatRoute),
        'mcpWorkbench.disableToolForAgents': (node) =>
          setToolRule(platform.agentToolPolicies, node, { enabled: false }),
        'mcpWorkbench.enableToolForAgents': (node) => setToolRule(platform.agentToolPolicies, node, { enabled: true }),
        'mcpWorkbench.agentToolPolicyRun': (node) => setToolRule(platform.agentToolPolicies, node, { policy: 'run' }),
        'mcpWorkbench.agentToolPolicyAsk': (node) => setToolRule(platform.agentToolPolicies, node, { policy: 'ask' }),
        'mcpWorkbench.agentToolPolicyReview': (node) =>
          setToolRule(platform.agentToolPolicies, node, { policy: 'review' }),
        'mcpWorkbench.disconnectAgent': (node) => {
          const row = node as AgentsTreeNode | undefined;
          if (row?.kind !== 'section' || row.section !== 'agents' || row.row !== 'agent') return;
          return gateways.disconnect(row.controller.id, row.agent.id);
        },
      },
      exports: { provider, section },
    };
  },
});
