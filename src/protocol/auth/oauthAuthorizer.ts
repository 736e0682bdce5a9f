/**
 * The MCP authorization flow (OAuth 2.1; spec revisions 2025-03-26 to 2026-07-28) as an HttpAuthorizer: on a
 * 401 it discovers the authorization server, obtains a client identity, runs the grant and retries; on a 403
 * `insufficient_scope` it steps up with the union of the scopes; refresh tokens are used before the person is
 * asked again. oauth4webapi does the OAuth mechanics (PKCE, metadata validation, RFC 9207 `iss`, client
 * authentication, DPoP at the token endpoint); which URL to probe, scope selection and step-up are ours.
 *
 * This file is the flow; its parts have files of their own: discovery (authorizationContext.ts, discovery.ts),
 * the client identity and its one authentication method (clientRegistration.ts, clientAuthentication.ts), the
 * grants (grants.ts), the HTTP reads and their caps (oauthHttp.ts), and when to refresh (tokenLifetime.ts).
 *
 * Tokens are bound to the MCP server they were obtained for: they are only ever sent to that server's origin.
 */
import * as oauth from './oauthLibrary';
import type { ChallengeDecision, HttpAuthChallenge, HttpAuthorizer, HttpAuthRequest } from './authorizer';
import { discoverAuthorizationContext, type AuthorizationContext } from './authorizationContext';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, type OAuthAuthorizerOptions, type OAuthGrant } from './authorizerOptions';
import { clientAuthentication } from './clientAuthentication';
import { clientIdentity, configuredIdentity } from './clientRegistration';
import { OAuthFlowError } from './discovery';
import { createDpopKey, dpopProof, type DpopKey } from './dpop';
import {
  authorizationCodeGrant,
  clientCredentialsGrant,
  enterpriseGrant,
  jwtBearerGrant,
  refreshGrant,
  type ClientCredentials,
  type GrantContext,
} from './grants';
import { describeOAuthError } from './oauthErrors';
import { oauthHttp, type OAuthHttp } from './oauthHttp';
import { observedOAuthFetch, observedUserAgent, tokenLifeOf } from './signInSteps';
import { dueForRefresh } from './tokenLifetime';
import type { AuthorizationUserAgent, PersistedAuthState, RegisteredClient } from './types';
import { oauthChallengeParams, parseWwwAuthenticate } from './wwwAuthenticate';

export {
  DEFAULT_SIGN_IN_TIMEOUT_MS,
  type ConfiguredClient,
  type OAuthGrant,
  type SignInOutcome,
} from './authorizerOptions';

/** Step-up authorizations for the same scopes after a 403 before the authorizer gives up (the spec asks for a retry limit). */
const MAX_STEP_UPS = 3;

export class OAuthAuthorizer implements HttpAuthorizer {
  private readonly http: OAuthHttp;
  private readonly userAgent: AuthorizationUserAgent | undefined;
  private readonly serverOrigin: string;
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
    const { steps, userAgent } = options;
    const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.http = oauthHttp(steps ? observedOAuthFetch(fetchFn, steps) : fetchFn, options.maxDocumentBytes);
    this.userAgent = steps && userAgent ? observedUserAgent(userAgent, steps) : userAgent;
    this.serverOrigin = new URL(options.serverUrl).origin;
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private async ensureLoaded(): Promise<PersistedAuthState> {
    this.loaded ??= (async () => {
      const stored = await this.options.store.load(this.options.serverUrl);
      this.state = stored?.version === 1 ? stored : { version: 1, clients: {} };
      this.options.steps?.tokens(tokenLifeOf(this.state.tokens));
    })();
    await this.loaded;
    return this.state as PersistedAuthState;
  }

  private async persist(): Promise<void> {
    if (!this.state) return;
    await this.options.store.save(this.options.serverUrl, this.state);
    this.options.steps?.tokens(tokenLifeOf(this.state.tokens));
  }

