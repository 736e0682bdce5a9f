import * as vscode from 'vscode';
import type { ElicitationHandler, SamplingHandler } from '../../protocol/host';
import { SamplingCoordinator, type SamplingRecord } from '../../workbench/sampling/coordinator';
import { SamplingPolicies, type SamplingPolicy } from '../../workbench/sampling/policy';
import { resolveServer } from '../servers/serverPicker';
import { ElicitationUi, type UrlElicitationRecord, type UrlModal } from '../elicitation/elicitationUi';
import type { ServerManager } from '../servers/serverManager';
import { SamplingHistory, historyMarkdown, logRecord } from './history';
import { LanguageModelApiProvider } from './lmProvider';
import { ReviewPanel, type ReviewMessage, type ReviewSnapshot } from '../webviews/reviewPanel';
import { SamplingReviewUi } from './samplingReviewUi';
import { EndpointsProvider, GlobalStatePolicyStorage, allowedModelsFor, readEndpoints, secretKey } from './settings';

/** Test hooks (part of the extension's exported test API): the UI stays the thing under test. */
export interface SamplingTestApi {
  /** Stores an endpoint's API key exactly as "MCP: Set Model API Key…" does (undefined deletes it). */
  setApiKey(endpointName: string, key: string | undefined): Promise<void>;
  /** What the review panel shows, and how many requests wait behind it. */
  snapshot(): ReviewSnapshot;
  /** Posts a message exactly as the review webview's buttons do. */
  post(message: ReviewMessage): void;
  samplingQueueSize(): number;
  elicitationQueueSize(): number;
  history(serverName: string): readonly SamplingRecord[];
  policy(serverName: string): SamplingPolicy;
  setPolicy(serverName: string, policy: SamplingPolicy): Promise<void>;
  /**
   * Answers the URL-mode consent modal (modal dialogs cannot be clicked in tests): `answer` sees the modal as
   * it would be shown and returns the label of the button to press (undefined = Escape). Undefined restores
   * the real dialog.
   */
  answerUrlModal(answer: ((modal: UrlModal) => string | undefined) | undefined): void;
  /** Replaces vscode.env.openExternal for URL-mode elicitation (undefined restores it); no browser opens. */
  setOpenExternal(opener: ((uri: vscode.Uri) => Thenable<boolean>) | undefined): void;
  /** URL-mode elicitations of this session and what the person chose, newest last. */
  urlElicitations(): readonly UrlElicitationRecord[];
  /** notifications/elicitation/complete handled in this session, newest last. */
  urlCompletions(): readonly { serverName: string; elicitationId: string }[];
  /**
   * Answers the next quick pick of "MCP: Set Sampling Policy…" (the one choosing the policy): `choose` sees the
   * labels as shown and returns the one to accept (undefined = Escape). One-shot.
   */
  answerNextPolicyPick(choose: (labels: readonly string[]) => string | undefined): void;
}

type PolicyItem = vscode.QuickPickItem & { policy: SamplingPolicy };

/** Sampling and elicitation for every server: providers, policies, the review panel, history, commands. */
export class SamplingService implements vscode.Disposable {
  readonly sampling: SamplingHandler;
  readonly elicitation: ElicitationHandler;
  readonly testApi: SamplingTestApi;
  private readonly disposables: vscode.Disposable[] = [];
  private policyPickAnswer: ((labels: readonly string[]) => string | undefined) | undefined;

