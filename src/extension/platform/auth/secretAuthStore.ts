import type * as vscode from 'vscode';
import type { AuthStateStore, PersistedAuthState } from '../../../protocol/auth/types';
import { isObject } from '../../../protocol/guards';

const STATE_KEY = (serverUrl: string) => `mcpWorkbench.oauth:${serverUrl}`;
/** Which server URLs have state, and the name each was last used under (for the Accounts menu). */
const INDEX_KEY = 'mcpWorkbench.oauth.index';

/** One server's OAuth state as the Accounts menu sees it. */
export interface SignedInServer {
  serverUrl: string;
  serverName: string;
  issuer: string;
  scopes: string[];
}

/**
 * OAuth state (tokens, dynamic client registrations) in VS Code's SecretStorage, one secret per MCP server URL,
 * never in settings or workspace state. It also remembers every token and client secret it has seen in this
 * session, so the servers' logs and traces can mask them by value.
 */
export class SecretAuthStore implements AuthStateStore {
  private readonly names = new Map<string, string>();
  private readonly seenSecrets = new Set<string>();
  private changeListeners: (() => void)[] = [];

  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The store for one server, recording the name it is shown under. */
  forServer(serverName: string): AuthStateStore {
    return {
      load: async (serverUrl) => {
        this.names.set(serverUrl, serverName);
        return this.load(serverUrl);
      },
      save: async (serverUrl, state) => {
        this.names.set(serverUrl, serverName);
        await this.save(serverUrl, state);
      },
    };
  }

  async load(serverUrl: string): Promise<PersistedAuthState | undefined> {
    const text = await this.secrets.get(STATE_KEY(serverUrl));
    if (text === undefined) return undefined;
    try {
      const state = JSON.parse(text) as PersistedAuthState;
      this.remember(state);
      return state;
    } catch {
      return undefined;
    }
  }

  async save(serverUrl: string, state: PersistedAuthState): Promise<void> {
    this.remember(state);
    await this.secrets.store(STATE_KEY(serverUrl), JSON.stringify(state));
    const index = await this.index();
    index[serverUrl] = this.names.get(serverUrl) ?? index[serverUrl] ?? new URL(serverUrl).host;
    await this.secrets.store(INDEX_KEY, JSON.stringify(index));
    this.fireChange();
  }

  /** Forgets one server's tokens (Sign Out); its client registrations stay, so signing in again reuses the client (the CLI's logout, a cache in files, forgets both). */
  async forgetTokens(serverUrl: string): Promise<boolean> {
    const state = await this.load(serverUrl);
    if (!state?.tokens) return false;
    delete state.tokens;
    await this.save(serverUrl, state);
    return true;
  }

  /** The servers holding tokens now. */
  async signedIn(): Promise<SignedInServer[]> {
    const index = await this.index();
    const servers: SignedInServer[] = [];
    for (const [serverUrl, serverName] of Object.entries(index)) {
      const tokens = (await this.load(serverUrl))?.tokens;
      if (tokens)
        servers.push({
          serverUrl,
          serverName: this.names.get(serverUrl) ?? serverName,
          issuer: tokens.issuer,
          scopes: tokens.scopes,
        });
    }
    return servers;
  }

  /** Every token and client secret seen in this session, for masking by value. */
  knownSecrets(): string[] {
    return [...this.seenSecrets];
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.changeListeners.push(listener);
    return { dispose: () => (this.changeListeners = this.changeListeners.filter((other) => other !== listener)) };
  }

  private fireChange(): void {
    for (const listener of this.changeListeners) listener();
  }

  private async index(): Promise<Record<string, string>> {
    const text = await this.secrets.get(INDEX_KEY);
    if (!text) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      return isObject(parsed) ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  private remember(state: PersistedAuthState): void {
    const values = [
      state.tokens?.accessToken,
      state.tokens?.refreshToken,
      ...Object.values(state.clients ?? {}).map((client) => client.clientSecret),
    ];
    for (const value of values) if (typeof value === 'string' && value.length > 0) this.seenSecrets.add(value);
  }
}