  /** The tokens' life as held now (loaded from the store first). */
  async tokenLife(): Promise<ReturnType<typeof tokenLifeOf>> {
    return tokenLifeOf((await this.ensureLoaded()).tokens);
  }

  /**
   * Refresh Now: uses the refresh token at once, in turn with any sign-in in flight. False when no refresh token is
   * held or the authorization server refused it (then the tokens are forgotten, as on any refused refresh).
   */
  async refreshNow(): Promise<boolean> {
    return (await this.serialized(async () => ((await this.refresh()) ? 'retry' : 'fail'))) === 'retry';
  }

  async headersFor(request: HttpAuthRequest): Promise<Record<string, string>> {
    const state = await this.ensureLoaded();
    // Tokens go only to the server they were obtained for; never to another origin.
    if (new URL(request.url).origin !== this.serverOrigin) return {};
    let tokens = state.tokens;
    if (!tokens) return {};
    if (dueForRefresh(tokens)) {
      // Checked again in turn: a request queued behind another one's refresh uses the fresh token.
      await this.serialized(async () =>
        dueForRefresh(this.state?.tokens) && (await this.refresh()) ? 'retry' : 'fail',
      );
      tokens = this.state?.tokens;
      if (!tokens) return {};
    }
    if (tokens.tokenType === 'dpop') {
      const key = await this.dpop();
      return {
        authorization: `DPoP ${tokens.accessToken}`,
        dpop: await dpopProof(key, request.method, request.url, {
          accessToken: tokens.accessToken,
          nonce: this.resourceNonce,
        }),
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
    if (parseWwwAuthenticate(challenge.wwwAuthenticate).some((c) => c.scheme === 'dpop'))
      this.resourceOffersDpop = true;
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
        throw new OAuthFlowError(
          `${this.options.serverName}: still refused for insufficient scope after ${MAX_STEP_UPS} authorizations for ${key || 'the same scopes'}; giving up`,
        );
      }
      this.log(
        `${this.options.serverName} needs more scope (${params.scope ?? 'unspecified'}); authorizing again with: ${wanted.join(' ') || '(none)'}`,
      );
      await this.authorize(params.resource_metadata, wanted);
      return 'retry';
    }
    // 401: a rejected or missing token. A refresh token is tried before the person is asked again.
    if (state.tokens?.refreshToken && (await this.refresh())) return 'retry';
    await this.authorize(params.resource_metadata, challengedScopes);
    return 'retry';
  }