  constructor(context: vscode.ExtensionContext, private readonly manager: () => ServerManager | undefined) {
    const history = new SamplingHistory();
    const panel = new ReviewPanel(context.extensionUri);
    const endpoints = new EndpointsProvider(context.secrets);
    const lm = new LanguageModelApiProvider();
    const storage = new GlobalStatePolicyStorage(context.globalState);
    const policies = new SamplingPolicies(storage);
    const reviewer = new SamplingReviewUi(panel);
    const coordinator = new SamplingCoordinator({
      providers: () => [endpoints, lm],
      allowedModels: (serverName) => allowedModelsFor(serverName, endpoints),
      policies,
      reviewer,
      record: (record) => history.add(record),
    });
    reviewer.attach(coordinator.queue);
    const elicitation = new ElicitationUi(panel, (serverName, line) => this.channel(serverName)?.info(line));
    this.sampling = coordinator;
    this.elicitation = elicitation;

    this.disposables.push(
      history,
      panel,
      storage,
      elicitation,
      { dispose: () => coordinator.dispose() },
      history.onDidRecord((record) => {
        const channel = this.channel(record.serverName);
        if (channel) logRecord(channel, record);
      }),
      vscode.commands.registerCommand('mcpWorkbench.setModelApiKey', () => this.setApiKeyCommand(context.secrets)),
      vscode.commands.registerCommand('mcpWorkbench.setSamplingPolicy', (argument?: unknown) => this.setPolicyCommand(policies, argument)),
      vscode.commands.registerCommand('mcpWorkbench.showSamplingHistory', (argument?: unknown) => this.showHistoryCommand(history, argument)),
    );

    let defaultUrlModal: ElicitationUi['presentUrlModal'] | undefined;
    let defaultOpener: ElicitationUi['openExternal'] | undefined;
    this.testApi = {
      setApiKey: async (name, key) => {
        if (key === undefined) await context.secrets.delete(secretKey(name));
        else await context.secrets.store(secretKey(name), key);
      },
      snapshot: () => panel.snapshot(),
      post: (message) => panel.handleMessage(message),
      samplingQueueSize: () => coordinator.queue.size ?? 0,
      elicitationQueueSize: () => elicitation.queue.size,
      history: (serverName) => history.of(serverName),
      policy: (serverName) => policies.get(serverName),
      setPolicy: (serverName, policy) => policies.set(serverName, policy),
      answerUrlModal: (answer) => {
        const real = defaultUrlModal ??= elicitation.presentUrlModal;
        elicitation.presentUrlModal = answer ? async (modal) => answer(modal) : real;
      },
      setOpenExternal: (opener) => {
        const real = defaultOpener ??= elicitation.openExternal;
        elicitation.openExternal = opener ?? real;
      },
      urlElicitations: () => elicitation.urlRecords.map((record) => ({ ...record })),
      urlCompletions: () => [...elicitation.completions],
      answerNextPolicyPick: (choose) => {
        this.policyPickAnswer = choose;
      },
    };
  }

  private channel(serverName: string): vscode.LogOutputChannel | undefined {
    return this.manager()?.byName(serverName)[0]?.log;
  }

  private async setApiKeyCommand(secrets: vscode.SecretStorage): Promise<void> {
    const endpoints = readEndpoints();
    if (endpoints.length === 0) {
      const open = vscode.l10n.t('Open Settings');
      const choice = await vscode.window.showInformationMessage(vscode.l10n.t('No model endpoints are configured. Add one to the setting mcpWorkbench.sampling.endpoints first.'), open);
      if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'mcpWorkbench.sampling.endpoints');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      endpoints.map((endpoint) => ({ label: endpoint.name, description: `${endpoint.model} · ${endpoint.baseUrl}`, endpoint })),
      { placeHolder: vscode.l10n.t('Select the model endpoint whose API key to set') },
    );
    if (!picked) return;
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('API key for {0}', picked.endpoint.name),
      prompt: vscode.l10n.t('Stored in VS Code\'s secret storage, never in settings or logs. Leave empty to remove the key.'),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key === '') {
      await secrets.delete(secretKey(picked.endpoint.name));
      void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was removed.', picked.endpoint.name));
    } else {
      await secrets.store(secretKey(picked.endpoint.name), key);
      void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was stored.', picked.endpoint.name));
    }
  }

  private async setPolicyCommand(policies: SamplingPolicies, argument: unknown): Promise<void> {
    const manager = this.manager();
    if (!manager) return;
    const controller = await resolveServer(manager, argument, { placeHolder: vscode.l10n.t('Select the MCP server whose sampling policy to set') });
    if (!controller) return;
    const current = policies.get(controller.name);
    const items: PolicyItem[] = [
      { label: vscode.l10n.t('Ask every time'), policy: 'ask' },
      { label: vscode.l10n.t('Allow for this session'), policy: 'session' },
      { label: vscode.l10n.t('Always allow'), policy: 'always' },
      { label: vscode.l10n.t('Never allow'), policy: 'never' },
    ];
    for (const item of items) if (item.policy === current) item.description = vscode.l10n.t('current');
    const picked = await this.pickPolicy(items, vscode.l10n.t('Sampling policy for {0}', controller.name));
    if (!picked) return;
    await policies.set(controller.name, picked.policy);
    controller.log.info(`[sampling] policy set to ${picked.policy}`);
  }

  private async pickPolicy(items: PolicyItem[], placeHolder: string): Promise<PolicyItem | undefined> {
    const answer = this.policyPickAnswer;
    this.policyPickAnswer = undefined;
    if (!answer) return vscode.window.showQuickPick(items, { placeHolder });
    const label = answer(items.map((item) => item.label));
    return items.find((item) => item.label === label);
  }

  private async showHistoryCommand(history: SamplingHistory, argument: unknown): Promise<void> {
    const manager = this.manager();
    if (!manager) return;
    const controller = await resolveServer(manager, argument, { placeHolder: vscode.l10n.t('Select the MCP server whose sampling history to show'), prefer: (server) => history.of(server.name).length > 0 });
    if (!controller) return;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: historyMarkdown(controller.name, history.of(controller.name)) });
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
