/**
 * The MCP authorization flow (OAuth 2.1; spec revisions 2025-03-26 to 2026-07-28) as an HttpAuthorizer: on a
 * 401 it discovers the authorization server, obtains a client identity, runs the grant and retries; on a 403
 * `insufficient_scope` it steps up with the union of the scopes; refresh tokens are used before the person is
 * asked again. oauth4webapi does the OAuth mechanics (PKCE, metadata validation, RFC 9207 `iss`, client
 * authentication, DPoP at the token endpoint); which URL to probe, scope selection and step-up are ours.
 *
 * Tokens are bound to the MCP server they were obtained for: they are only ever sent to that server's origin.
 */
import * as oauth from './oauthLibrary';
import type { ChallengeDecision, HttpAuthChallenge, HttpAuthorizer, HttpAuthRequest } from './authorizer';
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverProtectedResource,
  OAuthFlowError,
  oauthHttpOptions,
  requireSecureUrl,
  type ProtectedResourceMetadata,
} from './discovery';
import { oauthChallengeParams, parseWwwAuthenticate } from './wwwAuthenticate';
import type { AuthorizationUserAgent, AuthStateStore, PersistedAuthState, RegisteredClient, StoredTokens, TokenEndpointAuthMethod } from './types';
import { createDpopKey, dpopProof, type DpopKey } from './dpop';

export { OAuthFlowError } from './discovery';

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
  | { kind: 'enterprise'; idpTokenEndpoint: string; idpClientId: string; idpClientSecret?: string; idToken: () => Promise<string> | string };

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
  fetch?: typeof fetch;
  /** Bounds one authorization (the person's time in the browser included). */
  timeoutMs?: number;
  /** Progress lines; never given tokens or secrets. */
  log?: (line: string) => void;
}

