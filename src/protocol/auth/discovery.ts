/**
 * MCP authorization discovery: protected resource metadata (RFC 9728) and authorization server metadata
 * (RFC 8414 / OpenID Connect Discovery) in the order the MCP specification prescribes. Every document is
 * server input: the resource and issuer it names are checked before anything in it is used.
 */
import * as oauth from './oauthLibrary';
import { cappedResponse, isLoopbackHost, readDocument, type OAuthHttp } from './oauthHttp';
import type { ErrorDetail } from '../errors';
import { InputLimitError } from '../limits/inputLimits';
import { isObject } from '../guards';

export class OAuthFlowError extends Error {
  override readonly name = 'OAuthFlowError';
  constructor(
    message: string,
    /** For a host to word it (see ErrorDetail); undefined where only the message says it. */
    readonly detail?: ErrorDetail,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ProtectedResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
  /** RFC 9728 `dpop_bound_access_tokens_required`. */
  dpopBoundAccessTokensRequired: boolean;
  /** Where it was found. */
  url: string;
}

/** Throws unless `url` is https, or http on a loopback host. */
export function requireSecureUrl(url: URL, what: string): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return;
  throw new OAuthFlowError(`${what} ${url.origin} is not HTTPS; plain HTTP is only accepted on loopback addresses`);
}

async function getJson(http: OAuthHttp, url: string, signal: AbortSignal): Promise<{ status: number; body?: unknown }> {
  const response = await http.fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'manual' });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status };
  }
  try {
    return { status: 200, body: await readDocument(response, http, `the protected resource metadata at ${url}`) };
  } catch (error) {
    // A document past the cap is an attack or a mistake to report; one that is merely not JSON is "not found".
    if (error instanceof InputLimitError) throw new OAuthFlowError(error.message);
    return { status: 200 };
  }
}

/**
 * The resource server's canonical URI (MCP "Canonical Server URI"): scheme and host lower-case, no fragment.
 * The path is kept as given (a trailing slash is significant to the server).
 */
export function canonicalResource(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.hash = '';
  return url.href;
}

/** True when `advertised` (from the metadata) may stand for `server`: same origin and a path prefix of it. */
export function resourceCovers(advertised: string, server: string): boolean {
  let a: URL;
  let s: URL;
  try {
    a = new URL(advertised);
    s = new URL(server);
  } catch {
    return false;
  }
  if (a.origin !== s.origin) return false;
  const prefix = a.pathname.endsWith('/') ? a.pathname : `${a.pathname}/`;
  const path = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
  return path.startsWith(prefix);
}

/** The order of RFC 9728 §3.1 plus MCP: the header's URL, then path-based, then root. */
export function protectedResourceMetadataUrls(serverUrl: string, fromHeader: string | undefined): string[] {
  const server = new URL(serverUrl);
  const urls: string[] = [];
  if (fromHeader) {
    try {
      urls.push(new URL(fromHeader, server).href);
    } catch {
      // An unparseable header URL is skipped; the well-known locations still apply.
    }
  }
  const path = server.pathname.replace(/\/$/, '');
  if (path) urls.push(`${server.origin}/.well-known/oauth-protected-resource${path}`);
  urls.push(`${server.origin}/.well-known/oauth-protected-resource`);
  return [...new Set(urls)];
}

/**
 * Finds the protected resource metadata, or undefined when the server publishes none (a 2025-03-26 server).
 * Rejects metadata whose `resource` does not cover the server URL.
 */
export async function discoverProtectedResource(
  http: OAuthHttp,
  serverUrl: string,
  fromHeader: string | undefined,
  signal: AbortSignal,
): Promise<ProtectedResourceMetadata | undefined> {
  for (const url of protectedResourceMetadataUrls(serverUrl, fromHeader)) {
    const { status, body } = await getJson(http, url, signal);
    if (status !== 200) continue;
    if (!isObject(body)) throw new OAuthFlowError(`the protected resource metadata at ${url} is not a JSON object`);
    const record = body as Record<string, unknown>;
    if (typeof record.resource !== 'string')
      throw new OAuthFlowError(`the protected resource metadata at ${url} has no "resource"`);
    if (!resourceCovers(record.resource, serverUrl)) {
      throw new OAuthFlowError(
        `the protected resource metadata at ${url} is for ${JSON.stringify(record.resource.slice(0, 200))}, not for ${serverUrl}; refusing to authorize`,
      );
    }
    const servers = Array.isArray(record.authorization_servers)
      ? record.authorization_servers.filter((s): s is string => typeof s === 'string')
      : [];
    const scopes = Array.isArray(record.scopes_supported)
      ? record.scopes_supported.filter((s): s is string => typeof s === 'string')
      : undefined;
    return {
      resource: record.resource,
      authorizationServers: servers,
      scopesSupported: scopes,
      dpopBoundAccessTokensRequired: record.dpop_bound_access_tokens_required === true,
      url,
    };
  }
  return undefined;
}

/** RFC 8414 §3.1 path insertion, then OIDC path insertion, then OIDC path appending (MCP 2025-11-25). */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (!path)
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Fetches and validates the authorization server's metadata: its `issuer` must be exactly the one the URL was
 * built from (RFC 8414 §3.3). Undefined when no location answers.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
  signal: AbortSignal,
): Promise<oauth.AuthorizationServer | undefined> {
  const issuerUrl = new URL(issuer);
  requireSecureUrl(issuerUrl, 'the authorization server');
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await http.fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'manual' });
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      continue;
    }
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(
        issuerUrl,
        await cappedResponse(response, http, `the authorization server metadata at ${url}`),
      );
    } catch (error) {
      throw new OAuthFlowError(
        `the authorization server metadata at ${url} is not usable: ${(error as Error).message}`,
      );
    }
    // processDiscoveryResponse compares normalized URLs; the issuer identifier is compared as a string too
    // (a trailing slash added or dropped names a different issuer).
    if (metadata.issuer !== issuer && metadata.issuer !== issuerUrl.href) {
      throw new OAuthFlowError(
        `the authorization server metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`,
      );
    }
    return metadata;
  }
  return undefined;
}
