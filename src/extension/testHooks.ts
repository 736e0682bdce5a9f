import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FeatureExports } from './extension';
import type { PlatformHost } from './platform/host';
import type { Platform } from './platform/platform';
import type { SignInModal } from './platform/auth/signIn';
import type { OAuthSessionsProvider } from './platform/auth/sessionsProvider';
import type { SamplingRecord } from '../workbench/sampling/coordinator';
import { RestartPolicy, type RestartPolicyOptions } from '../workbench/lifecycle/restartPolicy';
import type { SamplingPolicy } from '../workbench/sampling/policy';
import type { ForgetAnswerer, PromptAnswerer } from './platform/config/inputPrompter';
import { targetFromArgument } from './platform/config/configTargets';
import type { ImportPickItem } from './features/config/importServers';
import type { UrlElicitationRecord, UrlModal } from './features/elicitation/elicitationUi';
import type { ResourceSubscriptions } from './platform/servers/resourceSubscriptions';
import type { ResourceDocuments } from './features/resources/resourceDocuments';
import type { BuiltInMcpNoticeOutcome } from './features/servers/builtInMcpNotice';
import type { LaunchConfirmer } from './platform/servers/launchConfirmation';
import type { ServerCatalog } from './platform/servers/serverCatalog';
import type { ToolForms } from './features/tools/toolFormPanel';
import { shownCompletionPick, type CompletionPickSnapshot } from './platform/ui/completionInput';
import { notificationRecorder, type NotificationAnswerer, type ShownNotification } from './platform/ui/notifications';
import type { ToolResultView } from './features/tools/toolResultView';
import type { ReviewMessage, ReviewSnapshot } from './platform/webviews/reviewPanel';
import type { HistoryLog } from '../workbench/history/historyLog';
import type { HistoryTreeProvider } from './features/history/historyTreeProvider';
import type { ServerManager } from './platform/servers/serverManager';
import type { ServersTreeProvider } from './features/serversView/serversTreeProvider';
import type { BindingConfirmer } from './features/testing/recordedServer';
import { saveAsTestHooks, type EarlierAnswersQuestion } from './features/history/saveAsTestHooks';
import type { RecordingTestReport } from './features/testing/recordingTests';
import type { EvalPrompts, EvalTestReport } from './features/testing/evalTests';
import type { ChatRoute } from './platform/gateway/chatRoute';
import type { ServedGateway } from './platform/gateway/gatewayService';
import type { ServerController } from './platform/servers/serverController';
import type { ConnectedAgent } from '../workbench/gateway/agents';
import type { ToolPolicyHost } from '../workbench/gateway/toolPolicy';

/**
 * Test hooks for configuration and lifecycle. Each replaces only the UI step (the input box, the modal); storage in
 * SecretStorage/workspaceState and the remembered confirmations stay on their real paths.
 */