/** Step-up authorizations for the same scopes after a 403 before the authorizer gives up (the spec asks for a retry limit). */
const MAX_STEP_UPS = 3;
/** A token this close to expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 300_000;

interface AuthorizationContext {
  resource: string;
  prm?: ProtectedResourceMetadata;
  as: oauth.AuthorizationServer;
}

export class OAuthAuthorizer implements HttpAuthorizer {
  private readonly fetchFn: typeof fetch;
  private readonly serverOrigin: string;
  private readonly resourceFallback: string;
  private state: PersistedAuthState | undefined;
  private loaded: Promise<void> | undefined;
  /** One authorization at a time: concurrent challenges wait for the one in flight. */
  private inFlight: Promise<ChallengeDecision> | undefined;
  private stepUps = 0;
  private lastStepUpScopes: string | undefined;
  private context: AuthorizationContext | undefined;
  private dpopKey: DpopKey | undefined;
  private dpopHandle: oauth.DPoPHandle | undefined;
  /** The resource server's last DPoP nonce (RFC 9449 §9). */
  private resourceNonce: string | undefined;
  /** The resource server challenged with the DPoP scheme: sender-constrained tokens are what it accepts. */
  private resourceOffersDpop = false;

  constructor(private readonly options: OAuthAuthorizerOptions) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    const url = new URL(options.serverUrl);
    this.serverOrigin = url.origin;
    this.resourceFallback = canonicalResource(options.serverUrl);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private async ensureLoaded(): Promise<PersistedAuthState> {
    this.loaded ??= (async () => {
      const stored = await this.options.store.load(this.options.serverUrl);
      this.state = stored?.version === 1 ? stored : { version: 1, clients: {} };
    })();
    await this.loaded;
    return this.state as PersistedAuthState;
  }

  private async persist(): Promise<void> {
    if (this.state) await this.options.store.save(this.options.serverUrl, this.state);
  }

  async headersFor(request: HttpAuthRequest): Promise<Record<string, string>> {
    const state = await this.ensureLoaded();
    // Tokens go only to the server they were obtained for; never to another origin.
    if (new URL(request.url).origin !== this.serverOrigin) return {};
    let tokens = state.tokens;
    if (!tokens) return {};
    const expiring = (t: StoredTokens | undefined) => t?.expiresAt !== undefined && t.expiresAt - EXPIRY_MARGIN_MS <= Date.now() && t.refreshToken !== undefined;
    if (expiring(tokens)) {
      // Checked again in turn: a request queued behind another one's refresh uses the fresh token.
      await this.serialized(async () => (expiring(this.state?.tokens) && (await this.refresh()) ? 'retry' : 'fail'));
      tokens = this.state?.tokens;
      if (!tokens) return {};
    }
    if (tokens.tokenType === 'dpop') {
      const key = await this.dpop();
      return {
        authorization: `DPoP ${tokens.accessToken}`,
        dpop: await dpopProof(key, request.method, request.url, { accessToken: tokens.accessToken, nonce: this.resourceNonce }),
      };
    }
    return { authorization: `Bearer ${tokens.accessToken}` };
  }

  onChallenge(challenge: HttpAuthChallenge): Promise<ChallengeDecision> {
    // The refused request carried at best the token held now. If another challenge replaced that token
    // while this one waited its turn, the request is simply retried with the new one: one sign-in, not two.
    const tokenAtChallenge = this.state?.tokens?.accessToken;
    return this.serialized(async () => {
      const current = this.state?.tokens?.accessToken;
      if (current !== undefined && current !== tokenAtChallenge && !challenge.dpopNonce) return 'retry';
      return this.handleChallenge(challenge);
    });
  }

  /** Forgets the tokens (sign out); registrations are kept. */
  async signOut(): Promise<void> {
    const state = await this.ensureLoaded();
    delete state.tokens;
    await this.persist();
  }

  private serialized(task: () => Promise<ChallengeDecision>): Promise<ChallengeDecision> {
    const previous = this.inFlight ?? Promise.resolve<ChallengeDecision>('fail');
    const next = previous.catch(() => 'fail' as const).then(task);
    this.inFlight = next.catch(() => 'fail' as const);
    return next;
  }

  private async handleChallenge(challenge: HttpAuthChallenge): Promise<ChallengeDecision> {
    const state = await this.ensureLoaded();
    const params = oauthChallengeParams(challenge.wwwAuthenticate);
    if (parseWwwAuthenticate(challenge.wwwAuthenticate).some((c) => c.scheme === 'dpop')) this.resourceOffersDpop = true;
    if (challenge.dpopNonce && params.error === 'use_dpop_nonce') {
      this.resourceNonce = challenge.dpopNonce;
      return 'retry';
    }
    const challengedScopes = params.scope ? params.scope.split(' ').filter(Boolean) : undefined;
    if (challenge.status === 403) {
      if (params.error !== 'insufficient_scope') return 'fail';
      const held = state.tokens?.scopes ?? [];
      const wanted = [...new Set([...held, ...(challengedScopes ?? [])])];
      // Asking again for the same scopes is what can loop forever (a server that will never be satisfied);
      // a step-up to new scopes starts the count afresh, so a long session may step up as often as it needs.
      const key = [...wanted].sort().join(' ');
      this.stepUps = key === this.lastStepUpScopes ? this.stepUps + 1 : 1;
      this.lastStepUpScopes = key;
      if (this.stepUps > MAX_STEP_UPS) {
        throw new OAuthFlowError(`${this.options.serverName}: still refused for insufficient scope after ${MAX_STEP_UPS} authorizations for ${key || 'the same scopes'}; giving up`);
      }
      this.log(`${this.options.serverName} needs more scope (${params.scope ?? 'unspecified'}); authorizing again with: ${wanted.join(' ') || '(none)'}`);
      await this.authorize(params.resource_metadata, wanted);
      return 'retry';
    }
    // 401: a rejected or missing token. A refresh token is tried before the person is asked again.
    if (state.tokens?.refreshToken && (await this.refresh())) return 'retry';
    await this.authorize(params.resource_metadata, challengedScopes);
    return 'retry';
  }

  private async withTimeout<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const ms = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => controller.abort(new OAuthFlowError(`authorization did not complete within ${ms} ms`)), ms);
    try {
      return await task(controller.signal);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Discovery: protected resource metadata, then its authorization server; 2025-03-26 fallbacks without it. */
  private async discover(resourceMetadataUrl: string | undefined, signal: AbortSignal): Promise<AuthorizationContext> {
    const name = this.options.serverName;
    try {
      return await this.discoverUnnamed(resourceMetadataUrl, signal);
    } catch (error) {
      if (error instanceof OAuthFlowError && !error.message.startsWith(name)) throw new OAuthFlowError(`${name}: ${error.message}`);
      throw error;
    }
  }

  private async discoverUnnamed(resourceMetadataUrl: string | undefined, signal: AbortSignal): Promise<AuthorizationContext> {
    const name = this.options.serverName;
    const prm = await discoverProtectedResource(this.fetchFn, this.options.serverUrl, resourceMetadataUrl, signal);
    if (prm) {
      const issuer = prm.authorizationServers[0];
      if (!issuer) throw new OAuthFlowError(`${name}: the protected resource metadata at ${prm.url} names no authorization server`);
      const as = await discoverAuthorizationServer(this.fetchFn, issuer, signal);
      if (!as) throw new OAuthFlowError(`${name}: the authorization server ${issuer} publishes no metadata (tried RFC 8414 and OpenID Connect locations)`);
      this.log(`${name}: protected resource ${prm.resource}, authorization server ${as.issuer}`);
      return { resource: prm.resource, prm, as: this.checkEndpoints(as) };
    }
    // 2025-03-26: no protected resource metadata; the MCP server's origin is the authorization server.
    const origin = this.serverOrigin;
    const as = (await discoverAuthorizationServer(this.fetchFn, origin, signal)) ?? {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
    };
    this.log(`${name}: no protected resource metadata; using the 2025-03-26 discovery at ${origin}`);
    return { resource: this.resourceFallback, as: this.checkEndpoints(as) };
  }

  private checkEndpoints(as: oauth.AuthorizationServer): oauth.AuthorizationServer {
    for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
      const value = as[key];
      if (value === undefined) continue;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw new OAuthFlowError(`${this.options.serverName}: the authorization server's ${key} is not a URL`);
      }
      requireSecureUrl(url, `${this.options.serverName}: the authorization server's ${key}`);
    }
    return as;
  }

  private scopeFor(context: AuthorizationContext, challenged: string[] | undefined): string[] {
    let scopes = challenged ?? context.prm?.scopesSupported ?? this.options.scopes ?? [];
    const advertised = context.as.scopes_supported ?? [];
    // offline_access is only asked for where the authorization server lists it (MCP 2026-07-28, SEP-2207).
    scopes = scopes.filter((s) => s !== 'offline_access' || advertised.includes('offline_access'));
    if (advertised.includes('offline_access') && this.grant().kind === 'authorization-code' && !scopes.includes('offline_access') && scopes.length > 0) {
      scopes = [...scopes, 'offline_access'];
    }
    return scopes;
  }

  private grant(): OAuthGrant {
    return this.options.grant ?? { kind: 'authorization-code' };
  }

  private async authorize(resourceMetadataUrl: string | undefined, challengedScopes: string[] | undefined): Promise<void> {
    await this.withTimeout(async (signal) => {
      const state = await this.ensureLoaded();
      const context = await this.discover(resourceMetadataUrl, signal);
      const previousIssuer = state.tokens?.issuer ?? this.context?.as.issuer;
      if (previousIssuer !== undefined && previousIssuer !== context.as.issuer) {
        // The resource moved to another authorization server: nothing from the old one is reused (SEP-2352).
        this.log(`${this.options.serverName}: the authorization server changed from ${previousIssuer} to ${context.as.issuer}; registering again`);
        delete state.clients[previousIssuer];
        delete state.tokens;
      }
      this.context = context;
      const scopes = this.scopeFor(context, challengedScopes);
      const grant = this.grant();
      let tokens: oauth.TokenEndpointResponse;
      switch (grant.kind) {
        case 'authorization-code':
          tokens = await this.authorizationCode(context, scopes, signal);
          break;
        case 'client-credentials':
          tokens = await this.clientCredentials(context, scopes, signal);
          break;
        case 'jwt-bearer':
          tokens = await this.jwtBearer(context, scopes, await grant.assertion(), signal);
          break;
        case 'enterprise':
          tokens = await this.enterprise(context, scopes, grant, signal);
          break;
        default: {
          const exhaustive: never = grant;
          throw new OAuthFlowError(`unknown grant ${JSON.stringify(exhaustive)}`);
        }
      }
      await this.keepTokens(context, tokens, scopes);
      this.log(`${this.options.serverName}: signed in${scopes.length ? ` (scope ${scopes.join(' ')})` : ''}`);
    });
  }

  private async keepTokens(context: AuthorizationContext, response: oauth.TokenEndpointResponse, requested: string[]): Promise<void> {
    const state = await this.ensureLoaded();
    const tokenType = response.token_type.toLowerCase();
    if (tokenType !== 'bearer' && tokenType !== 'dpop') throw new OAuthFlowError(`${this.options.serverName}: the authorization server issued an unsupported token type ${JSON.stringify(response.token_type)}`);
    state.tokens = {
      issuer: context.as.issuer,
      resource: context.resource,
      accessToken: response.access_token,
      tokenType,
      refreshToken: response.refresh_token ?? state.tokens?.refreshToken,
      expiresAt: typeof response.expires_in === 'number' ? Date.now() + response.expires_in * 1000 : undefined,
      scopes: typeof response.scope === 'string' && response.scope ? [...new Set([...response.scope.split(' ').filter(Boolean), ...requested])] : requested,
    };
    await this.persist();
  }

  /** The DPoP key of this authorizer's lifetime, when the authorization server supports DPoP with ES256. */
  private async dpop(): Promise<DpopKey> {
    this.dpopKey ??= await createDpopKey();
    return this.dpopKey;
  }

  /**
   * DPoP is used where both sides want it: the resource server challenged with the DPoP scheme or requires
   * bound tokens (RFC 9728), and the authorization server signs with ES256. A Bearer-only resource server would
   * refuse a DPoP-bound token, so an authorization server's support alone is not enough.
   */
  private async dpopOptions(as: oauth.AuthorizationServer, client: oauth.Client): Promise<{ DPoP?: oauth.DPoPHandle }> {
    const resourceWants = this.resourceOffersDpop || this.context?.prm?.dpopBoundAccessTokensRequired === true;
    if (!resourceWants || !as.dpop_signing_alg_values_supported?.includes('ES256')) return {};
    const key = await this.dpop();
    this.dpopHandle ??= oauth.DPoP(client, key.pair);
    return { DPoP: this.dpopHandle };
  }

  /** A token endpoint call, repeated once with the authorization server's DPoP nonce when it asks for one. */
  private async tokenCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (oauth.isDPoPNonceError(error)) return call();
      throw error;
    }
  }

  private async clientIdentity(context: AuthorizationContext, redirectUri: string | undefined, signal: AbortSignal): Promise<RegisteredClient> {
    const state = await this.ensureLoaded();
    const { as } = context;
    const supported = as.token_endpoint_auth_methods_supported;
    const configured = this.options.client;
    if (configured) {
      const authMethod =
        configured.authMethod ??
        (configured.privateKeyPem
          ? 'private_key_jwt'
          : configured.clientSecret === undefined
            ? 'none'
            : !supported || supported.includes('client_secret_basic')
              ? 'client_secret_basic'
              : supported.includes('client_secret_post')
                ? 'client_secret_post'
                : 'client_secret_basic');
      return { issuer: as.issuer, clientId: configured.clientId, clientSecret: configured.clientSecret, authMethod, source: 'configured' };
    }
    if (this.options.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
      return { issuer: as.issuer, clientId: this.options.clientMetadataUrl, authMethod: 'none', source: 'metadata-document' };
    }
    const known = state.clients[as.issuer];
    if (known && (!redirectUri || sameRedirectTarget(known.redirectUris ?? [], redirectUri))) return known;
    if (!as.registration_endpoint) {
      throw new OAuthFlowError(
        `${this.options.serverName}: the authorization server ${as.issuer} offers no dynamic client registration${as.client_id_metadata_document_supported ? ' and no client metadata document is configured' : ''}; configure a client id ("oauth": {"clientId": …})`,
      );
    }
    const wantedMethod: TokenEndpointAuthMethod = !supported || supported.includes('none') ? 'none' : supported.includes('client_secret_basic') ? 'client_secret_basic' : 'client_secret_post';
    const metadata: Partial<oauth.Client> = {
      client_name: this.options.clientName ?? 'MCP Workbench',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: wantedMethod,
      application_type: 'native',
      ...(redirectUri ? { redirect_uris: [redirectUri] } : {}),
    };
    // Registration is done by hand rather than with oauth4webapi: its response check insists on optional
    // fields (client_secret_expires_at) that real servers, the suite's included, leave out.
    let registered: { client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown };
    try {
      const endpoint = new URL(as.registration_endpoint);
      const response = await this.fetchFn(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(metadata),
        redirect: 'manual',
        signal,
      });
      const text = await response.text();
      if (response.status !== 201 && response.status !== 200) throw new OAuthFlowError(`HTTP ${response.status}${registrationError(text)}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new OAuthFlowError('the response is not JSON');
      }
      if (typeof body !== 'object' || body === null || typeof (body as Record<string, unknown>).client_id !== 'string') throw new OAuthFlowError('the response has no client_id');
      registered = body as typeof registered;
    } catch (error) {
      throw new OAuthFlowError(`${this.options.serverName}: dynamic client registration at ${as.registration_endpoint} failed: ${describeOAuthError(error)}`);
    }
    const method = (registered.token_endpoint_auth_method as TokenEndpointAuthMethod | undefined) ?? (registered.client_secret ? 'client_secret_basic' : 'none');
    const client: RegisteredClient = {
      issuer: as.issuer,
      clientId: registered.client_id,
      clientSecret: typeof registered.client_secret === 'string' ? registered.client_secret : undefined,
      authMethod: method,
      source: 'dynamic-registration',
      redirectUris: redirectUri ? [redirectUri] : [],
    };
    state.clients[as.issuer] = client;
    await this.persist();
    this.log(`${this.options.serverName}: registered as a client of ${as.issuer}`);
    return client;
  }

  private async clientAuth(client: RegisteredClient): Promise<oauth.ClientAuth> {
    switch (client.authMethod) {
      case 'client_secret_basic':
        return clientSecretBasic(client.clientSecret ?? '');
      case 'client_secret_post':
        return oauth.ClientSecretPost(client.clientSecret ?? '');
      case 'none':
        return oauth.None();
      case 'private_key_jwt': {
        const configured = this.options.client;
        if (!configured?.privateKeyPem) throw new OAuthFlowError(`${this.options.serverName}: private_key_jwt needs a private key`);
        return oauth.PrivateKeyJwt(await importPrivateKey(configured.privateKeyPem, configured.signingAlgorithm ?? 'ES256'));
      }
      default: {
        const exhaustive: never = client.authMethod;
        throw new OAuthFlowError(`${this.options.serverName}: unsupported token endpoint authentication ${String(exhaustive)}`);
      }
    }
  }

  private async authorizationCode(context: AuthorizationContext, scopes: string[], signal: AbortSignal): Promise<oauth.TokenEndpointResponse> {
    const { as } = context;
    const name = this.options.serverName;
    if (!as.authorization_endpoint) throw new OAuthFlowError(`${name}: the authorization server ${as.issuer} has no authorization endpoint`);
    const agent = this.options.userAgent;
    if (!agent) throw new OAuthFlowError(`${name} requires signing in, and this session cannot open a browser`);
    const pending = await agent.prepare();
    try {
      const registered = await this.clientIdentity(context, pending.redirectUri, signal);
      const client: oauth.Client = { client_id: registered.clientId };
      const verifier = oauth.generateRandomCodeVerifier();
      const stateParam = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', registered.clientId);
      url.searchParams.set('redirect_uri', pending.redirectUri);
      url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', stateParam);
      url.searchParams.set('resource', context.resource);
      if (scopes.length) url.searchParams.set('scope', scopes.join(' '));
      this.log(`${name}: authorization at ${url.origin}${url.pathname}`);
      const callback = await pending.complete(url, signal, { issuer: as.issuer });
      let params: URLSearchParams;
      try {
        params = oauth.validateAuthResponse(as, client, callback, stateParam);
      } catch (error) {
        throw new OAuthFlowError(`${name}: the authorization response was rejected: ${describeOAuthError(error)}`);
      }
      const auth = await this.clientAuth(registered);
      const dpop = await this.dpopOptions(as, client);
      try {
        const response = await this.tokenCall(async () => {
          const r = await oauth.authorizationCodeGrantRequest(as, client, auth, params, pending.redirectUri, verifier, {
            additionalParameters: { resource: context.resource },
            ...oauthHttpOptions(new URL(as.token_endpoint ?? as.issuer)),
            ...dpop,
            signal,
          });
          return oauth.processAuthorizationCodeResponse(as, client, r);
        });
        return response;
      } catch (error) {
        throw new OAuthFlowError(`${name}: the token request to ${as.token_endpoint} failed: ${describeOAuthError(error)}`);
      }
    } finally {
      pending.dispose();
    }
  }

  private configuredClient(context: AuthorizationContext, what: string): RegisteredClient {
    const configured = this.options.client;
    if (!configured) throw new OAuthFlowError(`${this.options.serverName}: ${what} needs a configured client id and credentials`);
    const supported = context.as.token_endpoint_auth_methods_supported;
    const authMethod: TokenEndpointAuthMethod =
      configured.authMethod ??
      (configured.privateKeyPem ? 'private_key_jwt' : supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic');
    return { issuer: context.as.issuer, clientId: configured.clientId, clientSecret: configured.clientSecret, authMethod, source: 'configured' };
  }

  private async clientCredentials(context: AuthorizationContext, scopes: string[], signal: AbortSignal): Promise<oauth.TokenEndpointResponse> {
    const { as } = context;
    const registered = this.configuredClient(context, 'the client credentials grant');
    const client: oauth.Client = { client_id: registered.clientId };
    const auth = await this.clientAuth(registered);
    const parameters: Record<string, string> = { resource: context.resource, ...(scopes.length ? { scope: scopes.join(' ') } : {}) };
    const dpop = await this.dpopOptions(as, client);
    try {
      return await this.tokenCall(async () => {
        const r = await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, { ...oauthHttpOptions(new URL(as.token_endpoint ?? as.issuer)), ...dpop, signal });
        return oauth.processClientCredentialsResponse(as, client, r);
      });
    } catch (error) {
      throw new OAuthFlowError(`${this.options.serverName}: the client credentials request to ${as.token_endpoint} failed: ${describeOAuthError(error)}`);
    }
  }

  private async jwtBearer(context: AuthorizationContext, scopes: string[], assertion: string, signal: AbortSignal): Promise<oauth.TokenEndpointResponse> {
    const { as } = context;
    const registered = this.options.client ? this.configuredClient(context, 'the JWT bearer grant') : undefined;
    const client: oauth.Client = { client_id: registered?.clientId ?? '' };
    const auth = registered ? await this.clientAuth(registered) : oauth.None();
    const parameters: Record<string, string> = { assertion, resource: context.resource, ...(scopes.length ? { scope: scopes.join(' ') } : {}) };
    const dpop = await this.dpopOptions(as, client);
    try {
      return await this.tokenCall(async () => {
        const r = await oauth.genericTokenEndpointRequest(as, client, auth, 'urn:ietf:params:oauth:grant-type:jwt-bearer', parameters, {
          ...oauthHttpOptions(new URL(as.token_endpoint ?? as.issuer)),
          ...dpop,
          signal,
        });
        return oauth.processGenericTokenEndpointResponse(as, client, r);
      });
    } catch (error) {
      throw new OAuthFlowError(`${this.options.serverName}: the JWT bearer grant at ${as.token_endpoint} failed: ${describeOAuthError(error)}`);
    }
  }

  private async enterprise(context: AuthorizationContext, scopes: string[], grant: Extract<OAuthGrant, { kind: 'enterprise' }>, signal: AbortSignal): Promise<oauth.TokenEndpointResponse> {
    const name = this.options.serverName;
    const idpEndpoint = new URL(grant.idpTokenEndpoint);
    requireSecureUrl(idpEndpoint, `${name}: the identity provider's token endpoint`);
    // RFC 8693 token exchange at the enterprise IdP: ID token in, ID-JAG out.
    const idp: oauth.AuthorizationServer = { issuer: idpEndpoint.origin, token_endpoint: idpEndpoint.href };
    const idpClient: oauth.Client = { client_id: grant.idpClientId };
    const idpAuth = grant.idpClientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(grant.idpClientSecret);
    let jag: string;
    try {
      const r = await oauth.genericTokenEndpointRequest(
        idp,
        idpClient,
        idpAuth,
        'urn:ietf:params:oauth:grant-type:token-exchange',
        {
          subject_token: await grant.idToken(),
          subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
          requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          audience: context.as.issuer,
          resource: context.resource,
          ...(scopes.length ? { scope: scopes.join(' ') } : {}),
        },
        { ...oauthHttpOptions(idpEndpoint), signal },
      );
      // The ID-JAG comes back with token_type N_A, which processGenericTokenEndpointResponse rejects: read it here.
      if (!r.ok) throw new OAuthFlowError(`HTTP ${r.status}: ${(await r.text()).slice(0, 300)}`);
      const body = (await r.json()) as Record<string, unknown>;
      if (typeof body.access_token !== 'string' || body.issued_token_type !== 'urn:ietf:params:oauth:token-type:id-jag') {
        throw new OAuthFlowError('the response holds no ID-JAG (issued_token_type urn:ietf:params:oauth:token-type:id-jag)');
      }
      jag = body.access_token;
    } catch (error) {
      throw new OAuthFlowError(`${name}: the token exchange at ${idpEndpoint.href} failed: ${describeOAuthError(error)}`);
    }
    return this.jwtBearer(context, scopes, jag, signal);
  }

  /** Uses the refresh token; false (and the tokens forgotten) when the authorization server refuses it. */
  private async refresh(): Promise<boolean> {
    const state = await this.ensureLoaded();
    const tokens = state.tokens;
    if (!tokens?.refreshToken) return false;
    try {
      await this.withTimeout(async (signal) => {
        const context = this.context?.as.issuer === tokens.issuer ? this.context : await this.discover(undefined, signal);
        if (context.as.issuer !== tokens.issuer) throw new OAuthFlowError(`the authorization server changed to ${context.as.issuer}`);
        this.context = context;
        const registered = this.options.client ? this.configuredClient(context, 'refresh') : state.clients[tokens.issuer] ?? (await this.clientIdentity(context, undefined, signal));
        const client: oauth.Client = { client_id: registered.clientId };
        const auth = await this.clientAuth(registered);
        const dpop = await this.dpopOptions(context.as, client);
        const response = await this.tokenCall(async () => {
          const r = await oauth.refreshTokenGrantRequest(context.as, client, auth, tokens.refreshToken as string, {
            additionalParameters: { resource: tokens.resource },
            ...oauthHttpOptions(new URL(context.as.token_endpoint ?? context.as.issuer)),
            ...dpop,
            signal,
          });
          return oauth.processRefreshTokenResponse(context.as, client, r);
        });
        await this.keepTokens(context, response, tokens.scopes);
      });
      this.log(`${this.options.serverName}: access token refreshed`);
      return true;
    } catch (error) {
      this.log(`${this.options.serverName}: refreshing the access token failed (${describeOAuthError(error)}); signing in again`);
      delete state.tokens;
      await this.persist();
      return false;
    }
  }
}

