import type { HttpAuthorizer, HttpMethod } from '../auth/authorizer';
import { LocalError, errorMessage, type ErrorDetail, type LocalErrorKind, type UnreachableWords } from '../errors';
import { InputLimitError } from '../limits/inputLimits';
import { readBodyPrefix } from './bodyPrefix';
import type { SseParser } from './sseParser';

export { readBodyPrefix };

/** HTTP helpers shared by the Streamable HTTP and the 2024-11-05 HTTP+SSE transports. */

const ERROR_BODY_CHARS = 300;

/** A non-2xx HTTP answer. Keeps what an auth layer needs (status, WWW-Authenticate) next to the message. */
export class HttpStatusError extends LocalError {
  override readonly name = 'HttpStatusError';
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  /** The first characters of the response body, as received. */
  readonly body: string;
  readonly wwwAuthenticate: string | undefined;

  constructor(
    kind: LocalErrorKind,
    init: { status: number; statusText: string; url: string; body: string; wwwAuthenticate?: string; message?: string },
  ) {
    // A message of the site's own (an explanation around the status) says something else: no detail then.
    super(kind, init.message ?? describeHttpStatus(init.status, init.statusText, init.url, init.body), {
      detail:
        init.message === undefined ? httpStatusDetail(init.status, init.statusText, init.url, init.body) : undefined,
    });
    this.status = init.status;
    this.statusText = init.statusText;
    this.url = init.url;
    this.body = init.body;
    this.wwwAuthenticate = init.wwwAuthenticate;
  }
}

function describeHttpStatus(status: number, statusText: string, url: string, body: string): string {
  const head = `HTTP ${status}${statusText ? ` ${statusText}` : ''} from ${displayUrl(url)}`;
  const excerpt = bodyExcerpt(body);
  return excerpt ? `${head}: ${excerpt}` : head;
}

function bodyExcerpt(body: string): string {
  return body.replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
}

/** The `http-status` detail: the same parts as describeHttpStatus, for a host to word. */
function httpStatusDetail(status: number, statusText: string, url: string, body: string): ErrorDetail {
  const excerpt = bodyExcerpt(body);
  return {
    kind: 'http-status',
    status,
    url: displayUrl(url),
    ...(statusText ? { statusText } : {}),
    ...(excerpt ? { body: excerpt } : {}),
  };
}

/**
 * Builds the error for a non-2xx response; `explain` may wrap the standard "HTTP <status> ..." text (the error then
 * says something else than the status, and carries no `http-status` detail).
 */
export async function httpStatusError(
  response: Response,
  url: string,
  kind: LocalErrorKind = 'transport',
  explain?: (detail: string) => string,
): Promise<HttpStatusError> {
  const body = await readBodyPrefix(response, ERROR_BODY_CHARS);
  return new HttpStatusError(kind, {
    status: response.status,
    statusText: response.statusText,
    url,
    body,
    wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
    ...(explain ? { message: explain(describeHttpStatus(response.status, response.statusText, url, body)) } : {}),
  });
}

const SECRET_QUERY_NAME = /token|key|secret|password|auth|sig|code/i;

/**
 * The URL without user:password and with secret-looking query values masked, so credentials never
 * reach logs or error messages.
 */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    for (const name of [...parsed.searchParams.keys()]) {
      if (SECRET_QUERY_NAME.test(name)) parsed.searchParams.set(name, '***');
    }
    return parsed.toString();
  } catch {
    return url;
  }
}

/** undici reports "fetch failed" and puts the useful part (ECONNREFUSED, DNS, TLS) in `cause`. */
export function describeFetchFailure(error: unknown): string {
  const message = errorMessage(error);
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause === undefined) return message;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  const causeText = errorMessage(cause);
  return code && !causeText.includes(code) ? `${message} (${causeText}, ${code})` : `${message} (${causeText})`;
}