export interface ConfigTestApi {
  /** Answers `${input:...}` prompts instead of the input box; undefined restores the UI. */
  setPromptAnswerer(answerer: PromptAnswerer | undefined): void;
  /** Answers Forget Stored Inputs' pick and confirmation (undefined restores the quick pick and the modal). */
  setForgetAnswerer(answerer: ForgetAnswerer | undefined): void;
  /** Answers the first-start confirmation instead of the modal; undefined restores the modal. */
  setLaunchConfirmer(confirmer: LaunchConfirmer | undefined): void;
  /**
   * The crash restart policy for servers added to the configuration from now on (e.g. short delays, so a test
   * does not wait out the real backoff); undefined restores the defaults.
   */
  setRestartPolicy(options: RestartPolicyOptions | undefined): void;
  /** Reads a stored secret input the way the extension does (context.secrets), for asserting where it went. */
  storedSecret(configUri: string, inputId: string): Thenable<string | undefined>;
  /** The status bar text, e.g. "$(server) 2 $(error) 1". */
  statusBarText(): string;
  /** The status bar tooltip's markdown ("MCP servers: 1 running, 1 failed, 3 configured", one line per server). */
  statusBarTooltip(): string;
  /** The status bar item's accessible label (plain words, no icons). */
  statusBarAccessibleLabel(): string | undefined;
  /** The command the status bar item runs when clicked. */
  statusBarCommand(): string | undefined;
  /** Folders where this window writes logs and workspace state, for asserting that no secret reaches a file. */
  storageFolders(): string[];
  /**
   * The whole VS Code profile this window writes to: the user-data folder (settings, logs of every process, global
   * and workspace storage), derived from the extension's own storage and log locations.
   */
  profileFolders(): string[];
  /**
   * What the servers are told about workspace trust (undefined: the window's real trust). A window's trust cannot
   * change without restarting the extension host, so tests of untrusted behaviour set it here; everything that
   * depends on trust reads it through the same probe.
   */
  setWorkspaceTrusted(trusted: boolean | undefined): void;
  /** The notifications the extension showed since the hooks were created (or since `clearNotifications`). */
  notifications(): readonly ShownNotification[];
  clearNotifications(): void;
  /** Answers every notification instead of the person (the label of the action to press); undefined restores the UI. */
  answerNotifications(answerer: NotificationAnswerer | undefined): void;
  /**
   * Answers Import Servers' steps instead of the quick pick and the file dialog (undefined restores them): the list
   * of found servers (names to add, "choose-file", or undefined to cancel), the file, and the target ("user" or a
   * workspace folder URI string).
   */
  answerImport(answers: ImportAnswers | undefined): void;
  /** Forgets that the "VS Code's MCP support is also on" notice was shown here, and checks again now. */
  recheckBuiltInMcpNotice(): Promise<BuiltInMcpNoticeOutcome>;
}

export interface ImportAnswers {
  pickServers(items: readonly ImportPickItem[]): readonly string[] | 'choose-file' | undefined;
  chooseFile(): string | undefined;
  pickTarget(): string | undefined;
}

/** The gateways of the running servers (platform/gateway) and VS Code's chat provider (features/gateway). */
export interface GatewayTestApi {
  /** Opens the running server's gateway, as chat's resolve and Connect Another Client do. */
  serve(controller: ServerController): Promise<ServedGateway>;
  served(controller: ServerController): ServedGateway | undefined;
  agents(controller: ServerController): ConnectedAgent[];
  /** Whether the chat provider was registered (VS Code 1.101+ only). */
  readonly providerRegistered: boolean;
  chooseChatRoute(route: ChatRoute): Promise<void>;
  /** The workspace's choice (undefined: not made); `forgetChatRoute` makes it undecided again. */
  chatRoute(): ChatRoute | undefined;
  forgetChatRoute(): Promise<void>;
  /** Stands in for VS Code 1.101+ taking the provider (on 1.100, where it does not), for the notice's question. */
  setChatRouteAvailable(available: boolean): void;
  /** Answers the tool policy's ask and review instead of the modals; undefined restores the modals. */
  setToolPolicyPrompts(prompts: ToolPolicyHost | undefined): void;
}

/** Recorded tests in the Test Explorer: runs go through VS Code's own Testing commands; these see what they reported. */
export interface TestingTestApi {
  /** Answers the confirmation to replay a recording on a server outside the workspace; undefined restores the modal. */
  setBindingConfirmer(confirmer: BindingConfirmer | undefined): void;
  /** Shows a recording in the Test Explorer now, as Save as Test does (the file watcher may report it late). */
  add(uri: vscode.Uri): Promise<void>;
  /** Every verdict and output line the recordings' runs report to the Test Explorer, as they come. */
  onDidReport: vscode.Event<RecordingTestReport>;
  /**
   * Answers Save as Test's question about steps answered before the server last started (the button's label, or
   * undefined for Cancel); undefined restores the modal.
   */
  answerEarlierAnswers(answer: ((question: EarlierAnswersQuestion) => string | undefined) | undefined): void;
  /** Answers an eval run's server and model picks and its model-call confirmation; undefined restores the UI. */
  setEvalPrompts(prompts: EvalPrompts | undefined): void;
  /** Shows an eval file in the Test Explorer now; resolves with its item's id and its children's labels. */
  addEval(uri: vscode.Uri): Promise<{ id: string; children: string[] }>;
  /** Every verdict and output line the evals' runs report to the Test Explorer, as they come. */
  onDidReportEval: vscode.Event<EvalTestReport>;
}

