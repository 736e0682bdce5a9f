import * as vscode from 'vscode';
import { RestartPolicy, type RestartPolicyOptions } from '../workbench/lifecycle/restartPolicy';
import { registerCommands } from './commands';
import { ConfigLoader } from './config/configLoader';
import { reportConfigProblems } from './config/configProblems';
import { ServerImporter } from './config/importServers';
import { InputPrompter } from './config/inputPrompter';
import { ElicitationUi } from './elicitation/elicitationUi';
import { readResourceWithFeedback } from './resources/readResource';
import { ResourceDocuments } from './resources/resourceDocuments';
import { ResourceSubscriptions } from './resources/resourceSubscriptions';
import { SamplingService } from './sampling/samplingService';
import { LaunchConfirmation } from './servers/launchConfirmation';
import { LogChannels } from './servers/logChannels';
import { ServerCatalog } from './servers/serverCatalog';
import { ServerManager } from './servers/serverManager';
import { ServerState } from './servers/serverState';
import { reportGaveUp, reportStartFailure, startWithFeedback } from './servers/startServer';
import { ServersStatusBar } from './servers/statusBar';
import { createWorkspaceHost } from './servers/workspaceHost';
import { createTestHooks, type McpWorkbenchTestHooks } from './testHooks';
import { withTestHooks } from './testHooksSwitch';
import { ToolForms } from './tools/toolFormPanel';
import { ToolResultDocuments } from './tools/toolResultDocuments';
import { ToolResultView } from './tools/toolResultView';
import { SERVERS_VIEW_ID, ServersTreeProvider, type ServersTreeNode } from './views/serversTreeProvider';
import { ReviewPanel } from './webviews/reviewPanel';

/**
 * What `activate` returns in every install (`vscode.extensions.getExtension('mcp-workbench.mcp-workbench')
 * .exports`). Kept small and stable:
 * - `manager.snapshot()` lists every configured server with its state, tool names and pid;
 * - `manager.waitForState(nameOrId, kind, timeoutMs)` resolves when a server reaches a state;
 * - `manager.servers` gives the controllers (start/stop/restart/callTool) for deeper tests;
 * - `reload()` re-reads every mcp.json now, without waiting for the file watcher.
 */
export interface McpWorkbenchPublicApi {
  manager: ServerManager;
  reload(): Promise<void>;
  /** The Servers view's data provider: the nodes and tree items the view shows (groups, badges, tooltips). */
  tree: ServersTreeProvider;
  /** Whether the Servers view is visible (TreeView.visible; VS Code offers no public way to ask from outside). */
  serversViewVisible(): boolean;
}

/** What integration tests see: the public API plus the test hooks, which exist only with MCP_WORKBENCH_TEST_HOOKS=1. */
export type McpWorkbenchApi = McpWorkbenchPublicApi & McpWorkbenchTestHooks;

let activeManager: ServerManager | undefined;

/** The composition root: builds the services, wires them together, and does nothing else. */
export async function activate(context: vscode.ExtensionContext): Promise<McpWorkbenchPublicApi | McpWorkbenchApi> {
  const logs = new LogChannels();
  const inputs = new InputPrompter(context.secrets, context.workspaceState);
  const confirmation = new LaunchConfirmation(context.workspaceState);
  const reviewPanel = new ReviewPanel(context.extensionUri);
  const sampling = new SamplingService(context.secrets, context.globalState, reviewPanel, () => activeManager);
  const elicitation = new ElicitationUi(reviewPanel, (serverName, line) => {
    const controller = activeManager?.byName(serverName)[0];
    controller?.log.info(controller.mask(line));
  });
  const simulatedFolderChanges = new vscode.EventEmitter<void>();
  context.subscriptions.push(reviewPanel, sampling, elicitation, simulatedFolderChanges);
  // Read each time a server is added, so the test hook's setting applies to servers configured after it.
  let restartPolicyOptions: RestartPolicyOptions | undefined;
  // Only the test hooks set it: a window's trust cannot change without a restart of the extension host.
  let trustOverride: boolean | undefined;
  const manager = new ServerManager({
    host: createWorkspaceHost({ sampling: sampling.sampling, elicitation, rootsChanged: simulatedFolderChanges.event }),
    logs,
    inputs,
    confirmation,
    isWorkspaceTrusted: () => trustOverride ?? vscode.workspace.isTrusted,
    reportStartFailure,
    reportGaveUp,
    restartPolicy: () => new RestartPolicy(restartPolicyOptions),
  });
  activeManager = manager;
  const loader = new ConfigLoader();
  const documents = new ToolResultDocuments();
  const catalog = new ServerCatalog(manager);
  const subscriptions = new ResourceSubscriptions(catalog);
  const resourceDocuments = new ResourceDocuments(manager, catalog);
  const results = new ToolResultView(context.extensionUri, documents, async (controller, uri) => {
    await readResourceWithFeedback(resourceDocuments, controller, uri);
  });
  const forms = new ToolForms(context.extensionUri, (controller, record) => results.show(controller, record));
  const importer = new ServerImporter();
  const statusBar = new ServersStatusBar(manager);
  const tree = new ServersTreeProvider(manager, catalog, subscriptions);
  const treeView = vscode.window.createTreeView<ServersTreeNode>(SERVERS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });

  // deactivate() has already awaited every server's shutdown by the time these are disposed.
  context.subscriptions.push(
    logs,
    manager,
    loader,
    documents,
    forms,
    results,
    resourceDocuments,
    subscriptions,
    catalog,
    importer,
    statusBar,
    tree,
    treeView,
    loader.onDidChange((entries) => void manager.applyConfiguration(entries)),
    loader.onDidFindProblems(reportConfigProblems),
    // Expanding a stopped (or failed) server starts it: the user asked to see its tools.
    treeView.onDidExpandElement(({ element }) => {
      if (element.kind !== 'server') return;
      if (ServerState.canStart(element.controller.state)) void startWithFeedback(element.controller);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (autoStartEnabled()) void manager.startAll();
      else tree.refresh();
    }),
    registerCommands({
      manager,
      loader,
      inputs,
      importer,
      catalog,
      resources: { manager, catalog, documents: resourceDocuments, subscriptions },
      documents,
      tools: {
        openForm: (controller, tool) => forms.show(controller, tool),
        showResult: (controller, record) => results.show(controller, record),
      },
      sampling,
    }),
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

  const api: McpWorkbenchPublicApi = {
    manager,
    tree,
    serversViewVisible: () => treeView.visible,
    reload: async () => {
      await loader.reload();
    },
  };
  return withTestHooks(api, process.env, () =>
    createTestHooks({
      context,
      inputs,
      confirmation,
      setRestartPolicy: (options) => (restartPolicyOptions = options),
      setWorkspaceTrusted: (trusted) => (trustOverride = trusted),
      statusBar,
      browse: { catalog, forms, results, subscriptions },
      sampling,
      panel: reviewPanel,
      elicitation,
      simulateWorkspaceFoldersChanged: () => simulatedFolderChanges.fire(),
    }),
  );
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
