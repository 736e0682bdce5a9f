import * as vscode from 'vscode';
import type { ChatModelProvider, ChatRequest, ChatResponse, ModelInfo } from '../../../workbench/sampling/chatModel';
import { OpenAiCompatibleProvider } from '../../../workbench/sampling/openaiProvider';
import { SAMPLING_POLICIES, type PolicyStorage, type SamplingPolicy } from '../../../workbench/sampling/policy';
import { isBareNameKey, lookupByIdentity } from '../../../workbench/serverIdentity';

/**
 * Sampling settings. All of them are application-scoped: a workspace must not be able to pre-approve its own
 * servers, widen their models, or send prompts to an endpoint of its choosing.
 * - mcpWorkbench.sampling.endpoints: OpenAI-compatible endpoints; their API keys live in SecretStorage only.
 * - mcpWorkbench.sampling.allowedModels: server → endpoint names or model ids it may use.
 * - mcpWorkbench.sampling.policy: server → ask | always | never (a baseline the panel can override).
 * Servers are named by identity (`user#name`, `workspace:/path/.vscode/mcp.json#name`, see serverIdentity.ts); a
 * bare name applies to the user-level server of that name only, never to a workspace server that borrows it.
 */

const SECTION = 'mcpWorkbench.sampling';

interface EndpointSetting {
  name: string;
  baseUrl: string;
  model: string;
  images?: boolean;
  audio?: boolean;
  tools?: boolean;
}

/** The setting as it is, entries this code does not read included (they are kept when one is added). */
export function readEndpointsSetting(): unknown[] {
  const raw = vscode.workspace.getConfiguration(SECTION).get<unknown>('endpoints', []);
  return Array.isArray(raw) ? [...(raw as unknown[])] : [];
}

/**
 * Writes the endpoints to the user's settings. Only there: the setting is application-scoped, so VS Code reads no
 * workspace value of it (a cloned repository must not choose where prompts are sent).
 */
export async function writeUserEndpoints(endpoints: unknown[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('endpoints', endpoints, vscode.ConfigurationTarget.Global);
}

export function readEndpoints(): EndpointSetting[] {
  return readEndpointsSetting().filter((item): item is EndpointSetting => {
    if (typeof item !== 'object' || item === null) return false;
    const candidate = item as Record<string, unknown>;
    return (
      typeof candidate.name === 'string' && typeof candidate.baseUrl === 'string' && typeof candidate.model === 'string'
    );
  });
}

export function secretKey(endpointName: string): string {
  return `${SECTION}.apiKey.${endpointName}`;
}

/** Every configured endpoint as one provider; the API key is read from SecretStorage for each call. */
export class EndpointsProvider implements ChatModelProvider {
  readonly id = 'openai-endpoints';
  private readonly byModelId = new Map<string, EndpointSetting>();

  constructor(private readonly secrets: vscode.SecretStorage) {}

  async listModels(): Promise<ModelInfo[]> {
    this.byModelId.clear();
    const models: ModelInfo[] = [];
    for (const endpoint of readEndpoints()) {
      let listed: ModelInfo[];
      try {
        listed = await new OpenAiCompatibleProvider(endpoint).listModels();
      } catch {
        continue; // an invalid base URL hides that endpoint only
      }
      for (const model of listed) {
        this.byModelId.set(model.id, endpoint);
        models.push({ ...model, providerLabel: endpoint.name });
      }
    }
    return models;
  }

  async complete(
    model: ModelInfo,
    request: ChatRequest,
    signal: AbortSignal,
    onText?: (delta: string) => void,
  ): Promise<ChatResponse> {
    const endpoint = this.byModelId.get(model.id);
    if (!endpoint) throw new Error(`endpoint for ${model.id} is no longer configured`);
    const apiKey = await this.secrets.get(secretKey(endpoint.name));
    return new OpenAiCompatibleProvider({ ...endpoint, apiKey }).complete(model, request, signal, onText);
  }

  /** Model ids of the named endpoints, for allowedModels entries that name an endpoint. */
  modelIdsForEndpoint(name: string): string[] {
    return [...this.byModelId.entries()].filter(([, endpoint]) => endpoint.name === name).map(([id]) => id);
  }
}

/**
 * The models a server may use: entries of mcpWorkbench.sampling.allowedModels[server identity] naming an endpoint
 * or a model id (e.g. "vscode-lm:copilot/gpt-4o"). No entry for the server means every model.
 */
export function allowedModelsFor(serverKey: string, endpoints: EndpointsProvider): string[] | undefined {
  const map = vscode.workspace.getConfiguration(SECTION).get<Record<string, unknown>>('allowedModels', {});
  const entries = lookupByIdentity(map ?? {}, serverKey);
  if (!Array.isArray(entries)) return undefined;
  const ids: string[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'string') continue;
    ids.push(entry, ...endpoints.modelIdsForEndpoint(entry));
  }
  return ids;
}

