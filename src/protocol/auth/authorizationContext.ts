/**
 * Where one authorization happens: the protected resource's metadata and its authorization server, or, for a
 * 2025-03-26 server without protected resource metadata, the MCP server's own origin. Every endpoint the
 * metadata names must be HTTPS (plain HTTP only on loopback) before anything is sent to it.
 */
import type * as oauth from './oauthLibrary';
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverProtectedResource,
  OAuthFlowError,
  requireSecureUrl,
  type ProtectedResourceMetadata,
} from './discovery';
import type { OAuthHttp } from './oauthHttp';

export interface AuthorizationContext {
  resource: string;
  prm?: ProtectedResourceMetadata;
  as: oauth.AuthorizationServer;
}

interface DiscoveryRequest {
  serverUrl: string;
  serverName: string;
  http: OAuthHttp;
  /** The challenge's `resource_metadata`, when it named one. */
  resourceMetadataUrl: string | undefined;
  signal: AbortSignal;
  log(line: string): void;
}

/** Discovery, every failure named with the server. */
export async function discoverAuthorizationContext(request: DiscoveryRequest): Promise<AuthorizationContext> {
  const name = request.serverName;
  try {
    return await discoverUnnamed(request);
  } catch (error) {
    if (error instanceof OAuthFlowError && !error.message.startsWith(name))
      throw new OAuthFlowError(`${name}: ${error.message}`);
    throw error;
  }
}

async function discoverUnnamed(request: DiscoveryRequest): Promise<AuthorizationContext> {
  const { serverName: name, http, signal } = request;
  const prm = await discoverProtectedResource(http, request.serverUrl, request.resourceMetadataUrl, signal);
  if (prm) {
    const issuer = prm.authorizationServers[0];
    if (!issuer)
      throw new OAuthFlowError(`${name}: the protected resource metadata at ${prm.url} names no authorization server`);
    const as = await discoverAuthorizationServer(http, issuer, signal);
    if (!as)
      throw new OAuthFlowError(
        `${name}: the authorization server ${issuer} publishes no metadata (tried RFC 8414 and OpenID Connect locations)`,
      );
    request.log(`${name}: protected resource ${prm.resource}, authorization server ${as.issuer}`);
    return { resource: prm.resource, prm, as: checkEndpoints(as, name) };
  }
  // 2025-03-26: no protected resource metadata; the MCP server's origin is the authorization server.
  const origin = new URL(request.serverUrl).origin;
  const as = (await discoverAuthorizationServer(http, origin, signal)) ?? {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
  };
  request.log(`${name}: no protected resource metadata; using the 2025-03-26 discovery at ${origin}`);
  return { resource: canonicalResource(request.serverUrl), as: checkEndpoints(as, name) };
}

function checkEndpoints(as: oauth.AuthorizationServer, serverName: string): oauth.AuthorizationServer {
  for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint'] as const) {
    const value = as[key];
    if (value === undefined) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new OAuthFlowError(`${serverName}: the authorization server's ${key} is not a URL`);
    }
    requireSecureUrl(url, `${serverName}: the authorization server's ${key}`);
  }
  return as;
}
