/** What an OAuthAuthorizer is built from: the server, the host's store and user agent, the client identity, the grant. */
import type { PersonWaits } from '../jsonrpc/personWaits';
import type { SignInObserver } from './signInSteps';
import type { AuthorizationUserAgent, AuthStateStore, TokenEndpointAuthMethod } from './types';

/** A client identity from configuration (VS Code's `oauth.clientId`, plus a secret for confidential clients). */
export interface ConfiguredClient {
  clientId: string;
  clientSecret?: string;
  authMethod?: TokenEndpointAuthMethod;
  /** PKCS#8 PEM private key for `private_key_jwt`. */
  privateKeyPem?: string;
  signingAlgorithm?: string;
}

/** Which grant obtains the access token. */
export type OAuthGrant =
  /** Authorization code with PKCE through the user agent (the default). */
  | { kind: 'authorization-code' }
  /** Client credentials (machine-to-machine; needs a configured confidential client). */
  | { kind: 'client-credentials' }
  /** RFC 7523 JWT bearer with a workload identity assertion. */
  | { kind: 'jwt-bearer'; assertion: () => Promise<string> | string }
  /**
   * Enterprise-managed authorization: exchange the enterprise IdP's ID token for an ID-JAG at the IdP
   * (RFC 8693), then present it to the MCP authorization server as a JWT bearer grant.
   */
  | {
      kind: 'enterprise';
      idpTokenEndpoint: string;
      idpClientId: string;
      idpClientSecret?: string;
      idToken: () => Promise<string> | string;
    };

export type SignInOutcome = { kind: 'signed-in' } | { kind: 'failed'; error: unknown };

/** A person's sign-in takes minutes, not a request's seconds. */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 300_000;

export interface OAuthAuthorizerOptions {
  /** The MCP server's URL, as configured. */
  serverUrl: string;
  /** For messages. */
  serverName: string;
  store: AuthStateStore;
  userAgent?: AuthorizationUserAgent;
  client?: ConfiguredClient;
  /** A Client ID Metadata Document URL, used where the authorization server supports them. */
  clientMetadataUrl?: string;
  clientName?: string;
  /** Scopes to request when neither the challenge nor the metadata names any. */
  scopes?: string[];
  grant?: OAuthGrant;
  /** The transport's fetch (proxy settings); the global fetch otherwise. */
  fetch?: typeof fetch;
  /** The cap on one metadata, registration or token document (InputLimits.maxDocumentBytes). */
  maxDocumentBytes?: number;
  /**
   * Bounds one sign-in, the person's time at the authorization server included (default 5 minutes). It replaces
   * the request's deadline while the person acts: see `personWaits`.
   */
  signInTimeoutMs?: number;
  /** Ends a sign-in in progress (the person cancelled, the connection closed). */
  signal?: AbortSignal;
  /**
   * The connection's person waits: held while the person is at the authorization server, so the deadline of the
   * request that met the 401 does not run out while they type their password. Pass the client the same object.
   */
  personWaits?: PersonWaits;
  /**
   * Called when a sign-in (not a refresh) ends: its tokens stored, or failed. A host may tell the person, or offer
   * to start what waited for it (a start whose request gave up meanwhile).
   */
  onSignInSettled?: (outcome: SignInOutcome) => void;
  /** Progress lines; never given tokens or secrets. */
  log?: (line: string) => void;
  /**
   * Hears each step of every sign-in and refresh (its HTTP exchanges, the authorization URL, the outcome) and the
   * tokens' life after, raw: the observer masks (SignInRecorder does). Absent, nothing is wrapped.
   */
  steps?: SignInObserver;
}