/** What integration tests reach through the extension's API: the open form and the last result shown. */
export interface BrowseTestApi {
  catalog: ServerCatalog;
  forms: ToolForms;
  results: ToolResultView;
  /** Which resources are subscribed, per server (the tree shows them as `resource.subscribed`). */
  subscriptions: ResourceSubscriptions;
  /** The open resource documents (their last update note in the status bar). */
  documents: ResourceDocuments;
  /**
   * The completion pick on screen (Get Prompt's and Read Resource Template's arguments): its step, its rows, and
   * whether the server's suggestions for its text are in them. A test accepts a row only once they are.
   */
  completionPick(): CompletionPickSnapshot | undefined;
}

/** Sampling and elicitation test hooks: the UI stays the thing under test. */
export interface SamplingTestApi {
  /** Stores an endpoint's API key exactly as "MCP Workbench: Set Model API Key…" does (undefined deletes it). */
  setApiKey(endpointName: string, key: string | undefined): Promise<void>;
  /** What the review panel shows, and how many requests wait behind it. */
  snapshot(): ReviewSnapshot;
  /**
   * Posts a message exactly as the review webview's buttons do. Without `requestId` it carries the id of the request
   * shown now (as a click on the page does); with one, that id (a stale id is how a late click is simulated).
   */
  post(message: ReviewMessage): void;
  samplingQueueSize(): number;
  elicitationQueueSize(): number;
  records(serverName: string): readonly SamplingRecord[];
  /** The policy of a server named by identity key (`user#name`, `workspace:/…#name`) or by name (its first server). */
  policy(server: string): SamplingPolicy;
  setPolicy(server: string, policy: SamplingPolicy): Promise<void>;
  /**
   * Answers the URL-mode consent modal (modal dialogs cannot be clicked in tests): `answer` sees the modal as
   * it would be shown and returns the label of the button to press (undefined = Escape). Undefined restores
   * the real dialog.
   */
  answerUrlModal(answer: ((modal: UrlModal) => string | undefined) | undefined): void;
  /** Replaces vscode.env.openExternal for URL-mode elicitation, getting the URL string as VS Code would (undefined restores it); no browser opens. */
  setOpenExternal(opener: ((url: string) => Thenable<boolean>) | undefined): void;
  /** URL-mode elicitations of this session and what the person chose, newest last. */
  urlElicitations(): readonly UrlElicitationRecord[];
  /** notifications/elicitation/complete handled in this session, newest last. */
  urlCompletions(): readonly { serverName: string; elicitationId: string }[];
  /**
   * Answers the next quick pick of "MCP Workbench: Set Sampling Policy…" (the one choosing the policy): `choose` sees the
   * labels as shown and returns the one to accept (undefined = Escape). One-shot.
   */
  answerNextPolicyPick(choose: (labels: readonly string[]) => string | undefined): void;
}

/** OAuth sign-in test hooks: the consent modal and the browser are the only UI steps replaced. */
export interface AuthTestApi {
  /** Answers the sign-in consent modal: `answer` sees it as shown and returns the button to press (undefined = Escape). */
  answerSignInModal(answer: ((modal: SignInModal) => string | undefined) | undefined): void;
  /**
   * Replaces vscode.env.openExternal for sign-in (e.g. a fixture browser following the URL); it gets the URL string
   * exactly as it would go to VS Code. Undefined restores it.
   */
  setOpenExternal(opener: ((url: string) => Thenable<boolean>) | undefined): void;
  /** Presses Cancel on the progress of every sign-in waiting for its redirect; resolves how many there were. */
  cancelSignInProgress(): number;
  /** Whether SecretStorage holds tokens for this server URL (never the tokens themselves). */
  hasStoredTokens(serverUrl: string): Promise<boolean>;
  /** The raw SecretStorage text for this server URL, for asserting that masks cover what is stored. */
  storedState(serverUrl: string): Promise<string | undefined>;
  /** The authentication provider registered for the Accounts menu (its getSessions and removeSession are Sign Out's path). */
  sessions: OAuthSessionsProvider;
}

