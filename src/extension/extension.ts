import * as path from 'node:path';
import { MementoEraMemory } from './servers/eraMemory';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { HistoryLog } from '../workbench/history/historyLog';
import { HistoryFile } from '../workbench/node/historyFile';
import { RestartPolicy, type RestartPolicyOptions } from '../workbench/lifecycle/restartPolicy';
import type { CallToolOutcome } from '../protocol/client';
import { registerCommands } from './commands';
import { TASKS_VIEW_ID, TasksTreeProvider, type TaskNode } from './tasks/tasksView';
import { ConfigLoader } from './config/configLoader';
import { reportConfigProblems } from './config/configProblems';
import { ServerImporter } from './config/importServers';
import { InputPrompter } from './config/inputPrompter';
import { ElicitationUi } from './elicitation/elicitationUi';
import { taskToolLookup } from './shared/taskToolLookup';
import { cliProgram, type HistoryContext } from './history/historyCommands';
import { RecordingTests } from './testing/recordingTests';
import { HistoryRecorder } from './history/historyRecorder';
import { HISTORY_VIEW_ID, HistoryTreeProvider, type HistoryNode } from './history/historyTreeProvider';
import { readResourceWithFeedback } from './resources/readResource';
import { ResourceDocuments } from './resources/resourceDocuments';
import { ResourceSubscriptions } from './resources/resourceSubscriptions';
import { SamplingService } from './sampling/samplingService';
import { BuiltInMcpNotice } from './servers/builtInMcpNotice';
import { LaunchConfirmation } from './servers/launchConfirmation';
import { ServerCodeLenses } from './views/serverCodeLens';
import { ServersViewHint } from './views/startHint';
import { ExpandToStart } from './views/expandToStart';
import { LogChannels } from './servers/logChannels';
import { ServerCatalog } from './servers/serverCatalog';
import { ServerManager } from './servers/serverManager';
import { SecretAuthStore } from './auth/secretAuthStore';
import { AUTH_PROVIDER_ID, OAuthSessionsProvider } from './auth/sessionsProvider';
import { SignInService } from './auth/signIn';
import { signInServer, signInWithFeedback } from './servers/signInServer';
import { reportGaveUp, reportStartFailure, startWithFeedback } from './servers/startServer';
import { ServersStatusBar } from './servers/statusBar';
import { createWorkspaceHost } from './shared/workspaceHost';
import { createTestHooks, type McpWorkbenchTestApi } from './testHooks';
import { maskingChannel } from './shared/maskingChannel';
import { ToolForms } from './tools/toolFormPanel';
import { ToolResultDocuments } from './tools/toolResultDocuments';
import { ToolResultView } from './tools/toolResultView';
import { SERVERS_VIEW_ID, ServersTreeProvider, type ServersTreeNode } from './views/serversTreeProvider';
import { afterFirstLoad } from './views/afterFirstLoad';
import { SkillsSection } from './skills/skillsSection';
import { SkillDocuments } from './skills/skillDocuments';
import { ReviewPanel } from './webviews/reviewPanel';
import { ProtocolViews } from './protocolView/protocolViews';
import { DevMode } from './dev/devMode';
import { registerAppHost } from './apps/appHost';
import { ownErrorLog } from './ui/coreErrors';

/** What the test build's `activate` returns (see testHooks.ts); kept as a name the suites import. */
export type McpWorkbenchApi = McpWorkbenchTestApi;

let activeManager: ServerManager | undefined;
let activeHistoryFile: HistoryFile | undefined;

/**
 * The composition root: builds the services, wires them together, and does nothing else. It returns nothing to
 * other extensions: any installed extension can read `exports`, and every live object here (the server manager, the
 * History, the secret stores) would let it call tools past the confirmations and History or read stored secrets.
 * No consumer needs a read-only API today, so none is offered. Only the test build returns its hooks.
 */