const STATE_KEY = `${SECTION}.policies`;

/**
 * Persistent policies: the last choice made in the review panel or with "MCP Workbench: Set Sampling Policy…" (global
 * state) wins over the mcpWorkbench.sampling.policy setting; changing the setting for a server clears that
 * server's stored choice so the edit takes effect.
 */
export class GlobalStatePolicyStorage implements PolicyStorage, vscode.Disposable {
  private readonly subscription: vscode.Disposable;
  private lastSetting: Record<string, unknown>;

  constructor(private readonly state: vscode.Memento) {
    this.migrateNameKeys();
    this.lastSetting = settingPolicies();
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(`${SECTION}.policy`)) return;
      const next = settingPolicies();
      const stored = { ...this.stored() };
      for (const server of new Set([...Object.keys(next), ...Object.keys(this.lastSetting)])) {
        if (next[server] === this.lastSetting[server]) continue;
        delete stored[server];
        // A bare name in the setting stands for the user-level server of that name.
        if (isBareNameKey(server)) delete stored[`user#${server}`];
      }
      this.lastSetting = next;
      void this.state.update(STATE_KEY, stored);
    });
  }

  /** `serverKey` is the server's identity; stored choices are kept under it alone (see migrateNameKeys). */
  get(serverKey: string): SamplingPolicy | undefined {
    const stored = this.stored();
    const choice = Object.hasOwn(stored, serverKey) ? stored[serverKey] : undefined;
    if (isPersistentPolicy(choice)) return choice;
    const setting = lookupByIdentity(settingPolicies(), serverKey);
    return isPersistentPolicy(setting) ? setting : undefined;
  }

  async set(server: string, policy: Exclude<SamplingPolicy, 'session'> | undefined): Promise<void> {
    const stored = { ...this.stored() };
    // "ask" is stored explicitly so it can override an "always" from the setting.
    stored[server] = policy ?? 'ask';
    await this.state.update(STATE_KEY, stored);
  }

  private stored(): Record<string, string> {
    return this.state.get<Record<string, string>>(STATE_KEY, {});
  }

  /**
   * Choices stored before identities were keyed by display name. They were made for whichever server had that name;
   * the only safe owner is the user-level server, so each moves to `user#name` and no workspace server inherits it.
   */
  private migrateNameKeys(): void {
    const stored = this.stored();
    const bareNames = Object.keys(stored).filter(isBareNameKey);
    if (bareNames.length === 0) return;
    const migrated: Record<string, string> = {};
    for (const [key, value] of Object.entries(stored)) {
      if (!isBareNameKey(key)) migrated[key] = value;
    }
    for (const name of bareNames) {
      const key = `user#${name}`;
      if (!Object.hasOwn(migrated, key)) migrated[key] = stored[name];
    }
    void this.state.update(STATE_KEY, migrated);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

function settingPolicies(): Record<string, unknown> {
  return vscode.workspace.getConfiguration(SECTION).get<Record<string, unknown>>('policy', {}) ?? {};
}

function isPersistentPolicy(value: unknown): value is Exclude<SamplingPolicy, 'session'> {
  return typeof value === 'string' && value !== 'session' && (SAMPLING_POLICIES as readonly string[]).includes(value);
}