/**
 * What the suites reach beside the hooks: the live services, which the product never hands out (see activate).
 * - `manager.snapshot()` lists every configured server with its state, tool names and pid;
 * - `manager.waitForState(nameOrId, kind, timeoutMs)` resolves when a server reaches a state;
 * - `manager.servers` gives the controllers (start/stop/restart/callTool) for deeper tests;
 * - `reload()` re-reads every mcp.json now, without waiting for the file watcher.
 */
export interface WorkbenchServices {
  manager: ServerManager;
  reload(): Promise<void>;
  /** The Servers view's data provider: the nodes and tree items the view shows (groups, badges, tooltips). */
  tree: ServersTreeProvider;
  /** Every exchange of this session (the History view's model), and the History view's data provider. */
  history: HistoryLog;
  historyTree: HistoryTreeProvider;
  /** Whether the Servers view is visible (TreeView.visible; VS Code offers no public way to ask from outside). */
  serversViewVisible(): boolean;
}

/** What the test build's `activate` returns: the services and the hooks. */
export type McpWorkbenchTestApi = WorkbenchServices & McpWorkbenchTestHooks;

/**
 * The test-only part of the extension's API. It exists only in the test build (`node esbuild.js --test-hooks`):
 * the product bundle holds none of this file's code (see testHooksBuild.d.ts).
 */
export interface McpWorkbenchTestHooks {
  /** Sampling/elicitation test hooks: the review panel's state and the messages its buttons post. */
  sampling: SamplingTestApi;
  /** Browsing test hooks: the catalog (resources, templates, prompts), the open tool form, the last result view. */
  browse: BrowseTestApi;
  /** Configuration/lifecycle test hooks: pre-answered input prompts and launch confirmations, the status bar. */
  config: ConfigTestApi;
  auth: AuthTestApi;
  testing: TestingTestApi;
  gateway: GatewayTestApi;
  /**
   * Fires the roots provider's change event as a workspace-folder change does. In a single-folder window, adding a
   * folder enters an untitled workspace, which restarts the extension host, so tests cannot change folders for real.
   */
  simulateWorkspaceFoldersChanged(): void;
  /**
   * false: the extension acts as in an untrusted workspace; true: trust is granted, as the trust dialog's "Trust"
   * does (onDidGrantWorkspaceTrust). Tests cannot revoke the real trust of their workspace.
   */
  simulateWorkspaceTrust(trusted: boolean): void;
}

/**
 * The window as the suites drive it: trust they can withhold and grant (a window's real trust cannot change without a
 * restart of the extension host), a folder change they can fire (adding a folder to a single-folder window restarts
 * the host), a crash policy with short delays, and the sign-in URL written to a file for the e2e browser.
 */
export class TestBuildHost implements PlatformHost {
  private trustOverride: boolean | undefined;
  private untrusted = false;
  private restartOptions: RestartPolicyOptions | undefined;
  private readonly granted = new vscode.EventEmitter<void>();
  private readonly foldersChanged = new vscode.EventEmitter<void>();
  readonly onDidGrantWorkspaceTrust: vscode.Event<void>;
  readonly onDidChangeRoots = this.foldersChanged.event;
  readonly openSignInUrl: ((url: string) => Thenable<boolean>) | undefined;
  /**
   * Off unless a suite asks (firstRun.e2e.ts): every suite starts in a fresh profile, and a walkthrough opening over
   * the editor at start-up would take the focus their first steps expect.
   */
  readonly firstRunWalkthrough = process.env.MCP_WORKBENCH_E2E_WALKTHROUGH === '1';

  constructor() {
    const grants = [vscode.workspace.onDidGrantWorkspaceTrust, this.granted.event];
    this.onDidGrantWorkspaceTrust = (listener, thisArg, disposables) =>
      vscode.Disposable.from(...grants.map((event) => event(listener, thisArg, disposables)));
    // code-server's openExternal cannot reach a browser window Playwright drives, so the authorization URL is written
    // to this file and the e2e opens it in a second page of the same Chromium.
    const signInUrlFile = process.env.MCP_WORKBENCH_E2E_SIGNIN_URL_FILE;
    this.openSignInUrl = signInUrlFile
      ? async (url) => {
          fs.writeFileSync(signInUrlFile, url);
          return true;
        }
      : undefined;
  }