export async function activate(context: vscode.ExtensionContext): Promise<McpWorkbenchApi | undefined> {
  const activationStarted = performance.now();
  // The extension's own log (not a server's): activation time, read by `npm run bench:ui` from its log file.
  const ownRawLog = vscode.window.createOutputChannel('MCP Workbench', { log: true });
  context.subscriptions.push(ownRawLog);
  // Lines here can be about any server (a result view's links), so every server's secrets are masked.
  const ownLog = maskingChannel(ownRawLog, () => activeManager?.servers.flatMap((server) => server.knownSecrets()) ?? []);
  // Errors about no server in particular (the registry's) are logged here (coreErrors.ts, showError).
  ownErrorLog.channel = ownLog;
  const logs = new LogChannels();
  const inputs = new InputPrompter(context.secrets, context.workspaceState);
  const confirmation = new LaunchConfirmation(context.workspaceState);
  const authStore = new SecretAuthStore(context.secrets);
  const auth = new SignInService(authStore);
  // e2e only (test build): code-server's openExternal cannot reach a browser window Playwright drives, so the
  // authorization URL is written to this file and the test opens it in a second page of the same Chromium.
  const signInUrlFile = MCP_WORKBENCH_TEST_BUILD ? process.env.MCP_WORKBENCH_E2E_SIGNIN_URL_FILE : undefined;
  if (signInUrlFile) {
    auth.openExternal = async (url) => {
      fs.writeFileSync(signInUrlFile, url);
      return true;
    };
  }
  const builtInMcpNotice = new BuiltInMcpNotice(context.workspaceState);
  const reviewPanel = new ReviewPanel(context.extensionUri);
  const sampling = new SamplingService(context.secrets, context.globalState, reviewPanel, () => activeManager);
  const elicitation = new ElicitationUi(reviewPanel, (serverName, line) => {
    const controller = activeManager?.byName(serverName)[0];
    controller?.log.info(controller.mask(line));
  }, taskToolLookup(() => activeManager));
  const simulatedFolderChanges = new vscode.EventEmitter<void>();
  // Test hooks stand in for the trust dialog: the test workspace is trusted and a test cannot revoke trust.
  const simulatedTrust = { untrusted: false, granted: new vscode.EventEmitter<void>() };
  context.subscriptions.push(reviewPanel, sampling, elicitation, simulatedFolderChanges, simulatedTrust.granted);
  // Only the test hooks set it: a window's trust cannot change without a restart of the extension host.
  let trustOverride: boolean | undefined;
  const isWorkspaceTrusted = () => (trustOverride ?? vscode.workspace.isTrusted) && !simulatedTrust.untrusted;
  // Read each time a server is added, so the test hook's setting applies to servers configured after it.
  let restartPolicyOptions: RestartPolicyOptions | undefined;
  const protocolViews = new ProtocolViews(context.extensionUri);
  context.subscriptions.push(protocolViews);
  // Created after the manager it serves; the launcher asks it only once a server starts.
  const dev: { mode?: DevMode } = {};
  const manager = new ServerManager({
    host: createWorkspaceHost({ sampling: sampling.sampling, elicitation, rootsChanged: simulatedFolderChanges.event }),
    logs,
    inputs,
    confirmation,
    auth,
    isWorkspaceTrusted,
    reportStartFailure,
    reportGaveUp,
    restartPolicy: () => new RestartPolicy(restartPolicyOptions),
    eraMemory: new MementoEraMemory(context.globalState),
    wire: protocolViews.wire,
    debug: async (entry, resolved, log) => dev.mode?.debug(entry, resolved, log),
  });
  dev.mode = new DevMode(manager, isWorkspaceTrusted, (controller) => protocolViews.taps.tapFor(controller.id, () => controller.knownSecrets()).hold());
  context.subscriptions.push(dev.mode);
  activeManager = manager;
  const loader = new ConfigLoader();
  const documents = new ToolResultDocuments();
  const catalog = new ServerCatalog(manager);
  const subscriptions = new ResourceSubscriptions(catalog);
  // History masks at the sink: every entry against its server's secrets, whoever records it.
  const history = new HistoryLog({}, (serverId) => manager.get(serverId)?.knownSecrets() ?? []);
  const historyRecorder = new HistoryRecorder(history, manager);
  // History survives a window reload (adding a second folder reloads it): kept in this workspace's storage, as masked
  // as the view shows it. Read after activation, so a long History costs the first screen nothing.
  const historyFolder = context.storageUri ?? context.globalStorageUri;
  if (keepHistoryAcrossReloads() && historyFolder.scheme === 'file') {
    const historyFile = new HistoryFile(history, path.join(historyFolder.fsPath, 'history.json'), (line) => ownLog.warn(line));
    activeHistoryFile = historyFile;
    void historyFile.load();
  }
  const resourceDocuments = new ResourceDocuments(manager, catalog, historyRecorder);
  const results = new ToolResultView(
    context.extensionUri,
    documents,
    async (controller, uri) => {
      await readResourceWithFeedback(resourceDocuments, controller, uri);
    },
    (line) => ownLog.info(line),
  );
  const forms = new ToolForms(context.extensionUri, results, historyRecorder);
  const importer = new ServerImporter();
  const statusBar = new ServersStatusBar(manager);
  const skillsSection = new SkillsSection(context.workspaceState);
  const skillDocuments = new SkillDocuments();
  context.subscriptions.push(skillsSection, skillDocuments);
  // First run: how to start a server, as the view's first row until one starts.
  const startHint = new ServersViewHint(manager);
  const expandToStart = new ExpandToStart((controller) => void startWithFeedback(controller));
  const tree = new ServersTreeProvider(manager, catalog, subscriptions, loader, skillsSection, startHint, expandToStart);
  const treeView = vscode.window.createTreeView<ServersTreeNode>(SERVERS_VIEW_ID, { treeDataProvider: afterFirstLoad(tree, loader.firstLoad), showCollapseAll: true });
  const historyTree = new HistoryTreeProvider(history);
  const historyView = vscode.window.createTreeView<HistoryNode>(HISTORY_VIEW_ID, { treeDataProvider: historyTree, showCollapseAll: true });
  // Recorded sessions (*.mcptest.json) in Test Explorer (issue 20).
  const recordings = new RecordingTests(manager);
  context.subscriptions.push(recordings);
  const historyContext: HistoryContext = {
    history,
    manager,
    showToolResult: (controller, entry, outcome) =>
      results.show(controller, {
        serverName: entry.server.name,
        toolName: entry.operation.toolName,
        args: entry.operation.arguments as Record<string, never>,
        outcome: outcome as CallToolOutcome,
        durationMs: entry.durationMs ?? 0,
      }),
    openToolForm: (controller, tool, values) => forms.show(controller, tool, values),
    documents,
    cliProgram: cliProgram(context.extensionUri),
  };

  const oauthSessions = new OAuthSessionsProvider(
    authStore,
    // "Sign in" from the Accounts menu (or another extension's getSession with createIfNone): the one server asking
    // for sign-in, else a pick; the same consent modal and browser flow as Sign In on a row.
    async () => {
      const needing = manager.servers.filter((server) => server.state.kind === 'signInRequired');
      const controller = needing.length === 1 ? ((await signInWithFeedback(needing[0])) ? needing[0] : undefined) : await signInServer(manager, undefined);
      return controller?.authorizedServerUrl;
    },
    async (serverUrl) => {
      await Promise.all(manager.servers.map((controller) => controller.signedOut(serverUrl)));
    },
  );

  const tasksTree = new TasksTreeProvider(manager, context.workspaceState, (controller, task) =>
    void results.show(controller, {
      serverName: controller.name,
      toolName: task.toolName,
      args: task.args,
      ...(task.argumentsNote ? { argumentsNote: task.argumentsNote } : {}),
      outcome: { result: task.result },
      durationMs: task.durationMs,
    }),
    historyRecorder,
  );
  // deactivate() has already awaited every server's shutdown by the time these are disposed.
  context.subscriptions.push(
    oauthSessions,
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, vscode.l10n.t('MCP Servers (MCP Workbench)'), oauthSessions, {
      supportsMultipleAccounts: true,
    }),
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
    // First run: how to start a server, and our own lens on each mcp.json entry.
    startHint,
    ServerCodeLenses.register(manager),
    historyTree,
    historyView,
    sampling.history.onDidRecord(historyRecorder.recordSampling),
    elicitation.onDidAnswer(historyRecorder.recordElicitation),
    loader.onDidChange((entries) => {
      void manager.applyConfiguration(entries);
      void builtInMcpNotice.check(entries);
    }),
    loader.onDidFindProblems(reportConfigProblems),
    // Expanding a stopped (or failed) server starts it: the user asked to see its tools.
    treeView.onDidExpandElement(({ element }) => {
      if (element.kind === 'server') expandToStart.expanded(element.controller);
    }),
    ...[vscode.workspace.onDidGrantWorkspaceTrust, simulatedTrust.granted.event].map((onGranted) =>
      onGranted(() => {
        manager.workspaceTrustGranted();
        // Dev servers start with trust whatever autoStart says (a start shared with startAll's, if both ask).
        dev.mode?.workspaceTrustGranted();
        if (autoStartEnabled() && isWorkspaceTrusted()) void manager.startAll();
      }),
    ),
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
        prepareCall: (controller, toolName) => results.prepareCall(controller, toolName),
        history: historyRecorder,
      },
      sampling,
      history: historyContext,
      historyRecorder,
      tree,
      tasks: tasksTree,
      skills: { section: skillsSection, documents: skillDocuments },
      protocol: protocolViews,
      recordings,
    }),
    // Tasks (issue 19)
    tasksTree,
    vscode.window.createTreeView<TaskNode>(TASKS_VIEW_ID, { treeDataProvider: tasksTree }),
  );

  // Not awaited: activation ends before the configuration is read (the read yields to the busy start-up event loop).
  // The Servers view and every command wait for this first read instead (afterFirstLoad, registerCommands).
  void loader.reload().then(() => {
    if (!autoStartEnabled()) return;
    if (isWorkspaceTrusted()) void manager.startAll();
    else if (manager.servers.length > 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('MCP servers were not started automatically because this workspace is not trusted.'),
      );
    }
  });

  // MCP Apps: a called tool's app is drawn beside its result (src/extension/apps).
  registerAppHost(context);
  // `npm run bench:ui` reads this line: activate()'s own time, and the time its bundle took to evaluate (the banner
  // and footer esbuild.js adds to extension.js), which VS Code counts into the activation as well.
  const codeLoadMs = MCP_WORKBENCH_LOAD_ENDED - MCP_WORKBENCH_LOAD_STARTED;
  ownLog.info(`Activated in ${Math.round(performance.now() - activationStarted)} ms; the extension's code loaded in ${Math.round(codeLoadMs)} ms`);
  // A literal `false` outside the test build: esbuild drops this branch and, with it, all of testHooks.ts.
  if (MCP_WORKBENCH_TEST_BUILD) {
    // The suites drive the servers as soon as they have the hooks.
    await loader.firstLoad;
    return createTestHooks({
      public: {
        manager,
        tree,
        history,
        historyTree,
        serversViewVisible: () => treeView.visible,
        reload: async () => {
          await loader.reload();
        },
      },
      context,
      inputs,
      confirmation,
      auth,
      sessions: oauthSessions,
      setRestartPolicy: (options) => (restartPolicyOptions = options),
      setWorkspaceTrusted: (trusted) => (trustOverride = trusted),
      statusBar,
      browse: { catalog, forms, results, subscriptions, documents: resourceDocuments },
      sampling,
      panel: reviewPanel,
      elicitation,
      simulateWorkspaceFoldersChanged: () => simulatedFolderChanges.fire(),
      builtInMcpNotice,
      importer,
      currentEntries: () => manager.servers.map((controller) => controller.entry),
      simulateWorkspaceTrust: (trusted) => {
        simulatedTrust.untrusted = !trusted;
        if (trusted) simulatedTrust.granted.fire();
      },
    });
  }
  return undefined;
}

/** Awaited by VS Code on window close or reload: every server gets its staged shutdown before the host exits. */
export async function deactivate(): Promise<void> {
  const manager = activeManager;
  activeManager = undefined;
  await manager?.shutdown();
  // After the shutdown: calls it ended are in History too.
  const historyFile = activeHistoryFile;
  activeHistoryFile = undefined;
  await historyFile?.dispose();
}

function keepHistoryAcrossReloads(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('history.keepAcrossReloads', true);
}

function autoStartEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', false);
}
