import type { InputLimitError, InputLimits } from '../limits/inputLimits';
import type { LocalError } from '../errors';
import type { AuthorizedRequest } from './httpShared';
import type { HttpSessionMode, OutgoingHttpRequest } from './transport';

/**
 * The seam between the Streamable HTTP transport and its two ways of relating requests (HttpSessionMode): the
 * transport does what every POST needs (headers, credentials, reading a JSON or SSE answer within the limits,
 * delivering messages); a mode object does what differs (sessionMode.ts: Mcp-Session-Id, resumable streams, the GET
 * stream, DELETE; statelessMode.ts: 2026-07-28, where each POST stands alone).
 */

export type RequestId = string | number;

/** What the transport offers the mode objects. */
export interface HttpWire {
  readonly url: string;
  readonly limits: InputLimits;
  /** Whether the transport is open (not closing or closed). */
  readonly isOpen: boolean;
  /** Requests whose response is expected on an SSE stream; deliver() removes those answered. */
  readonly awaiting: Set<RequestId>;
  /** One HTTP request with the transport's fetch, credentials and redirect memory. */
  fetch(request: Omit<AuthorizedRequest, 'redirects'>): Promise<Response>;
  /** The transport's, the active mode's and the era's headers for one request. */
  headers(request: OutgoingHttpRequest, accept: string, extra?: Record<string, string>): Record<string, string>;
  /** Parses a received JSON-RPC message (or batch) and hands it to the sink. */
  deliver(raw: string): void;
  /** A diagnostic line (the server's log). */
  note(line: string): void;
  /** A diagnostic that the person should see (TransportSink.onWarning). */
  warn(line: string): void;
  /** These requests' responses can no longer arrive: a stream was stopped at a cap. They fail naming the limit. */
  failTooLarge(requestIds: readonly RequestId[], error: InputLimitError): void;
  /** These requests' responses can no longer arrive: their stream broke (the era may issue them again). */
  lose(requestIds: readonly RequestId[], reason: string): void;
}

/** One POST in flight, from its request to the end of its answer. */
export interface Exchange {
  readonly requestId: RequestId | undefined;
  readonly signal: AbortSignal;
  /** The session the POST carried (session mode), so a 404 forgets only that session. */
  readonly sessionId?: string;
}

/** Where an SSE stream came from decides whether it is worth resuming when it drops. */
type StreamOrigin = { kind: 'post'; requestIds: readonly RequestId[] } | { kind: 'standalone' };

/** One logical SSE stream, which may span several HTTP responses (the original plus resumptions). */
export interface LogicalStream {
  readonly label: string;
  readonly origin: StreamOrigin;
  lastEventId: string;
  retryMs: number | undefined;
}

export interface HttpExchangeMode {
  readonly kind: HttpSessionMode;
  /** Adds this mode's headers (Mcp-Session-Id) to a request's headers; the era's headers still win. */
  decorate(headers: Record<string, string>): void;
  /** Learns what this mode keeps from a response's headers (the session id). */
  observe(response: Response): void;
  /**
   * The client cancels `requestId` (a notifications/cancelled is about to be sent): true when the mode cancelled it
   * itself and nothing is to be sent (2026-07-28: closing the request's response stream is the cancellation).
   */
  cancel(requestId: RequestId): boolean;
  /** Starts one POST exchange. */
  begin(requestId: RequestId | undefined): Exchange;
  /** The exchange's answer was read to its end, or failed. */
  end(exchange: Exchange): void;
  /** The response to `requestId` arrived. */
  answered(requestId: RequestId): void;
  /**
   * A POST was answered with a non-2xx status: true when the mode delivered the body as the request's answer. May
   * throw the mode's own error (session expired); false leaves the generic HTTP error to the transport.
   */
  refused(response: Response, exchange: Exchange, label: string): Promise<boolean>;
  /** Why an aborted POST of an open transport was aborted, in this mode's terms. */
  abortError(method: string, exchange: Exchange, cause: unknown): LocalError;
  /** Reads a POST's SSE answer to its end (resuming it where the mode can). Never rejects. */
  followPostStream(stream: LogicalStream, response: Response, exchange: Exchange): Promise<void>;
  /** The session is established: open the server-to-client channel if this mode has one. */
  openServerChannel(): void;
  /** Ends everything the mode owns (fetches, streams, timers); a session is ended with the server (DELETE). */
  shutdown(): Promise<void>;
}

export function requestIdOf(message: object): RequestId | undefined {
  const record = message as Record<string, unknown>;
  if (typeof record.method !== 'string') return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
}

/** The request a `notifications/cancelled` gives up on: no point resuming a stream for it any more. */
export function cancelledRequestIdOf(message: object): RequestId | undefined {
  const record = message as Record<string, unknown>;
  if (record.method !== 'notifications/cancelled') return undefined;
  const params = record.params as Record<string, unknown> | undefined;
  const id = params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Ids of responses (result or error) contained in a received value, single message or array. */
export function answeredIdsOf(value: unknown): RequestId[] {
  const items = Array.isArray(value) ? value : [value];
  const ids: RequestId[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    if (typeof record.method === 'string' || !('result' in record || 'error' in record)) continue;
    if (typeof record.id === 'string' || typeof record.id === 'number') ids.push(record.id);
  }
  return ids;
}
