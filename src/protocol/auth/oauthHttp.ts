/**
 * How the OAuth flow reaches authorization servers and protected-resource metadata: through the fetch the
 * transport uses (its proxy and TLS settings), and never reading more of a document than `maxDocumentBytes`.
 * Every byte of these documents is untrusted: a 1.5 GiB metadata document costs at most the cap, and the error
 * names the limit and its setting.
 */
import * as oauth from './oauthLibrary';
import { DEFAULT_INPUT_LIMITS, readJsonCapped, readTextCapped } from '../limits/inputLimits';

export interface OAuthHttp {
  /** The transport's fetch, or the global one. */
  readonly fetch: typeof fetch;
  /** The cap on one metadata, registration or token document (InputLimits.maxDocumentBytes). */
  readonly maxDocumentBytes: number;
}

export function oauthHttp(
  fetchFn?: typeof fetch,
  maxDocumentBytes: number = DEFAULT_INPUT_LIMITS.maxDocumentBytes,
): OAuthHttp {
  return { fetch: fetchFn ?? ((input, init) => fetch(input, init)), maxDocumentBytes };
}

/** Loopback hosts, the only ones where plain HTTP is accepted for authorization (RFC 8252 §8.3): all of 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  // WHATWG URLs normalize IPv4 (`127.1` is `127.0.0.1`) and IPv6 (`[0:0::1]` is `[::1]`) host names.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)) return true;
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || hostname.endsWith('.localhost');
}

/** Reads one JSON document, stopping at the cap. */
export function readDocument(response: Response, http: OAuthHttp, what: string): Promise<unknown> {
  return readJsonCapped(response, http.maxDocumentBytes, what, 'maxDocumentBytes');
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The response with its body read up to the cap and held in memory, for oauth4webapi's parsers (which would
 * otherwise read a body of any size).
 */
export async function cappedResponse(response: Response, http: OAuthHttp, what: string): Promise<Response> {
  const text = await readTextCapped(response, http.maxDocumentBytes, what, 'maxDocumentBytes');
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The options every oauth4webapi request of the flow takes: the injected fetch with capped bodies, and plain HTTP
 * allowed only to loopback.
 */
export function libraryOptions(
  url: URL,
  http: OAuthHttp,
  what: string,
): {
  [oauth.allowInsecureRequests]?: boolean;
  [oauth.customFetch]: (url: string, init: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>;
} {
  return {
    ...(url.protocol === 'http:' && isLoopbackHost(url.hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
    [oauth.customFetch]: async (target, init) =>
      cappedResponse(await http.fetch(target, init as RequestInit), http, `${what} from ${new URL(target).origin}`),
  };
}
