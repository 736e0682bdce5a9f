import type { Disposable } from '../disposable';

/**
 * What a transport hands upward. Transports do no JSON-RPC validation: they deliver every parsed JSON value
 * (or the raw text that failed to parse) and the shared reader classifies it, so every transport gets the
 * same base-protocol checks.
 */
export interface TransportSink {
  /** A parsed JSON value received from the server (object, array, anything). */
  onMessage(value: unknown): void;
  /** Text received where a JSON-RPC message was expected but could not be parsed. */
  onUnparsable(raw: string, reason: string): void;
  /** A transport-level problem that does not end the connection (for example a failed GET stream). */
  onWarning(message: string): void;
  /** The connection is gone; `error` says why when it was not a clean close. */
  onClose(error?: Error): void;
  /**
   * The response to this request can no longer arrive (2026-07-28 Streamable HTTP: its SSE stream broke and
   * streams are not resumable). The request fails locally so the era can issue it again on a new id.
   */
  onRequestLost?(requestId: string | number, reason: string): void;
}

/**
 * How an HTTP transport relates requests to each other. `sessions`: revisions up to 2025-11-25 (Mcp-Session-Id,
 * the GET stream, DELETE, resumption). `stateless`: 2026-07-28, where every POST stands alone: no session id
 * is echoed, nothing is resumed or deleted, an error answer in a 4xx body is the request's response, and
 * cancelling a request means closing its response stream instead of sending notifications/cancelled.
 */
export type HttpSessionMode = 'sessions' | 'stateless';

/** A line the server wrote to stderr, or another diagnostic the transport wants in the server's log. */
export type DiagnosticListener = (line: string) => void;

export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

/**
 * One HTTP request a transport is about to make, as the protocol era sees it: the era decides the
 * protocol headers (MCP-Protocol-Version after the handshake; Mcp-Method / Mcp-Name in 2026-07-28).
 */
export type OutgoingHttpRequest =
  /** A POST carrying one JSON-RPC message (request, notification or response). */
  | { kind: 'message'; message: object }
  /** A GET that opens or resumes a server-to-client SSE stream. */
  | { kind: 'stream' }
  /** The DELETE that ends a Streamable HTTP session. */
  | { kind: 'end-session' };

/** Computes the per-request protocol headers; called for every HTTP request, so it must be cheap and pure. */
export type ProtocolHeaderProvider = (request: OutgoingHttpRequest) => Record<string, string>;

export interface Transport extends Disposable {
  readonly kind: TransportKind;
  /** Opens the connection (spawns the process, opens streams). Rejects with a TransportError on failure. */
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one JSON-RPC message. Resolves once the message was handed over (written to stdin, or the POST
   * was accepted). Rejects with a TransportError that names the cause (HTTP status, closed pipe, ...).
   * For HTTP, a response body (JSON or SSE) is delivered later through the sink.
   */
  send(message: object): Promise<void>;
  /**
   * Installs the protocol era's per-request headers (HTTP transports add them to every request; protocol
   * headers win over configured ones, credentials come from the authorizer). Transports without headers
   * (stdio, in-memory) omit this method.
   */
  setProtocolHeaders?(provider: ProtocolHeaderProvider | undefined): void;
  /** Switches between session-based and stateless HTTP (see HttpSessionMode). Non-HTTP transports omit it. */
  setSessionMode?(mode: HttpSessionMode): void;
  /**
   * The session is established: a transport whose server-to-client channel is opened lazily (Streamable
   * HTTP's standalone GET stream) opens it now. Called again after a renewed session. Others omit it.
   */
  openServerChannel?(): void;
  /** Graceful, staged close. Resolves when everything the transport owns is released. */
  close(): Promise<void>;
  /** Subscribe to diagnostics (stderr lines, HTTP notes). */
  onDiagnostic(listener: DiagnosticListener): Disposable;
}
