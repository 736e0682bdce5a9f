import { LocalError } from '../errors';
import { InputLimitError, inputLimits, type InputLimits } from '../limits/inputLimits';
import { MAX_REDIRECTS, REDIRECT_STATUSES, discardBody, displayUrl, resolveRedirect } from './httpShared';

/**
 * The fetch the transport's companions use for documents (OAuth discovery and metadata, client registration, token
 * requests, Client ID Metadata Documents): the same underlying fetch as the transport (so the same proxy settings and
 * the same Node `http` client where one is used), the same redirect rule (only within the request's origin), and a
 * body that can never be read past `maxDocumentBytes`: whoever reads it (`text()`, `json()`, oauth4webapi), reading
 * stops at the cap with an InputLimitError naming the document and the setting, and the connection is released.
 *
 * The shape is fetch's, narrowed to what those callers use, so it is given wherever `typeof fetch` was taken:
 *
 *     const http = { fetch: hostFetch, limits };              // one base for the transport and its sign-in
 *     const authorizer = new OAuthAuthorizer({ ..., fetch: createHttpFetch(http) });
 *     const transport = createHttpTransport({ url, authorizer, ...http });
 */
type HttpFetch = (input: string | URL, init?: HttpFetchInit) => Promise<Response>;

type HttpFetchInit = Pick<RequestInit, 'method' | 'headers' | 'body' | 'signal' | 'redirect'>;

interface HttpFetchOptions {
  /** The underlying fetch, as given to the transport. Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** The transport's limits; documents are capped at maxDocumentBytes. */
  limits?: Partial<InputLimits>;
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function createHttpFetch(options: HttpFetchOptions = {}): HttpFetch {
  const base = options.fetch ?? ((input, init) => fetch(input, init));
  const limit = inputLimits(options.limits).maxDocumentBytes;
  return async (input, init = {}) => {
    const start = typeof input === 'string' ? input : input.href;
    const origin = new URL(start).origin;
    let target = start;
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const follow = (init.redirect ?? 'follow') === 'follow';
    for (let hops = 0; ; hops++) {
      // The redirects are handled here, never by the underlying fetch: it would follow them to any origin.
      const response = await base(target, { ...init, method, body, redirect: follow ? 'manual' : init.redirect });
      const location = response.headers.get('location');
      if (!follow || !REDIRECT_STATUSES.has(response.status) || location === null) {
        return cappedResponse(response, limit, `${method} ${displayUrl(target)}`);
      }
      await discardBody(response);
      const next = resolveRedirect(location, target);
      if (next.origin !== origin) {
        throw new LocalError('transport', `${method} ${displayUrl(target)} was redirected to another origin (${next.origin}); not following it, so what is sent stays with ${origin}`);
      }
      if (hops + 1 >= MAX_REDIRECTS) throw new LocalError('transport', `${method} ${displayUrl(start)} was redirected more than ${MAX_REDIRECTS} times`);
      // Fetch's rule: 303, and 301/302 after a POST, continue as a GET without the body; 307/308 keep both.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      target = next.href;
    }
  };
}

/**
 * The same response with a body that errors past `limit` bytes (and cancels the original, releasing the connection).
 * A declared Content-Length above the cap fails at once, before a byte is read.
 */
function cappedResponse(response: Response, limit: number, what: string): Response {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    void discardBody(response);
    throw new InputLimitError(`the document from ${what}`, limit, 'maxDocumentBytes');
  }
  if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
  const reader = response.body.getReader();
  let total = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      total += value.byteLength;
      if (total > limit) {
        reader.cancel().catch(() => undefined);
        controller.error(new InputLimitError(`the document from ${what}`, limit, 'maxDocumentBytes'));
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const capped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // A constructed Response has no URL; callers report it (and oauth4webapi may read it).
  Object.defineProperty(capped, 'url', { value: response.url });
  return capped;
}
