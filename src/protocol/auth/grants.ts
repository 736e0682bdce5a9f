/**
 * The grants that obtain tokens at the token endpoint: authorization code with PKCE (through the user agent),
 * refresh, client credentials, RFC 7523 JWT bearer, and enterprise-managed authorization (RFC 8693 token
 * exchange for an ID-JAG, then JWT bearer). Each takes the client credentials settled by clientRegistration.ts.
 */
import * as oauth from './oauthLibrary';
import type { OAuthGrant } from './authorizerOptions';
import { OAuthFlowError, requireSecureUrl } from './discovery';
import { describeOAuthError, refusalDetail } from './oauthErrors';
import { libraryOptions, readDocument, type OAuthHttp } from './oauthHttp';
import type { PersonWaits } from '../jsonrpc/personWaits';
import type { AuthorizationUserAgent } from './types';

/** The client's credentials at the token endpoint: its id, its one authentication method, and DPoP when both sides want it. */
export interface ClientCredentials {
  client: oauth.Client;
  auth: oauth.ClientAuth;
  dpop: { DPoP?: oauth.DPoPHandle };
}

export interface GrantContext {
  serverName: string;
  as: oauth.AuthorizationServer;
  /** The RFC 8707 resource, sent in the authorization and the token request alike. */
  resource: string;
  scopes: string[];
  http: OAuthHttp;
  signal: AbortSignal;
  /** Settles the client identity (for the authorization code, once the redirect URI is known). */
  credentials(redirectUri: string | undefined): Promise<ClientCredentials>;
  log(line: string): void;
}

function tokenOptions(context: GrantContext): ReturnType<typeof libraryOptions> {
  return libraryOptions(new URL(context.as.token_endpoint ?? context.as.issuer), context.http, 'the token response');
}

function scopeParameter(scopes: string[]): Record<string, string> {
  return scopes.length ? { scope: scopes.join(' ') } : {};
}

/** A token endpoint call, repeated once with the authorization server's DPoP nonce when it asks for one. */
async function tokenCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (oauth.isDPoPNonceError(error)) return call();
    throw error;
  }
}

/**
 * PKCE with S256 is the only challenge this client sends (MCP: S256 "when technically capable", and we always are).
 * An authorization server that lists its methods without S256 would take the code unprotected, or fail it late: so
 * the flow stops before anything reaches it (no registration, no browser). A missing list is not a refusal: servers
 * of the 2025-03-26 revision and the endpoint fallback publish none (the conformance repository's
 * auth/pkce-no-s256-support scenario draws the same line).
 */
export function requireS256(as: oauth.AuthorizationServer, serverName: string): void {
  const methods = as.code_challenge_methods_supported;
  if (methods === undefined) return;
  if (Array.isArray(methods) && methods.includes('S256')) return;
  throw new OAuthFlowError(
    `${serverName}: the authorization server ${as.issuer} does not support PKCE with S256 (code_challenge_methods_supported: ${JSON.stringify(methods).slice(0, 200)}), so signing in was refused`,
  );
}

/**
 * Authorization code with PKCE (S256), `state`, RFC 9207 `iss` and the resource indicator. The person's part (the
 * user agent's `complete`) runs inside a person wait, so the request deadlines of the connection do not expire
 * while they sign in.
 */
export async function authorizationCodeGrant(
  context: GrantContext,
  agent: AuthorizationUserAgent | undefined,
  personWaits: PersonWaits | undefined,
): Promise<oauth.TokenEndpointResponse> {
  const { as, serverName: name, signal } = context;
  if (!as.authorization_endpoint)
    throw new OAuthFlowError(`${name}: the authorization server ${as.issuer} has no authorization endpoint`);
  requireS256(as, name);
  if (!agent) throw new OAuthFlowError(`${name} requires signing in, and this session cannot open a browser`);
  const pending = await agent.prepare();
  try {
    const credentials = await context.credentials(pending.redirectUri);
    const { client } = credentials;
    const verifier = oauth.generateRandomCodeVerifier();
    const stateParam = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('redirect_uri', pending.redirectUri);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', stateParam);
    url.searchParams.set('resource', context.resource);
    if (context.scopes.length) url.searchParams.set('scope', context.scopes.join(' '));
    context.log(`${name}: authorization at ${url.origin}${url.pathname}`);
    const wait = personWaits?.begin();
    let callback: URL;
    try {
      callback = await pending.complete(url, signal, { issuer: as.issuer });
    } finally {
      wait?.dispose();
    }
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, stateParam);
    } catch (error) {
      throw new OAuthFlowError(`${name}: the authorization response was rejected: ${describeOAuthError(error)}`);
    }
    try {
      return await tokenCall(async () => {
        const r = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          credentials.auth,
          params,
          pending.redirectUri,
          verifier,
          {
            additionalParameters: { resource: context.resource },
            ...tokenOptions(context),
            ...credentials.dpop,
            signal,
          },
        );
        return oauth.processAuthorizationCodeResponse(as, client, r);
      });
    } catch (error) {
      throw new OAuthFlowError(
        `${name}: the token request to ${as.token_endpoint} failed: ${describeOAuthError(error)}`,
      );
    }
  } finally {
    pending.dispose();
  }
}