// Network error codes (Node's and undici's, as describeFetchFailure quotes them) and the plain words for them.
const UNREACHABLE: readonly [RegExp, UnreachableWords][] = [
  [/\bECONNREFUSED\b/, 'connection refused'],
  [/\b(ENOTFOUND|EAI_AGAIN)\b/, 'host not found'],
  [/\b(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)\b/, 'connection timed out'],
  [/\bECONNRESET\b/, 'connection reset'],
  [/\bEHOSTUNREACH\b/, 'host unreachable'],
  [/\bENETUNREACH\b/, 'network unreachable'],
  [/\bbad port\b/, 'the port is not allowed'],
  [/\b(CERT_|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_TLS)/, 'TLS certificate problem'],
];

/** Every way an endpoint can be unreachable (ErrorDetail `unreachable`), for the translation tables. */
export const UNREACHABLE_WORDS: readonly UnreachableWords[] = UNREACHABLE.map(([, words]) => words);

export function networkError(method: string, url: string, error: unknown): LocalError {
  // Some causes quote the URL verbatim; keep its secrets out of the message.
  const cause = describeFetchFailure(error).split(url).join(displayUrl(url));
  const words = UNREACHABLE.find(([pattern]) => pattern.test(cause))?.[1];
  const detail: ErrorDetail | undefined = words ? { kind: 'unreachable', words, url: displayUrl(url) } : undefined;
  return new LocalError('transport', `${method} ${displayUrl(url)} failed: ${cause}`, { cause: error, detail });
}

/** The media type without parameters, lower-cased ('' when absent). */
export function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release if the body already failed.
  }
}

type PumpOutcome =
  | { kind: 'ended' }
  | { kind: 'failed'; reason: string }
  /** A line or an event passed its cap: reading stopped there and the body was cancelled (the connection released). */
  | { kind: 'too-large'; error: InputLimitError };

