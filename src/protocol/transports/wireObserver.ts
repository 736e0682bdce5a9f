import type { TraceDirection } from '../jsonrpc/mcpStreams';

/**
 * The one seam through which a host watches the wire of a connection (the Protocol view, an exported log): each
 * JSON-RPC message both ways (given to McpClientOptions.trace) and each HTTP exchange (through `observeFetch`, which
 * wraps the fetch handed to the transport and to the OAuth authorizer). Nothing here masks or copies: the observer
 * receives the live values and must mask before it keeps or shows anything. Without an observer nothing is wrapped,
 * so an unobserved connection pays nothing.
 */
export interface WireObserver {
  /** One JSON-RPC message (or batch) as sent or as received, before validation. */
  message(direction: TraceDirection, message: unknown): void;
  /** One HTTP request and its response head (or why it failed). Redirect hops are separate exchanges. */
  http(exchange: HttpExchangeRecord): void;
}

/** `mcp`: the transport's own requests (POST, the GET stream, DELETE). `auth`: OAuth discovery, registration, tokens. */
export type HttpPurpose = 'mcp' | 'auth';

type HttpOutcome =
  | { kind: 'response'; status: number; statusText: string; headers: Record<string, string> }
  | { kind: 'failed'; reason: string };

export interface HttpExchangeRecord {
  purpose: HttpPurpose;
  method: string;
  /** As requested: it may carry secrets in its query, the observer masks it. */
  url: string;
  /** Names in lower case, values as sent (credentials included: the observer masks them). */
  requestHeaders: Record<string, string>;
  /** The body of an `auth` request when it is text (a token request's form); MCP bodies are seen as messages. */
  requestBody?: string;
  startedAt: number;
  /** Until the response head arrived (or the request failed). */
  durationMs: number;
  outcome: HttpOutcome;
}

/** A fetch that reports each exchange to `observer`, and otherwise behaves exactly like `base`. */
export function observeFetch(base: typeof fetch, observer: WireObserver, purpose: HttpPurpose): typeof fetch {
  return async (input, init) => {
    const startedAt = Date.now();
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const requestHeaders = headerRecord(init?.headers ?? request?.headers);
    const requestBody =
      purpose === 'auth' && typeof init?.body === 'string'
        ? init.body
        : purpose === 'auth' && init?.body instanceof URLSearchParams
          ? init.body.toString()
          : undefined;
    const report = (outcome: HttpOutcome) => {
      try {
        observer.http({
          purpose,
          method,
          url,
          requestHeaders,
          ...(requestBody === undefined ? {} : { requestBody }),
          startedAt,
          durationMs: Date.now() - startedAt,
          outcome,
        });
      } catch {
        // An observer's failure must never change what the connection does.
      }
    };
    let response: Response;
    try {
      response = await base(input, init);
    } catch (error) {
      report({ kind: 'failed', reason: failureReason(error) });
      throw error;
    }
    report({
      kind: 'response',
      status: response.status,
      statusText: response.statusText,
      headers: headerRecord(response.headers),
    });
    return response;
  };
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  const record: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((value, name) => (record[name] = value));
  } else if (Array.isArray(headers)) {
    for (const [name, value] of headers) record[name.toLowerCase()] = value;
  } else {
    for (const [name, value] of Object.entries(headers)) record[name.toLowerCase()] = String(value);
  }
  return record;
}

function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
