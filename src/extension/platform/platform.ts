import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientHost, ElicitationHandler, SamplingHandler } from '../../protocol/host';
import { HistoryLog } from '../../workbench/history/historyLog';
import { HistoryFile } from '../../workbench/node/historyFile';
import { SecretAuthStore } from './auth/secretAuthStore';
import { SignInService } from './auth/signIn';
import { ConfigLoader } from './config/configLoader';
import { ChatRouteChoice } from './gateway/chatRoute';
import { AgentToolPolicies } from './gateway/agentToolPolicies';
import { agentToolPrompts } from './gateway/agentToolPrompts';
import { GatewayService } from './gateway/gatewayService';
import { InputPrompter } from './config/inputPrompter';
import { HistoryRecorder } from './history/historyRecorder';
import type { PlatformHost } from './host';
import { MementoEraMemory } from './servers/eraMemory';
import { LaunchConfirmation } from './servers/launchConfirmation';
import { LogChannels } from './servers/logChannels';
import { ResourceSubscriptions } from './servers/resourceSubscriptions';
import { ServerCatalog } from './servers/serverCatalog';
import type { ServerControllerServices } from './servers/serverController';
import { ServerManager } from './servers/serverManager';
import { reportGaveUp, reportStartFailure } from './servers/startServer';
import { maskingChannel } from './shared/maskingChannel';
import { createWorkspaceHost } from './shared/workspaceHost';
import { ownErrorLog } from './ui/coreErrors';
import { ToolResultDocuments } from './ui/toolResultDocuments';
import { ReviewPanel } from './webviews/reviewPanel';

/** What features lend the servers' clients: they are read when a server is configured, after every feature activated. */
interface LentServices {
  /** Answers a server's sampling requests (features/sampling). */
  sampling?: SamplingHandler;
  /** Answers a server's elicitation requests (features/elicitation). */
  elicitation?: ElicitationHandler;
  /** Taps each server's wire for the Protocol view (features/protocolView). */
  wire?: ServerControllerServices['wire'];
  /** Runs a server under the debugger (features/dev). */
  debug?: ServerControllerServices['debug'];
}

/**
 * What every feature may use: the configured servers and their controllers, the configuration, sign-in, History and
 * its recorder, the review panel, the extension's own log. Built once per activation; features receive it in their
 * context and never build these themselves.
 */
export class Platform implements vscode.Disposable {
  /** The extension's own log (not a server's); lines here can be about any server, so every server's secrets are masked. */
  readonly ownLog: vscode.LogOutputChannel;
  readonly logs = new LogChannels();
  readonly inputs: InputPrompter;
  readonly confirmation: LaunchConfirmation;
  readonly authStore: SecretAuthStore;
  readonly auth: SignInService;
  /** The sampling and elicitation review panel (one for both: a person answers one request at a time). */
  readonly reviewPanel: ReviewPanel;
  readonly manager: ServerManager;
  /** The running servers' gateways, for VS Code's chat and other agents (issue 37). */
  readonly gateways: GatewayService;
  /** How chat reaches this workspace's servers: through the gateways or VS Code's own copy (decided per workspace). */
  readonly chatRoute: ChatRouteChoice;
  /** Per server, the tools agents may call through the gateways and how (run, ask first, review the result). */
  readonly agentToolPolicies: AgentToolPolicies;
  readonly loader = new ConfigLoader();
  /** Each running server's resources, templates and prompts. */
  readonly catalog: ServerCatalog;
  /** Which resources are subscribed, per server. */
  readonly subscriptions: ResourceSubscriptions;
  /** Every exchange of this session; masked at the sink against its server's secrets, whoever records it. */
  readonly history: HistoryLog;
  readonly historyRecorder: HistoryRecorder;
  /** Read-only Markdown documents (`mcp-result:`) for results, prompts and instructions. */
  readonly documents = new ToolResultDocuments();
  private readonly lent: LentServices = {};
  private readonly trustGranted = new vscode.EventEmitter<void>();
  /** Fires after the servers heard that trust was granted, before an automatic start. */
  readonly onDidGrantWorkspaceTrust = this.trustGranted.event;
  private readonly disposables: vscode.Disposable[] = [];
  private historyFile: HistoryFile | undefined;

