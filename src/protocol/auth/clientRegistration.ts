/**
 * Who the client is at an authorization server, and how it authenticates at the token endpoint: a configured
 * (pre-registered) client, a Client ID Metadata Document, or dynamic registration (RFC 7591), in the priority
 * the MCP specification gives. The token-endpoint authentication method is decided here, once, and stored with
 * the identity: sign-in, refresh and every other grant use that one choice.
 */
import * as oauth from './oauthLibrary';
import type { ConfiguredClient } from './authorizerOptions';
import { OAuthFlowError } from './discovery';
import { describeOAuthError, refusalDetail } from './oauthErrors';
import { readDocument, type OAuthHttp } from './oauthHttp';
import type { PersistedAuthState, RegisteredClient, TokenEndpointAuthMethod } from './types';

/**
 * The one authentication method of a configured client: the one configured; private_key_jwt with a key; `none`
 * for a public client (no secret: its client_id goes in the body, never HTTP Basic with an empty secret); and for
 * a secret, Basic unless the authorization server lists only client_secret_post.
 */
export function configuredAuthMethod(
  configured: ConfiguredClient,
  as: oauth.AuthorizationServer,
): TokenEndpointAuthMethod {
  if (configured.authMethod) return configured.authMethod;
  if (configured.privateKeyPem) return 'private_key_jwt';
  if (configured.clientSecret === undefined || configured.clientSecret === '') return 'none';
  const supported = as.token_endpoint_auth_methods_supported;
  return supported && !supported.includes('client_secret_basic') && supported.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

export function configuredIdentity(configured: ConfiguredClient, as: oauth.AuthorizationServer): RegisteredClient {
  return {
    issuer: as.issuer,
    clientId: configured.clientId,
    clientSecret: configured.clientSecret,
    authMethod: configuredAuthMethod(configured, as),
    source: 'configured',
  };
}

interface RegistrationContext {
  serverName: string;
  configured?: ConfiguredClient;
  clientMetadataUrl?: string;
  clientName?: string;
  http: OAuthHttp;
  /** The persisted state whose `clients` hold dynamic registrations; `persist` saves it. */
  state: PersistedAuthState;
  persist(): Promise<void>;
  log(line: string): void;
}

/**
 * The client identity to use at `as`. `redirectUri` is the redirect of the authorization in progress (undefined
 * for a refresh): a stored registration made for another redirect target is registered anew.
 */
export async function clientIdentity(
  context: RegistrationContext,
  as: oauth.AuthorizationServer,
  redirectUri: string | undefined,
  signal: AbortSignal,
): Promise<RegisteredClient> {
  if (context.configured) return configuredIdentity(context.configured, as);
  if (context.clientMetadataUrl && as.client_id_metadata_document_supported === true) {
    return { issuer: as.issuer, clientId: context.clientMetadataUrl, authMethod: 'none', source: 'metadata-document' };
  }
  const known = context.state.clients[as.issuer];
  if (known && (!redirectUri || sameRedirectTarget(known.redirectUris ?? [], redirectUri))) return known;
  if (!as.registration_endpoint) {
    throw new OAuthFlowError(
      `${context.serverName}: the authorization server ${as.issuer} offers no dynamic client registration${as.client_id_metadata_document_supported ? ' and no client metadata document is configured' : ''}; configure a client id ("oauth": {"clientId": …})`,
    );
  }
  const client = await register(context, as, redirectUri, signal);
  context.state.clients[as.issuer] = client;
  await context.persist();
  context.log(`${context.serverName}: registered as a client of ${as.issuer}`);
  return client;
}

async function register(
  context: RegistrationContext,
  as: oauth.AuthorizationServer,
  redirectUri: string | undefined,
  signal: AbortSignal,
): Promise<RegisteredClient> {
  const endpoint = as.registration_endpoint as string;
  const supported = as.token_endpoint_auth_methods_supported;
  const wantedMethod: TokenEndpointAuthMethod =
    !supported || supported.includes('none')
      ? 'none'
      : supported.includes('client_secret_basic')
        ? 'client_secret_basic'
        : 'client_secret_post';
  const metadata: Partial<oauth.Client> = {
    client_name: context.clientName ?? 'MCP Workbench',
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
    const response = await context.http.fetch(new URL(endpoint), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(metadata),
      redirect: 'manual',
      signal,
    });
    const what = `the registration response of ${new URL(endpoint).origin}`;
    if (response.status !== 201 && response.status !== 200) {
      const refusal = await readDocument(response, context.http, what).catch(() => undefined);
      throw new OAuthFlowError(`HTTP ${response.status}${refusalDetail(refusal)}`);
    }
    const body = await readDocument(response, context.http, what);
    if (typeof body !== 'object' || body === null || typeof (body as Record<string, unknown>).client_id !== 'string')
      throw new OAuthFlowError('the response has no client_id');
    registered = body as typeof registered;
  } catch (error) {
    throw new OAuthFlowError(
      `${context.serverName}: dynamic client registration at ${endpoint} failed: ${describeOAuthError(error)}`,
    );
  }
  const clientSecret =
    typeof registered.client_secret === 'string' && registered.client_secret !== ''
      ? registered.client_secret
      : undefined;
  return {
    issuer: as.issuer,
    clientId: registered.client_id,
    clientSecret,
    authMethod: registeredAuthMethod(registered.token_endpoint_auth_method, clientSecret),
    source: 'dynamic-registration',
    redirectUris: redirectUri ? [redirectUri] : [],
  };
}

const KNOWN_METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
  'private_key_jwt',
];

/** The method the registration granted; without one (or an unknown one), what the secret allows (RFC 7591 §2 default). */
function registeredAuthMethod(granted: unknown, clientSecret: string | undefined): TokenEndpointAuthMethod {
  if (typeof granted === 'string' && (KNOWN_METHODS as readonly string[]).includes(granted))
    return granted as TokenEndpointAuthMethod;
  return clientSecret ? 'client_secret_basic' : 'none';
}

function sameRedirectTarget(registered: readonly string[], redirectUri: string): boolean {
  const wanted = new URL(redirectUri);
  return registered.some((uri) => {
    try {
      const known = new URL(uri);
      // RFC 8252 §7.3: a loopback redirect's port varies per run and must be accepted by the server.
      return (
        known.protocol === wanted.protocol && known.hostname === wanted.hostname && known.pathname === wanted.pathname
      );
    } catch {
      return false;
    }
  });
}
