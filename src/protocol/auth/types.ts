/**
 * The host services the OAuth authorizer needs: where its state lives and how the person (or a headless
 * driver) gets through the authorization endpoint. The CLI supplies a file store and a loopback listener
 * plus BROWSER; the extension will supply SecretStorage and a consent dialog.
 */

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

/** A client identity at one authorization server. */
export interface RegisteredClient {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  authMethod: TokenEndpointAuthMethod;
  /** How the identity was obtained; a configured one is never stored. */
  source: 'dynamic-registration' | 'metadata-document' | 'configured';
  /** The redirect URIs the registration was made with (a loopback port may differ per run, RFC 8252 §7.3). */
  redirectUris?: string[];
}

export interface StoredTokens {
  /** The authorization server that issued them and the resource they are bound to (RFC 8707). */
  issuer: string;
  resource: string;
  accessToken: string;
  tokenType: 'bearer' | 'dpop';
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt?: number;
  /** When the access token was received (epoch ms): with expiresAt, its lifetime, which bounds the refresh margin. */
  obtainedAt?: number;
  /** The scopes requested (or granted, when the server said) for these tokens. */
  scopes: string[];
}

/** Everything persisted for one MCP server (keyed by its URL). */
export interface PersistedAuthState {
  version: 1;
  /** Dynamically registered clients, by authorization server issuer. */
  clients: Record<string, RegisteredClient>;
  tokens?: StoredTokens;
}

export interface AuthStateStore {
  load(serverUrl: string): Promise<PersistedAuthState | undefined>;
  save(serverUrl: string, state: PersistedAuthState): Promise<void>;
}

/** An in-memory store: state lives as long as the authorizer (headless runs, tests). */
export function memoryAuthStore(): AuthStateStore {
  const states = new Map<string, string>();
  return {
    load: async (key) => {
      const text = states.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as PersistedAuthState);
    },
    save: async (key, state) => {
      states.set(key, JSON.stringify(state));
    },
  };
}

/** One authorization in progress: its redirect URI is fixed before registration and the request are made. */
export interface PendingAuthorization {
  readonly redirectUri: string;
  /**
   * Sends the person (or a headless driver) to the authorization URL and resolves with the URL the
   * authorization server redirected to (its query holds code, state, iss or error). `about` names the
   * authorization server (its validated issuer), so a host can say who the person is sent to before it opens.
   */
  complete(authorizationUrl: URL, signal: AbortSignal, about: AuthorizationAbout): Promise<URL>;
  dispose(): void;
}

/** What a user agent is told about the authorization it completes. */
interface AuthorizationAbout {
  /** The authorization server's issuer identifier, from its validated metadata. */
  issuer: string;
}

export interface AuthorizationUserAgent {
  /** Prepares to receive one redirect (for example starts a loopback listener). */
  prepare(): Promise<PendingAuthorization>;
}