/**
 * RFC 6749 §2.3.1 HTTP Basic client authentication. The id and secret are form-encoded as URLSearchParams
 * does, which leaves `-._*` as they are: oauth4webapi escapes those too, and servers that skip the decoding
 * step (common, the conformance suite's included) then see a different client id.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    const credentials = new TextEncoder().encode(`${encode(client.client_id)}:${encode(secret)}`);
    let binary = '';
    for (const byte of credentials) binary += String.fromCharCode(byte);
    headers.set('authorization', `Basic ${btoa(binary)}`);
  };
}

/** The error code and description of a registration refusal (RFC 7591 §3.2.2), for the message. */
function registrationError(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.error === 'string') return `: ${body.error.slice(0, 100)}${typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 300)}` : ''}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return '';
}

function sameRedirectTarget(registered: readonly string[], redirectUri: string): boolean {
  const wanted = new URL(redirectUri);
  return registered.some((uri) => {
    try {
      const known = new URL(uri);
      // RFC 8252 §7.3: a loopback redirect's port varies per run and must be accepted by the server.
      return known.protocol === wanted.protocol && known.hostname === wanted.hostname && known.pathname === wanted.pathname;
    } catch {
      return false;
    }
  });
}

/** An OAuth error as text for a person: the server's error code and description, never a token. */
export function describeOAuthError(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) return `${error.error}${error.error_description ? `: ${error.error_description.slice(0, 300)}` : ''} (HTTP ${error.status})`;
  if (error instanceof oauth.AuthorizationResponseError) return `${error.error}${error.error_description ? `: ${error.error_description.slice(0, 300)}` : ''}`;
  if (error instanceof oauth.WWWAuthenticateChallengeError) return `HTTP ${error.status} challenge`;
  if (error instanceof Error) return error.message;
  return String(error);
}

const KEY_ALGORITHMS: Record<string, EcKeyImportParams | RsaHashedImportParams> = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  ES384: { name: 'ECDSA', namedCurve: 'P-384' },
  RS256: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
};

async function importPrivateKey(pem: string, algorithm: string): Promise<CryptoKey> {
  const params = KEY_ALGORITHMS[algorithm];
  if (!params) throw new OAuthFlowError(`unsupported signing algorithm ${algorithm} (supported: ${Object.keys(KEY_ALGORITHMS).join(', ')})`);
  const base64 = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  const der = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return crypto.subtle.importKey('pkcs8', der, params, false, ['sign']);
}