  constructor(
    readonly extension: vscode.ExtensionContext,
    private readonly host: PlatformHost,
  ) {
    const rawLog = vscode.window.createOutputChannel('MCP Workbench', { log: true });
    this.ownLog = maskingChannel(rawLog, () => this.manager.servers.flatMap((server) => server.knownSecrets()));
    // Errors about no server in particular (the registry's) are logged here (coreErrors.ts, showError).
    ownErrorLog.channel = this.ownLog;
    this.inputs = new InputPrompter(extension.secrets, extension.workspaceState);
    this.confirmation = new LaunchConfirmation(extension.workspaceState);
    this.authStore = new SecretAuthStore(extension.secrets);
    this.auth = new SignInService(this.authStore);
    if (host.openSignInUrl) this.auth.openExternal = host.openSignInUrl;
    this.reviewPanel = new ReviewPanel(extension.extensionUri);
    const lent = this.lent;
    const clientHost: ClientHost = createWorkspaceHost({
      sampling: () => lent.sampling,
      elicitation: () => lent.elicitation,
      rootsChanged: host.onDidChangeRoots,
    });
    // Each server's client asks through its gateway's relay: a request raised by an agent's call goes to that agent.
    this.gateways = new GatewayService(clientHost);
    this.chatRoute = new ChatRouteChoice(extension.workspaceState);
    this.agentToolPolicies = new AgentToolPolicies(extension.workspaceState);
    const gateways = this.gateways;
    this.manager = new ServerManager({
      host: clientHost,
      hostFor: (entry) => gateways.hostFor(entry.id),
      logs: this.logs,
      inputs: this.inputs,
      confirmation: this.confirmation,
      auth: this.auth,
      isWorkspaceTrusted: () => this.isWorkspaceTrusted(),
      reportStartFailure,
      reportGaveUp,
      restartPolicy: () => host.restartPolicy(),
      eraMemory: new MementoEraMemory(extension.globalState),
      get wire() {
        return lent.wire;
      },
      get debug() {
        return lent.debug;
      },
    });
    this.gateways.attach(this.manager);
    this.catalog = new ServerCatalog(this.manager);
    this.subscriptions = new ResourceSubscriptions(this.catalog);
    this.history = new HistoryLog({}, (serverId) => this.manager.get(serverId)?.knownSecrets() ?? []);
    this.historyRecorder = new HistoryRecorder(this.history, this.manager);
    this.gateways.middle = {
      policies: this.agentToolPolicies,
      prompts: agentToolPrompts(),
      record: (record) => this.historyRecorder.record(record),
      wire: () => lent.wire,
    };
    // deactivate() has already awaited every server's shutdown by the time these are disposed.
    this.disposables.push(
      rawLog,
      this.reviewPanel,
      this.trustGranted,
      this.logs,
      this.gateways,
      this.chatRoute,
      this.agentToolPolicies,
      this.manager,
      this.loader,
      this.documents,
      this.subscriptions,
      this.catalog,
      this.loader.onDidChange((entries) => void this.manager.applyConfiguration(entries)),
      host.onDidGrantWorkspaceTrust(() => {
        this.manager.workspaceTrustGranted();
        this.trustGranted.fire();
        if (autoStartEnabled() && this.isWorkspaceTrusted()) void this.manager.startAll();
      }),
    );
  }

  isWorkspaceTrusted(): boolean {
    return this.host.isWorkspaceTrusted();
  }

  /** A feature lends the clients a service (each once); read when a server is configured. */
  lend(services: LentServices): void {
    for (const key of Object.keys(services) as (keyof LentServices)[]) {
      if (this.lent[key]) throw new Error(`The client service "${key}" is lent twice`);
    }
    Object.assign(this.lent, services);
  }

  /**
   * Reads History kept from before a reload and the configuration, then starts the servers if the person asked for
   * that. Not awaited by activation: the Servers view and every command wait for `loader.firstLoad` instead.
   */
  start(): void {
    // History survives a window reload (adding a second folder reloads it): kept in this workspace's storage, as masked
    // as the view shows it. Read after activation, so a long History costs the first screen nothing.
    const historyFolder = this.extension.storageUri ?? this.extension.globalStorageUri;
    if (keepHistoryAcrossReloads() && historyFolder.scheme === 'file') {
      this.historyFile = new HistoryFile(this.history, path.join(historyFolder.fsPath, 'history.json'), (line) =>
        this.ownLog.warn(line),
      );
      void this.historyFile.load();
    }
    void this.loader.reload().then(() => {
      if (!autoStartEnabled()) return;
      if (this.isWorkspaceTrusted()) void this.manager.startAll();
      else if (this.manager.servers.length > 0) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('MCP servers were not started automatically because this workspace is not trusted.'),
        );
      }
    });
  }

  /** Every gateway closes, every server gets its staged shutdown, then History is written: calls the shutdown ended are in it too. */
  async shutdown(): Promise<void> {
    // The gateways first: their agents' sessions end before the servers they reach go away.
    await this.gateways.shutdown();
    await this.manager.shutdown();
    const historyFile = this.historyFile;
    this.historyFile = undefined;
    await historyFile?.dispose();
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

function keepHistoryAcrossReloads(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('history.keepAcrossReloads', true);
}

function autoStartEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', false);
}
