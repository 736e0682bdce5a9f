import * as vscode from 'vscode';
import { createBrowseFeature, type BrowseTestApi } from './browse/browseFeature';
import { registerCallTool } from './tools/callTool';
import type { CommandContext } from './commands/commandContext';
import { registerRefresh } from './commands/refresh';
import { registerRestartServer } from './servers/restartServer';
import { registerShowLog } from './servers/showLog';
import { registerStartServer, reportStartFailure, startWithFeedback } from './servers/startServer';
import { registerStopServer } from './servers/stopServer';
import { ConfigLoader } from './config/configLoader';
import { ConfigFeature, reportConfigProblems, reportGaveUp, type ConfigTestApi } from './lifecycle/configFeature';
import { LogChannels } from './servers/logChannels';
import { ServerManager } from './servers/serverManager';
import { SERVERS_VIEW_ID, ServersTreeProvider, type ServersTreeNode } from './views/serversTreeProvider';
import { ToolResultDocuments } from './tools/toolResultDocuments';
import { createWorkspaceHost } from './servers/workspaceHost';
import { SamplingService, type SamplingTestApi } from './sampling/samplingService';

/**
 * What `activate` returns, for integration tests (`vscode.extensions.getExtension('mcp-workbench.mcp-workbench')
 * .exports`). Kept small and stable:
 * - `manager.snapshot()` lists every configured server with its state, tool names and pid;
 * - `manager.waitForState(nameOrId, kind, timeoutMs)` resolves when a server reaches a state;
 * - `manager.servers` gives the controllers (start/stop/restart/callTool) for deeper tests;
 * - `reload()` re-reads every mcp.json now, without waiting for the file watcher.
 */
export interface McpWorkbenchApi {
  manager: ServerManager;
  reload(): Promise<void>;
  /** Sampling/elicitation test hooks: the review panel's state and the messages its buttons post. */
  sampling: SamplingTestApi;
  /** Browsing test hooks: the catalog (resources, templates, prompts), the open tool form, the last result view. */
  browse: BrowseTestApi;
  /** Configuration/lifecycle test hooks: pre-answered input prompts and launch confirmations, the status bar. */
  config: ConfigTestApi;
  /** The Servers view's data provider: the nodes and tree items the view shows (groups, badges, tooltips). */
  tree: ServersTreeProvider;
  /** Whether the Servers view is visible (TreeView.visible; VS Code offers no public way to ask from outside). */
  serversViewVisible(): boolean;
  /**
   * Fires the roots provider's change event as a workspace-folder change does. In a single-folder window, adding a
   * folder enters an untitled workspace, which restarts the extension host, so tests cannot change folders for real.
   */
  simulateWorkspaceFoldersChanged(): void;
}

let activeManager: ServerManager | undefined;

/** The composition root: builds the services, wires them together, and does nothing else. */
export async function activate(context: vscode.ExtensionContext): Promise<McpWorkbenchApi> {
  const logs = new LogChannels();
  const configFeature = new ConfigFeature(context);
  const sampling = new SamplingService(context, () => activeManager);
  const simulatedFolderChanges = new vscode.EventEmitter<void>();
  context.subscriptions.push(sampling, simulatedFolderChanges);
  const manager = new ServerManager({
    host: createWorkspaceHost({ sampling: sampling.sampling, elicitation: sampling.elicitation, rootsChanged: simulatedFolderChanges.event }),
    logs,
    inputs: configFeature.inputs,
    confirmation: configFeature.confirmation,
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    reportStartFailure,
    reportGaveUp,
  });
  activeManager = manager;
  const loader = new ConfigLoader();
  const results = new ToolResultDocuments();
  const browse = createBrowseFeature(context.extensionUri, manager, results);
  const tree = new ServersTreeProvider(manager, browse.catalog, browse.subscriptions);
  const treeView = vscode.window.createTreeView<ServersTreeNode>(SERVERS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const commands: CommandContext = { manager, loader, results };
  const config = configFeature.register(commands);

  // deactivate() has already awaited every server's shutdown by the time these are disposed.
  context.subscriptions.push(
    logs,
    manager,
    loader,
    results,
    tree,
    treeView,
    loader.onDidChange((entries) => void manager.applyConfiguration(entries)),
    loader.onDidFindProblems(reportConfigProblems),
    config.disposable,
    // Expanding a stopped (or failed) server starts it: the user asked to see its tools.
    treeView.onDidExpandElement(({ element }) => {
      if (element.kind !== 'server') return;
      const kind = element.controller.state.kind;
      if (kind === 'stopped' || kind === 'error') void startWithFeedback(element.controller);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (autoStartEnabled()) void manager.startAll();
      else tree.refresh();
    }),
    registerStartServer(commands),
    registerStopServer(commands),
    registerRestartServer(commands),
    registerShowLog(commands),
    browse.disposable,
    registerCallTool(commands, {
      openForm: (controller, tool) => browse.forms.show(controller, tool),
      showResult: (controller, record) => browse.results.show(controller, record),
    }),
    registerRefresh(commands),
  );

  await loader.reload();
  if (autoStartEnabled()) {
    if (vscode.workspace.isTrusted) void manager.startAll();
    else if (manager.servers.length > 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('MCP servers were not started automatically because this workspace is not trusted.'),
      );
    }
  }

  return {
    manager,
    sampling: sampling.testApi,
    browse: browse.testApi,
    config: config.testApi,
    tree,
    serversViewVisible: () => treeView.visible,
    simulateWorkspaceFoldersChanged: () => simulatedFolderChanges.fire(),
    reload: async () => {
      await loader.reload();
    },
  };
}

/** Awaited by VS Code on window close or reload: every server gets its staged shutdown before the host exits. */
export async function deactivate(): Promise<void> {
  const manager = activeManager;
  activeManager = undefined;
  await manager?.shutdown();
}

function autoStartEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', false);
}
