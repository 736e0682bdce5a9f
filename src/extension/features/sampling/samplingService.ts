import * as vscode from 'vscode';
import type { SamplingHandler } from '../../../protocol/host';
import type { ChatModelProvider } from '../../../workbench/sampling/chatModel';
import { SamplingCoordinator, type SamplingRecord } from '../../../workbench/sampling/coordinator';
import { maskSecrets } from '../../../workbench/secrets';
import { SamplingPolicies, type SamplingPolicy } from '../../../workbench/sampling/policy';
import { resolveServer } from '../../platform/servers/serverPicker';
import type { ServerManager } from '../../platform/servers/serverManager';
import { SamplingRecords, logRecord, samplingRecordsMarkdown } from './samplingRecords';
import { LanguageModelApiProvider } from './lmProvider';
import type { ReviewPanel } from '../../platform/webviews/reviewPanel';
import { SamplingReviewUi } from './samplingReviewUi';
import { notify } from '../../platform/ui/notifications';
import { EndpointsProvider, GlobalStatePolicyStorage, allowedModelsFor, readEndpoints, secretKey } from './settings';
import { taskToolLookup } from '../../platform/shared/taskToolLookup';
import { addModelEndpointInput } from './endpointInput';

type PolicyItem = vscode.QuickPickItem & { policy: SamplingPolicy };

/** The coordinator's record of a request that found no model to ask (src/workbench/sampling/coordinator.ts). */
const NO_MODEL = 'no model available';

/**
 * Sampling for every server: providers, policies, the review panel's sampling side, the records of this session's exchanges, and the handlers of
 * its three commands. Elicitation shares the review panel but is its own feature (elicitation/).
 */
export class SamplingService implements vscode.Disposable {
  readonly sampling: SamplingHandler;
  readonly coordinator: SamplingCoordinator;
  readonly records = new SamplingRecords();
  readonly policies: SamplingPolicies;
  private readonly disposables: vscode.Disposable[] = [];
  private policyPickAnswer: ((labels: readonly string[]) => string | undefined) | undefined;
  private modelSetupShown = false;
  /**
   * The endpoints of the settings, then VS Code's language models: the providers sampling asks, in that order; evals
   * and the playground offer their models too (the chatModels service).
   */
  readonly providers: readonly ChatModelProvider[];

  constructor(
    private readonly secrets: vscode.SecretStorage,
    globalState: vscode.Memento,
    panel: ReviewPanel,
    private readonly manager: () => ServerManager | undefined,
  ) {
    const records = this.records;
    const endpoints = new EndpointsProvider(secrets);
    const lm = new LanguageModelApiProvider();
    this.providers = [endpoints, lm];
    const storage = new GlobalStatePolicyStorage(globalState);
    const policies = new SamplingPolicies(storage);
    const reviewer = new SamplingReviewUi(panel, taskToolLookup(manager));
    const coordinator = new SamplingCoordinator({
      providers: () => [...this.providers],
      allowedModels: (serverName) => allowedModelsFor(serverName, endpoints),
      policies,
      reviewer,
      record: (record) => {
        records.add(this.masked(record));
        if (record.outcome === 'failed' && record.error === NO_MODEL) this.offerModelSetup(record.serverName);
      },
    });
    reviewer.attach(coordinator.queue);
    this.sampling = coordinator;
    this.coordinator = coordinator;
    this.policies = policies;

    this.disposables.push(
      records,
      storage,
      { dispose: () => coordinator.dispose() },
      records.onDidRecord((record) => {
        const channel = this.channel(record.serverName);
        if (channel) logRecord(channel, record);
      }),
    );
  }

  /**
   * "No language model" names the setting and offers to set one: the server's error alone (in the tool's result)
   * said neither. One notification at a time, however many requests fail meanwhile (a server may ask in a loop).
   */
  private offerModelSetup(serverName: string): void {
    if (this.modelSetupShown) return;
    this.modelSetupShown = true;
    const addEndpoint = vscode.l10n.t('Add Model Endpoint');
    const setKey = vscode.l10n.t('Set Model API Key…');
    void notify(
      'warning',
      vscode.l10n.t(
        'MCP server "{0}" asked for a model completion, but no language model is available. Add an OpenAI-compatible endpoint to the setting mcpWorkbench.sampling.endpoints (then set its API key), or allow one of VS Code\'s chat models for this server (mcpWorkbench.sampling.allowedModels).',
        serverName,
      ),
      addEndpoint,
      setKey,
    ).then((choice) => {
      this.modelSetupShown = false;
      if (choice === addEndpoint) void this.addEndpointCommand();
      else if (choice === setKey) void this.setApiKeyCommand();
    });
  }

  /** Add Model Endpoint: name, base URL, model and API key asked one step at a time (endpointInput.ts). */
  addEndpointCommand(): Promise<unknown> {
    return addModelEndpointInput(this.secrets);
  }

  /** Stores an endpoint's API key exactly as "MCP Workbench: Set Model API Key…" does (undefined deletes it). */
  async storeApiKey(endpointName: string, key: string | undefined): Promise<void> {
    if (key === undefined) await this.secrets.delete(secretKey(endpointName));
    else await this.secrets.store(secretKey(endpointName), key);
  }

