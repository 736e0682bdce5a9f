import { DEFAULT_INPUT_LIMITS, InputLimitError, readTextCapped } from '../../protocol/limits/inputLimits';
import { checkExternalUrl, escapeForDisplay } from '../urlPolicy';

/**
 * One GET of a discovery document (a Server Card or a catalog, SEP-2127), made only when the person asks for it.
 * Everything about it is bounded: the time (a timeout over the whole exchange, body included), the bytes (the
 * `maxDocumentBytes` cap, read by the shared capped reader), the nesting of the JSON, and the redirects (at most
 * MAX_REDIRECTS, each within the origin first asked: a document's address is what the person was shown). The request
 * carries nothing of the person's: no Authorization, no cookies, no configured headers; only Accept.
 */

export type DiscoveryErrorKind =
  | 'refused-url'
  | 'unreachable'
  | 'timeout'
  | 'not-found'
  | 'http-status'
  | 'redirected-away'
  | 'too-many-redirects'
  | 'too-large'
  | 'not-json'
  | 'too-deep'
  | 'invalid';

/** Why a document could not be read; `message` is the English sentence (the CLI, logs), the fields are for wording. */
export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
  constructor(
    readonly kind: DiscoveryErrorKind,
    /** The URL asked for (escaped for display where it is shown). */
    readonly url: string,
    message: string,
    readonly detail: {
      status?: number;
      location?: string;
      limitBytes?: number;
      errors?: readonly string[];
      reason?: string;
      /** A second URL asked for the same document (a domain's AI Catalog after its MCP Catalog). */
      alsoTried?: string;
    } = {},
  ) {
    super(message);
  }
}

export interface DiscoveryFetchOptions {
  fetch?: typeof fetch;
  /** Bounds the whole exchange, redirects and body included (default 10 s). */
  timeoutMs?: number;
  /** The byte cap of one document (default InputLimits.maxDocumentBytes, 1 MiB). */
  maxBytes?: number;
  /** The person's Cancel. */
  signal?: AbortSignal;
}

export const DEFAULT_DISCOVERY_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;
/** Cards are a few levels deep (card → remotes → headers → variables → input); a catalog entry's inline card two more. */
export const MAX_DOCUMENT_DEPTH = 32;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface DiscoveryDocument {
  /** Where the document was finally read (after same-origin redirects). */
  url: string;
  body: unknown;
}

export async function getDiscoveryDocument(
  url: string,
  accept: string,
  what: string,
  options: DiscoveryFetchOptions = {},
): Promise<DiscoveryDocument> {
  const verdict = checkExternalUrl(url);
  if (verdict.kind === 'refused')
    throw new DiscoveryError('refused-url', url, `${escapeForDisplay(url)}: ${verdict.detail}`, {
      reason: verdict.detail,
    });
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_INPUT_LIMITS.maxDocumentBytes;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const origin = new URL(verdict.url).origin;
  let target = verdict.url;
  const shown = escapeForDisplay(verdict.url);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetchFn(target, {
        method: 'GET',
        headers: { accept },
        redirect: 'manual',
        credentials: 'omit',
        signal,
      });
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        let next: URL | undefined;
        try {
          next = new URL(location, target);
        } catch {
          next = undefined;
        }
        if (next === undefined || next.origin !== origin)
          throw new DiscoveryError(
            'redirected-away',
            verdict.url,
            `${shown} redirected ${what} to another origin (${escapeForDisplay(next?.origin ?? location.slice(0, 200))}); not followed: only redirects within ${origin} are`,
            { location: next?.origin ?? location.slice(0, 200) },
          );
        if (redirects + 1 > MAX_REDIRECTS)
          throw new DiscoveryError(
            'too-many-redirects',
            verdict.url,
            `${shown} was redirected more than ${MAX_REDIRECTS} times`,
          );
        target = next.href;
        continue;
      }
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel().catch(() => undefined);
        throw new DiscoveryError(
          'not-found',
          verdict.url,
          `there is no ${what} at ${shown} (HTTP ${response.status})`,
          {
            status: response.status,
          },
        );
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new DiscoveryError('http-status', verdict.url, `${shown} answered HTTP ${response.status} for ${what}`, {
          status: response.status,
        });
      }
      const text = await readTextCapped(response, maxBytes, `${what} from ${shown}`, 'maxDocumentBytes');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new DiscoveryError(
          'not-json',
          verdict.url,
          `${what} at ${shown} is not JSON: ${(error as Error).message}`,
        );
      }
      if (nestingExceeds(body, MAX_DOCUMENT_DEPTH))
        throw new DiscoveryError(
          'too-deep',
          verdict.url,
          `${what} at ${shown} is nested more than ${MAX_DOCUMENT_DEPTH} levels deep; not read`,
        );
      return { url: target, body };
    }
  } catch (error) {
    if (error instanceof DiscoveryError) throw error;
    if (error instanceof InputLimitError)
      throw new DiscoveryError('too-large', verdict.url, error.message, { limitBytes: error.limitBytes });
    if (timeout.aborted && !options.signal?.aborted)
      throw new DiscoveryError('timeout', verdict.url, `${shown} did not answer within ${timeoutMs} ms`);
    if (options.signal?.aborted) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : errorText(error);
    throw new DiscoveryError('unreachable', verdict.url, `${shown} could not be reached: ${cause}`, {
      reason: cause,
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when `value` nests objects or arrays deeper than `limit`; walks without recursion. */
export function nestingExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}
