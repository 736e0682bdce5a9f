import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { startWithFeedback } from '../../platform/servers/startServer';
import { afterFirstLoad } from './afterFirstLoad';
import { ExpandToStart } from './expandToStart';
import { copyName, copyUri, refreshServer, showServerInstructions } from './itemCommands';
import { ServerCodeLenses } from './serverCodeLens';
import { SERVERS_VIEW_ID, ServersTreeProvider, type ServersTreeNode } from './serversTreeProvider';
import { ServersViewHint } from './startHint';

/**
 * The Servers view: each configured server, what it offers, and the rows other features add (the Skills and Events sections,
 * asked for when the view is made: features that add rows activate before this one), the lint's badge on each tool
 * row (the toolLint service, likewise); our lens on each mcp.json entry.
 */
export const serversViewFeature = defineFeature({
  name: 'serversView',
  activate({ platform, services, own }) {
    const { manager, loader } = platform;
    // First run: how to start a server, as the view's first row until one starts.
    const startHint = new ServersViewHint(manager);
    const expandToStart = new ExpandToStart((controller) => void startWithFeedback(controller));
    const tree = new ServersTreeProvider(
      manager,
      platform.catalog,
      platform.subscriptions,
      loader,
      services.get('skillsSection'),
      startHint,
      expandToStart,
      services.get('toolLint'),
      services.get('agentsSection'),
      platform.agentToolPolicies,
      services.get('eventsSection'),
    );
    const treeView = vscode.window.createTreeView<ServersTreeNode>(SERVERS_VIEW_ID, {
      treeDataProvider: afterFirstLoad(tree, loader.firstLoad),
      showCollapseAll: true,
    });
    own(
      tree,
      treeView,
      startHint,
      ServerCodeLenses.register(manager),
      // Expanding a stopped (or failed) server starts it: the person asked to see its tools.
      treeView.onDidExpandElement(({ element }) => {
        if (element.kind === 'server') expandToStart.expanded(element.controller);
      }),
    );
    return {
      commands: {
        'mcpWorkbench.copyName': (node) => copyName(node),
        'mcpWorkbench.copyUri': (node) => copyUri(node),
        'mcpWorkbench.refreshServer': (node) => refreshServer(platform.catalog, node),
        'mcpWorkbench.showServerInstructions': (argument) =>
          showServerInstructions(manager, platform.documents, argument),
        'mcpWorkbench.showMoreTools': (node) => tree.showMore(node),
      },
      exports: { tree, treeView },
    };
  },
});