/** The refresh grant, with the resource the tokens are bound to and the same client authentication as the sign-in. */
export async function refreshGrant(context: GrantContext, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const { as, signal } = context;
  const { client, auth, dpop } = await context.credentials(undefined);
  return tokenCall(async () => {
    const r = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, {
      additionalParameters: { resource: context.resource },
      ...tokenOptions(context),
      ...dpop,
      signal,
    });
    return oauth.processRefreshTokenResponse(as, client, r);
  });
}

export async function clientCredentialsGrant(context: GrantContext): Promise<oauth.TokenEndpointResponse> {
  const { as, signal } = context;
  const { client, auth, dpop } = await context.credentials(undefined);
  const parameters = { resource: context.resource, ...scopeParameter(context.scopes) };
  try {
    return await tokenCall(async () => {
      const r = await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, {
        ...tokenOptions(context),
        ...dpop,
        signal,
      });
      return oauth.processClientCredentialsResponse(as, client, r);
    });
  } catch (error) {
    throw new OAuthFlowError(
      `${context.serverName}: the client credentials request to ${as.token_endpoint} failed: ${describeOAuthError(error)}`,
    );
  }
}

export async function jwtBearerGrant(context: GrantContext, assertion: string): Promise<oauth.TokenEndpointResponse> {
  const { as, signal } = context;
  const { client, auth, dpop } = await context.credentials(undefined);
  const parameters = { assertion, resource: context.resource, ...scopeParameter(context.scopes) };
  try {
    return await tokenCall(async () => {
      const r = await oauth.genericTokenEndpointRequest(
        as,
        client,
        auth,
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
        parameters,
        { ...tokenOptions(context), ...dpop, signal },
      );
      return oauth.processGenericTokenEndpointResponse(as, client, r);
    });
  } catch (error) {
    throw new OAuthFlowError(
      `${context.serverName}: the JWT bearer grant at ${as.token_endpoint} failed: ${describeOAuthError(error)}`,
    );
  }
}

/** Enterprise-managed authorization: the IdP's ID token exchanged for an ID-JAG (RFC 8693), presented as a JWT bearer grant. */
export async function enterpriseGrant(
  context: GrantContext,
  grant: Extract<OAuthGrant, { kind: 'enterprise' }>,
): Promise<oauth.TokenEndpointResponse> {
  const name = context.serverName;
  const idpEndpoint = new URL(grant.idpTokenEndpoint);
  requireSecureUrl(idpEndpoint, `${name}: the identity provider's token endpoint`);
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
        ...scopeParameter(context.scopes),
      },
      { ...libraryOptions(idpEndpoint, context.http, 'the token exchange response'), signal: context.signal },
    );
    // The ID-JAG comes back with token_type N_A, which processGenericTokenEndpointResponse rejects: read it here.
    const what = `the token exchange response of ${idpEndpoint.origin}`;
    if (!r.ok)
      throw new OAuthFlowError(
        `HTTP ${r.status}${refusalDetail(await readDocument(r, context.http, what).catch(() => undefined))}`,
      );
    const body = await readDocument(r, context.http, what);
    const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (
      typeof record.access_token !== 'string' ||
      record.issued_token_type !== 'urn:ietf:params:oauth:token-type:id-jag'
    ) {
      throw new OAuthFlowError(
        'the response holds no ID-JAG (issued_token_type urn:ietf:params:oauth:token-type:id-jag)',
      );
    }
    jag = record.access_token;
  } catch (error) {
    throw new OAuthFlowError(`${name}: the token exchange at ${idpEndpoint.href} failed: ${describeOAuthError(error)}`);
  }
  return jwtBearerGrant(context, jag);
}