  isWorkspaceTrusted(): boolean {
    return (this.trustOverride ?? vscode.workspace.isTrusted) && !this.untrusted;
  }

  restartPolicy(): RestartPolicy {
    return new RestartPolicy(this.restartOptions);
  }

  setWorkspaceTrusted(trusted: boolean | undefined): void {
    this.trustOverride = trusted;
  }

  simulateWorkspaceTrust(trusted: boolean): void {
    this.untrusted = !trusted;
    if (trusted) this.granted.fire();
  }

  simulateWorkspaceFoldersChanged(): void {
    this.foldersChanged.fire();
  }

  setRestartPolicy(options: RestartPolicyOptions | undefined): void {
    this.restartOptions = options;
  }
}

export async function createTestHooks(
  platform: Platform,
  features: FeatureExports,
  host: TestBuildHost,
): Promise<McpWorkbenchTestApi> {
  const context = platform.extension;
  const { inputs, confirmation } = platform;
  const { statusBar, builtInMcpNotice, sessions } = features.servers;
  const { importer } = features.config;
  // Loaded at once here: the hooks read the service as it is (a window loads it at the first request).
  const sampling = await features.sampling.sampling();
  const tools = await features.tools.ui();
  const { elicitation } = features.elicitation;
  const panel = platform.reviewPanel;
  notificationRecorder.startRecording();
  const realImportUi = importer.ui;
  /** The tool policy's modals, kept while a suite answers for the person. */
  let modalPrompts: ToolPolicyHost | undefined;
  const config: ConfigTestApi = {
    setPromptAnswerer: (answerer) => (inputs.answerer = answerer),
    setForgetAnswerer: (answerer) => (inputs.forgetAnswerer = answerer),
    setLaunchConfirmer: (confirmer) => (confirmation.confirmer = confirmer),
    setRestartPolicy: (options) => host.setRestartPolicy(options),
    storedSecret: (configUri, inputId) => context.secrets.get(`mcpWorkbench.input:${configUri}#${inputId}`),
    statusBarText: () => statusBar.text,
    statusBarTooltip: () => statusBar.tooltip,
    statusBarCommand: () => statusBar.command,
    statusBarAccessibleLabel: () => statusBar.accessibleLabel,
    // The output channels' log files live next to the extension's own log folder (…/exthost/).
    storageFolders: () => [
      vscode.Uri.joinPath(context.logUri, '..').fsPath,
      ...(context.storageUri ? [context.storageUri.fsPath] : []),
    ],
    notifications: () => [...notificationRecorder.shown],
    clearNotifications: () => notificationRecorder.startRecording(),
    answerNotifications: (answerer) => (notificationRecorder.answerer = answerer),
    answerImport: (answers) => {
      importer.ui = answers
        ? {
            pickServers: async (_title, items) => answers.pickServers(items),
            chooseFile: async () => answers.chooseFile(),
            pickTarget: async () => targetFromArgument(answers.pickTarget()),
          }
        : realImportUi;
    },
    recheckBuiltInMcpNotice: () =>
      builtInMcpNotice.recheck(platform.manager.servers.map((controller) => controller.entry)),
    profileFolders: () => profileFolders(context),
    setWorkspaceTrusted: (trusted) => host.setWorkspaceTrusted(trusted),
  };
  const realUrlModal = elicitation.presentUrlModal;
  const realOpener = elicitation.openExternal;
  const samplingApi: SamplingTestApi = {
    setApiKey: (name, key) => sampling.storeApiKey(name, key),
    snapshot: () => panel.snapshot(),
    post: (message) =>
      panel.handleMessage(
        message.requestId === undefined ? { ...message, requestId: panel.snapshot().requestId } : message,
      ),
    samplingQueueSize: () => sampling.coordinator.queue.size ?? 0,
    elicitationQueueSize: () => elicitation.queue.size,
    records: (serverName) => sampling.records.of(serverName),
    policy: (server) => sampling.policies.get(sampling.identityKeyFor(server)),
    setPolicy: (server, policy) => sampling.policies.set(sampling.identityKeyFor(server), policy),
    answerUrlModal: (answer) => {
      elicitation.presentUrlModal = answer ? async (modal) => answer(modal) : realUrlModal;
    },
    setOpenExternal: (opener) => {
      elicitation.openExternal = opener ?? realOpener;
    },
    urlElicitations: () => elicitation.urlRecords.map((record) => ({ ...record })),
    urlCompletions: () => [...elicitation.completions],
    answerNextPolicyPick: (choose) => sampling.answerNextPolicyPick(choose),
  };
  const auth = platform.auth;
  const realSignInModal = auth.presentModal;
  const realSignInOpener = auth.openExternal;
  const authApi: AuthTestApi = {
    answerSignInModal: (answer) => {
      auth.presentModal = answer ? async (modal) => answer(modal) : realSignInModal;
    },
    setOpenExternal: (opener) => {
      auth.openExternal = opener ?? realSignInOpener;
    },
    cancelSignInProgress: () => auth.cancelWaitingSignIns(),
    hasStoredTokens: async (serverUrl) => (await auth.store.load(serverUrl))?.tokens !== undefined,
    storedState: (serverUrl) => Promise.resolve(context.secrets.get(`mcpWorkbench.oauth:${serverUrl}`)),
    sessions,
  };
  const { tree, treeView } = features.serversView;
  return {
    manager: platform.manager,
    tree,
    history: platform.history,
    historyTree: features.history.historyTree,
    serversViewVisible: () => treeView.visible,
    reload: async () => {
      await platform.loader.reload();
    },
    config,
    auth: authApi,
    browse: {
      catalog: platform.catalog,
      forms: tools.forms,
      results: tools.results,
      subscriptions: platform.subscriptions,
      documents: features.resources.documents,
      completionPick: shownCompletionPick,
    },
    sampling: samplingApi,
    testing: {
      setBindingConfirmer: (confirmer) => (features.testing.recordings.bindingConfirmer = confirmer),
      add: (uri) => features.testing.recordings.add(uri),
      onDidReport: features.testing.recordings.onDidReport,
      answerEarlierAnswers: (answer) => (saveAsTestHooks.answerEarlierAnswers = answer),
      setEvalPrompts: (prompts) => (features.testing.evals.prompts = prompts),
      addEval: async (uri) => {
        const item = await features.testing.evals.add(uri);
        return { id: item.id, children: [...item.children].map(([, child]) => child.label) };
      },
      onDidReportEval: features.testing.evals.onDidReport,
    },
    gateway: {
      serve: (controller) => platform.gateways.serve(controller),
      served: (controller) => platform.gateways.served(controller.id),
      agents: (controller) => platform.gateways.agents(controller.id),
      providerRegistered: features.gateway.provider !== undefined,
      chooseChatRoute: (route) => platform.chatRoute.choose(route),
      chatRoute: () => platform.chatRoute.decided,
      forgetChatRoute: () => platform.chatRoute.forget(),
      setChatRouteAvailable: (available) => (platform.chatRoute.available = available),
      setToolPolicyPrompts: (prompts) => {
        const middle = platform.gateways.middle;
        if (!middle) return;
        modalPrompts ??= middle.prompts;
        platform.gateways.middle = { ...middle, prompts: prompts ?? modalPrompts };
      },
    },
    simulateWorkspaceFoldersChanged: () => host.simulateWorkspaceFoldersChanged(),
    simulateWorkspaceTrust: (trusted) => host.simulateWorkspaceTrust(trusted),
  };
}

/**
 * `<user-data>/logs/<session>/exthost<n>/<extension>` and `<user-data>/User/globalStorage/<extension>` both lead to
 * the user-data folder; every file-backed location the extension knows is listed too, in case one lies elsewhere.
 */
function profileFolders(context: vscode.ExtensionContext): string[] {
  const candidates = [
    vscode.Uri.joinPath(context.logUri, '..', '..', '..', '..'),
    vscode.Uri.joinPath(context.globalStorageUri, '..', '..', '..'),
    context.logUri,
    context.globalStorageUri,
    ...(context.storageUri ? [context.storageUri] : []),
  ];
  return [...new Set(candidates.filter((uri) => uri.scheme === 'file').map((uri) => uri.fsPath))];
}