  /** Every stored endpoint key (for masking reports). */
  async storedKeys(): Promise<string[]> {
    const keys = await Promise.all(readEndpoints().map((endpoint) => this.secrets.get(secretKey(endpoint.name))));
    return keys.filter((key): key is string => typeof key === 'string' && key !== '');
  }

  /** The next policy quick pick is answered by `choose` instead of the person (one-shot; test hooks only). */
  answerNextPolicyPick(choose: (labels: readonly string[]) => string | undefined): void {
    this.policyPickAnswer = choose;
  }

  /**
   * A record with the server's secrets masked (values from its envFile, `${env:}`, `${input:}` and headers): a
   * server may echo them back in a request, and the records are shown, logged and written to the log file.
   */
  private masked(record: SamplingRecord): SamplingRecord {
    const secrets = (this.manager()?.byName(record.serverName) ?? []).flatMap((controller) =>
      controller.knownSecrets(),
    );
    return maskSecrets(record, secrets);
  }

  /** The identity key of the server a command argument or test names: an identity key as is, else the first by that name. */
  identityKeyFor(serverNameOrKey: string): string {
    if (serverNameOrKey.startsWith('user#') || serverNameOrKey.startsWith('workspace:')) return serverNameOrKey;
    return this.manager()?.byName(serverNameOrKey)[0]?.identityKey ?? `user#${serverNameOrKey}`;
  }

  private channel(serverName: string): vscode.LogOutputChannel | undefined {
    return this.manager()?.byName(serverName)[0]?.log;
  }

  /** MCP Workbench: Set Model API Key… */
  async setApiKeyCommand(): Promise<void> {
    const secrets = this.secrets;
    const endpoints = readEndpoints();
    if (endpoints.length === 0) {
      const add = vscode.l10n.t('Add Model Endpoint');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('No model endpoints are configured. Add one first: its API key is asked with it.'),
        add,
      );
      if (choice === add) await this.addEndpointCommand();
      return;
    }
    const picked = await vscode.window.showQuickPick(
      endpoints.map((endpoint) => ({
        label: endpoint.name,
        description: `${endpoint.model} · ${endpoint.baseUrl}`,
        endpoint,
      })),
      { placeHolder: vscode.l10n.t('Select the model endpoint whose API key to set'), ignoreFocusOut: true },
    );
    if (!picked) return;
    const key = await vscode.window.showInputBox({
      title: vscode.l10n.t('API key for {0}', picked.endpoint.name),
      prompt: vscode.l10n.t(
        "Stored in VS Code's secret storage, never in settings or logs. Leave empty to remove the key.",
      ),
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key === '') {
      await secrets.delete(secretKey(picked.endpoint.name));
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The API key for {0} was removed.', picked.endpoint.name),
      );
    } else {
      await secrets.store(secretKey(picked.endpoint.name), key);
      void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was stored.', picked.endpoint.name));
    }
  }

  /** MCP Workbench: Set Sampling Policy… */
  async setPolicyCommand(argument: unknown): Promise<void> {
    const policies = this.policies;
    const manager = this.manager();
    if (!manager) return;
    const controller = await resolveServer(manager, argument, {
      placeHolder: vscode.l10n.t('Select the MCP server whose sampling policy to set'),
    });
    if (!controller) return;
    const current = policies.get(controller.identityKey);
    const items: PolicyItem[] = [
      { label: vscode.l10n.t('Ask every time'), policy: 'ask' },
      { label: vscode.l10n.t('Allow for this session'), policy: 'session' },
      { label: vscode.l10n.t('Always allow'), policy: 'always' },
      { label: vscode.l10n.t('Never allow'), policy: 'never' },
    ];
    for (const item of items) if (item.policy === current) item.description = vscode.l10n.t('current');
    const picked = await this.pickPolicy(items, vscode.l10n.t('Sampling policy for {0}', controller.name));
    if (!picked) return;
    await policies.set(controller.identityKey, picked.policy);
    controller.log.info(`[sampling] policy set to ${picked.policy}`);
  }

  private async pickPolicy(items: PolicyItem[], placeHolder: string): Promise<PolicyItem | undefined> {
    const answer = this.policyPickAnswer;
    this.policyPickAnswer = undefined;
    if (!answer) return vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true });
    const label = answer(items.map((item) => item.label));
    return items.find((item) => item.label === label);
  }

  /** MCP Workbench: Show Sampling History… */
  /** Opens read-only (`documents` is the `mcp-result:` provider), so closing the tab never asks to save. */
  async showRecordsCommand(
    argument: unknown,
    documents: { show(title: string, markdown: string): Thenable<vscode.TextEditor> },
  ): Promise<void> {
    const records = this.records;
    const manager = this.manager();
    if (!manager) return;
    const controller = await resolveServer(manager, argument, {
      placeHolder: vscode.l10n.t('Select the MCP server whose sampling history to show'),
      prefer: (server) => records.of(server.name).length > 0,
    });
    if (!controller) return;
    await documents.show(
      vscode.l10n.t('Sampling history of {0}', controller.name),
      samplingRecordsMarkdown(controller.name, records.of(controller.name)),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