/** Feeds a response body into an SSE parser until it ends, breaks, or the parser refuses more (a cap). */
export async function pumpSse(response: Response, parser: SseParser): Promise<PumpOutcome> {
  if (!response.body) {
    parser.end();
    return { kind: 'ended' };
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
    }
    parser.end();
    return { kind: 'ended' };
  } catch (error) {
    // Release the connection whatever broke (network, abort, a cap, or a handler that threw).
    reader.cancel().catch(() => undefined);
    if (error instanceof InputLimitError) return { kind: 'too-large', error };
    return { kind: 'failed', reason: describeFetchFailure(error) };
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function validateHttpUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new LocalError('invalid-argument', `not a valid URL: ${displayUrl(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new LocalError('invalid-argument', `expected an http(s) URL, got ${parsed.protocol} in ${displayUrl(url)}`);
  }
  if (parsed.username || parsed.password) {
    // fetch refuses such URLs; say so before any request, and point to the supported way.
    throw new LocalError(
      'invalid-argument',
      `the URL ${displayUrl(url)} contains user:password; put credentials in an Authorization header instead`,
    );
  }
  return parsed;
}

/** A short name for a message in diagnostics: its method, or "response <id>". */
export function describeMessage(message: object): string {
  const record = message as Record<string, unknown>;
  if (typeof record.method === 'string') return record.method;
  if ('id' in record) return `response ${String(record.id)}`;
  return 'message';
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface AuthorizedRequest {
  method: HttpMethod;
  /**
   * Transport and protocol headers (Accept, Content-Type, Mcp-Session-Id, MCP-Protocol-Version), names in lower case
   * (see setHeaders); they win over the authorizer's.
   */
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * What this endpoint did with redirects so far, kept by the caller across its requests (see RedirectMemory).
   * Without it every request is sent with fetch's `redirect: 'manual'`.
   */
  redirects?: RedirectMemory;
}

/**
 * Whether an endpoint has redirected. Until it does, requests go out with `redirect: 'error'`: fetch (undici)
 * copies a request, teeing its body, for every other mode, which costs a fifth of the CPU of a small POST. The first
 * redirect makes that fetch fail without following it; the request is then sent again with `redirect: 'manual'`,
 * which is safe because the server answered it with a redirect and nothing else, and from then on every request of
 * the endpoint is sent that way.
 */
export class RedirectMemory {
  redirected = false;
}

/** undici rejects `redirect: 'error'` with "fetch failed", caused by "unexpected redirect". */
function isRedirectRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    if (/redirect/i.test(current.message)) return true;
  }
  return false;
}

/**
 * One HTTP request with the authorizer's credentials. A 401/403 is shown to the authorizer once; when it
 * answers 'retry' the request is sent again with fresh headers. Redirects are followed here rather than by
 * fetch, and only within the origin of `url`: credentials (and MCP messages) must never follow a redirect to
 * another origin, which fetch would do for every header but Authorization. The method and body are kept on
 * every hop (307/308 semantics): an MCP POST turned into a GET would be meaningless.
 * Rejects with a LocalError for a cross-origin or endless redirect; other rejections come from fetch.
 */
/**
 * Copies `source` into `target` with the names in lower case, so a later value replaces an earlier one whatever its
 * spelling (HTTP names are case-insensitive). A plain object, not a Headers: fetch copies either into its own list,
 * and reading a Headers for that sorts it, on every request.
 */
export function setHeaders(
  target: Record<string, string>,
  source: Readonly<Record<string, string>>,
): Record<string, string> {
  for (const name of Object.keys(source)) target[name.toLowerCase()] = source[name];
  return target;
}

export async function authorizedFetch(
  fetchFn: typeof fetch,
  authorizer: HttpAuthorizer,
  url: string,
  request: AuthorizedRequest,
): Promise<Response> {
  const origin = new URL(url).origin;
  let target = url;
  let redirects = 0;
  let challenged = false;
  let nonceRetried = false;
  for (;;) {
    const headers = setHeaders(
      setHeaders({}, await authorizer.headersFor({ url: target, method: request.method })),
      request.headers,
    );
    const memory = request.redirects;
    let response: Response;
    if (memory === undefined || memory.redirected) {
      response = await fetchFn(target, {
        method: request.method,
        headers,
        body: request.body,
        signal: request.signal,
        redirect: 'manual',
      });
    } else {
      try {
        response = await fetchFn(target, {
          method: request.method,
          headers,
          body: request.body,
          signal: request.signal,
          redirect: 'error',
        });
      } catch (error) {
        if (request.signal?.aborted || !isRedirectRefusal(error)) throw error;
        memory.redirected = true;
        continue;
      }
    }
    const location = response.headers.get('location');
    if (REDIRECT_STATUSES.has(response.status) && location !== null) {
      await discardBody(response);
      const next = resolveRedirect(location, target);
      if (next.origin !== origin) {
        throw new LocalError(
          'transport',
          `${request.method} ${displayUrl(target)} was redirected to another origin (${next.origin}); not following it, so credentials and messages stay with ${origin}`,
        );
      }
      if (++redirects > MAX_REDIRECTS)
        throw new LocalError(
          'transport',
          `${request.method} ${displayUrl(url)} was redirected more than ${MAX_REDIRECTS} times`,
        );
      target = next.href;
      continue;
    }
    if ((response.status === 401 || response.status === 403) && authorizer.onChallenge) {
      // One credentials challenge per request; a DPoP nonce challenge (RFC 9449 §9) may follow it once more,
      // since a server can only hand out its nonce after it has seen the new token.
      const dpopNonce = response.headers.get('dpop-nonce') ?? undefined;
      const nonceChallenge = dpopNonce !== undefined && !nonceRetried;
      if (!challenged || nonceChallenge) {
        if (challenged) nonceRetried = true;
        challenged = true;
        const decision = await authorizer.onChallenge({
          status: response.status,
          wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined,
          ...(dpopNonce !== undefined ? { dpopNonce } : {}),
          url: target,
          method: request.method,
        });
        if (decision === 'retry') {
          await discardBody(response);
          continue;
        }
      }
    }
    return response;
  }
}

function resolveRedirect(location: string, base: string): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new LocalError(
      'protocol-violation',
      `${displayUrl(base)} redirected to an invalid location: ${location.slice(0, 200)}`,
    );
  }
}