  /**
   * Runs one sign-in (or refresh) under its own bound, not the request's: `signInTimeoutMs`, and the caller's
   * `signal` to cancel it.
   */
  private async bounded<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ms = this.options.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const timer = new AbortController();
    const seconds = +(ms / 1000).toFixed(1);
    const unfinished = `${this.options.serverName}: the sign-in was not finished within ${seconds} s`;
    const handle = setTimeout(
      () => timer.abort(new OAuthFlowError(unfinished, { kind: 'sign-in-unfinished', seconds })),
      ms,
    );
    const signal = this.options.signal ? AbortSignal.any([timer.signal, this.options.signal]) : timer.signal;
    try {
      signal.throwIfAborted();
      return await task(signal);
    } catch (error) {
      // A library call aborted by the bound reports an AbortError; the bound's own reason says what happened.
      if (signal.aborted && signal.reason instanceof Error && error !== signal.reason) throw signal.reason;
      throw error;
    } finally {
      clearTimeout(handle);
    }
  }

  private discover(resourceMetadataUrl: string | undefined, signal: AbortSignal): Promise<AuthorizationContext> {
    return discoverAuthorizationContext({
      serverUrl: this.options.serverUrl,
      serverName: this.options.serverName,
      http: this.http,
      resourceMetadataUrl,
      signal,
      log: (line) => this.log(line),
    });
  }

  private scopeFor(context: AuthorizationContext, challenged: string[] | undefined): string[] {
    let scopes = challenged ?? context.prm?.scopesSupported ?? this.options.scopes ?? [];
    const advertised = context.as.scopes_supported ?? [];
    // offline_access is only asked for where the authorization server lists it (MCP 2026-07-28, SEP-2207).
    scopes = scopes.filter((s) => s !== 'offline_access' || advertised.includes('offline_access'));
    if (
      advertised.includes('offline_access') &&
      this.grant().kind === 'authorization-code' &&
      !scopes.includes('offline_access') &&
      scopes.length > 0
    ) {
      scopes = [...scopes, 'offline_access'];
    }
    return scopes;
  }

  private grant(): OAuthGrant {
    return this.options.grant ?? { kind: 'authorization-code' };
  }

  private grantContext(
    context: AuthorizationContext,
    resource: string,
    scopes: string[],
    signal: AbortSignal,
  ): GrantContext {
    return {
      serverName: this.options.serverName,
      as: context.as,
      resource,
      scopes,
      http: this.http,
      signal,
      credentials: (redirectUri) => this.credentials(context, redirectUri, signal),
      log: (line) => this.log(line),
    };
  }

  /** The client identity the grant calls for, with its one authentication method, and DPoP where both sides want it. */
  private async credentials(
    context: AuthorizationContext,
    redirectUri: string | undefined,
    signal: AbortSignal,
  ): Promise<ClientCredentials> {
    const identity = await this.identity(context, redirectUri, signal);
    const client: oauth.Client = { client_id: identity?.clientId ?? '' };
    const auth = identity
      ? await clientAuthentication(identity, this.options.client, this.options.serverName)
      : oauth.None();
    return { client, auth, dpop: await this.dpopOptions(context, client) };
  }

  private async identity(
    context: AuthorizationContext,
    redirectUri: string | undefined,
    signal: AbortSignal,
  ): Promise<RegisteredClient | undefined> {
    const configured = this.options.client;
    const grant = this.grant();
    switch (grant.kind) {
      case 'authorization-code':
        return clientIdentity(
          {
            serverName: this.options.serverName,
            configured,
            clientMetadataUrl: this.options.clientMetadataUrl,
            clientName: this.options.clientName,
            http: this.http,
            state: await this.ensureLoaded(),
            persist: () => this.persist(),
            log: (line) => this.log(line),
          },
          context.as,
          redirectUri,
          signal,
        );
      case 'client-credentials':
        if (!configured)
          throw new OAuthFlowError(
            `${this.options.serverName}: the client credentials grant needs a configured client id and credentials`,
          );
        return configuredIdentity(configured, context.as);
      case 'jwt-bearer':
      case 'enterprise':
        // The assertion identifies the workload; a configured client adds its own authentication.
        return configured ? configuredIdentity(configured, context.as) : undefined;
      default: {
        const exhaustive: never = grant;
        throw new OAuthFlowError(`unknown grant ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  private async authorize(
    resourceMetadataUrl: string | undefined,
    challengedScopes: string[] | undefined,
  ): Promise<void> {
    this.options.steps?.flowStarted('sign-in');
    await this.bounded(async (signal) => {
      const state = await this.ensureLoaded();
      const context = await this.discover(resourceMetadataUrl, signal);
      const previousIssuer = state.tokens?.issuer ?? this.context?.as.issuer;
      if (previousIssuer !== undefined && previousIssuer !== context.as.issuer) {
        // The resource moved to another authorization server: nothing from the old one is reused (SEP-2352).
        this.log(
          `${this.options.serverName}: the authorization server changed from ${previousIssuer} to ${context.as.issuer}; registering again`,
        );
        delete state.clients[previousIssuer];
        delete state.tokens;
      }
      this.context = context;
      const scopes = this.scopeFor(context, challengedScopes);
      const grant = this.grant();
      const grantContext = this.grantContext(context, context.resource, scopes, signal);
      let tokens: oauth.TokenEndpointResponse;
      switch (grant.kind) {
        case 'authorization-code':
          tokens = await authorizationCodeGrant(grantContext, this.userAgent, this.options.personWaits);
          break;
        case 'client-credentials':
          tokens = await clientCredentialsGrant(grantContext);
          break;
        case 'jwt-bearer':
          tokens = await jwtBearerGrant(grantContext, await grant.assertion());
          break;
        case 'enterprise':
          tokens = await enterpriseGrant(grantContext, grant);
          break;
        default: {
          const exhaustive: never = grant;
          throw new OAuthFlowError(`unknown grant ${JSON.stringify(exhaustive)}`);
        }
      }
      await this.keepTokens(context, context.resource, tokens, scopes);
      this.log(`${this.options.serverName}: signed in${scopes.length ? ` (scope ${scopes.join(' ')})` : ''}`);
    }).then(
      () => {
        this.options.steps?.flowEnded();
        this.options.onSignInSettled?.({ kind: 'signed-in' });
      },
      (error: unknown) => {
        this.options.steps?.flowEnded(error);
        this.options.onSignInSettled?.({ kind: 'failed', error });
        throw error;
      },
    );
  }

  private async keepTokens(
    context: AuthorizationContext,
    resource: string,
    response: oauth.TokenEndpointResponse,
    requested: string[],
  ): Promise<void> {
    const state = await this.ensureLoaded();
    const tokenType = response.token_type.toLowerCase();
    if (tokenType !== 'bearer' && tokenType !== 'dpop')
      throw new OAuthFlowError(
        `${this.options.serverName}: the authorization server issued an unsupported token type ${JSON.stringify(response.token_type)}`,
      );
    const now = Date.now();
    state.tokens = {
      issuer: context.as.issuer,
      resource,
      accessToken: response.access_token,
      tokenType,
      refreshToken: response.refresh_token ?? state.tokens?.refreshToken,
      expiresAt: typeof response.expires_in === 'number' ? now + response.expires_in * 1000 : undefined,
      obtainedAt: now,
      scopes:
        typeof response.scope === 'string' && response.scope
          ? [...new Set([...response.scope.split(' ').filter(Boolean), ...requested])]
          : requested,
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
  private async dpopOptions(context: AuthorizationContext, client: oauth.Client): Promise<{ DPoP?: oauth.DPoPHandle }> {
    const resourceWants = this.resourceOffersDpop || context.prm?.dpopBoundAccessTokensRequired === true;
    if (!resourceWants || !context.as.dpop_signing_alg_values_supported?.includes('ES256')) return {};
    const key = await this.dpop();
    this.dpopHandle ??= oauth.DPoP(client, key.pair);
    return { DPoP: this.dpopHandle };
  }

  /** Uses the refresh token; false (and the tokens forgotten) when the authorization server refuses it. */
  private async refresh(): Promise<boolean> {
    const state = await this.ensureLoaded();
    const tokens = state.tokens;
    const steps = this.options.steps;
    if (!tokens?.refreshToken) {
      steps?.flowStarted('refresh');
      steps?.flowEnded(new OAuthFlowError(`${this.options.serverName}: no refresh token is held`));
      return false;
    }
    const refreshToken = tokens.refreshToken;
    steps?.flowStarted('refresh');
    try {
      await this.bounded(async (signal) => {
        const context =
          this.context?.as.issuer === tokens.issuer ? this.context : await this.discover(undefined, signal);
        if (context.as.issuer !== tokens.issuer)
          throw new OAuthFlowError(`the authorization server changed to ${context.as.issuer}`);
        this.context = context;
        const response = await refreshGrant(
          this.grantContext(context, tokens.resource, tokens.scopes, signal),
          refreshToken,
        );
        await this.keepTokens(context, tokens.resource, response, tokens.scopes);
      });
      this.log(`${this.options.serverName}: access token refreshed`);
      steps?.flowEnded();
      return true;
    } catch (error) {
      steps?.flowEnded(error);
      this.log(
        `${this.options.serverName}: refreshing the access token failed (${describeOAuthError(error)}); signing in again`,
      );
      delete state.tokens;
      await this.persist();
      return false;
    }
  }
}
