import type { Logger } from '../jsonrpc/rpcConnection';
import type {
  ClientNotificationMethod,
  ClientNotifications,
  ClientRequestMethod,
  ClientRequests,
  JsonParams,
  ServerRequestMethod,
  ServerRequests,
} from '../methods';
import type { OutgoingHttpRequest, Transport } from '../transports/transport';
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, ServerCapabilities } from '../types';

/**
 * The protocol era seam. An era is the strategy that decides, for one server connection:
 *   - how a session is opened (handshake era: `initialize` + `notifications/initialized`;
 *     2026-07-28 "modern" era: `server/discover`, no handshake),
 *   - what every request carries (params `_meta` additions, per-request HTTP headers),
 *   - how one attempt's outcome is read: complete, fail, send again, renew the session, or ask the host
 *     for input and send again,
 *   - how an expired session is renewed.
 * `McpClient` owns the request loop and calls the era at each of these points, so a new era is a new
 * implementation of `ProtocolEra` and no caller of the client changes.
 *
 * Contract notes for implementers:
 *   - Eras never mutate params they are given; they return new objects.
 *   - Everything the server sends is untrusted: an era checks what it reads from results and errors.
 *   - The client guarantees: renewal is single-flight (concurrent requests that ask for it share one call
 *     of `renew`), and a request is renewed at most once; 'retry' and 'input-required' rounds are bounded.
 */

// ---- sessions ----------------------------------------------------------------------------------------

/** What every session kind knows about the server; UI code reads these fields without switching on kind. */
export interface SessionBase {
  /** The revision in use (negotiated by the handshake, or chosen per request by the modern era). */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** A session opened with the `initialize` handshake (revisions 2024-11-05 … 2025-11-25). */
export interface HandshakeSession extends SessionBase {
  kind: 'handshake';
}

/**
 * A 2026-07-28 ("modern") session: there is no handshake; `server/discover` told the client what the server
 * speaks and offers, and every request carries the revision, capabilities and client info in `_meta`.
 */
export interface ModernSession extends SessionBase {
  kind: 'modern';
  /** Every revision the server listed in server/discover. */
  supportedVersions: string[];
}

/**
 * What the client knows about the server once a session is open. Switches over `kind` must be exhaustive.
 */
export type ServerSession = HandshakeSession | ModernSession;

export type EraKind = ServerSession['kind'];

// ---- what the client lends an era --------------------------------------------------------------------

/** How the client introduces itself (sent once by the handshake, on every request by the modern era). */
export interface ClientIdentity {
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
}

export interface WireRequestOptions {
  timeoutMs?: number;
  /** `initialize` must never be cancelled (on timeout it is abandoned without notifications/cancelled). */
  cancellable?: boolean;
  signal?: AbortSignal;
  /** Hard limit however long the request lives (a 2026-07-28 subscription stream lives as long as the connection). */
  maxTotalTimeoutMs?: number;
  /** Told the JSON-RPC id the request went out with (2026-07-28 subscriptions are named by it). */
  onRequestId?: (id: string | number) => void;
}

/**
 * Direct access to the connection for opening and renewing a session: requests go out exactly as given
 * (not shaped by `shapeParams`) and their results come back unread by `interpret`.
 */
export interface EraWire {
  readonly serverName: string;
  readonly logger: Logger;
  readonly transport: Transport;
  request<M extends ClientRequestMethod>(
    method: M,
    params: ClientRequests[M]['params'],
    options?: WireRequestOptions,
  ): Promise<ClientRequests[M]['result']>;
  notify<M extends ClientNotificationMethod>(method: M, params: ClientNotifications[M]['params']): Promise<void>;
}

// ---- reading one attempt -----------------------------------------------------------------------------

/** What came back for one attempt of a request. */
export type AttemptOutcome =
  | { kind: 'result'; result: JsonObject }
  /** `McpError` when the server answered with an error object, `LocalError` for local failures. */
  | { kind: 'error'; error: Error };

/** One request the server needs answered before it can complete (2026-07-28 `inputRequests` values). */
export type InputRequest = { [M in ServerRequestMethod]: { method: M; params: ServerRequests[M]['params'] } }[ServerRequestMethod];

/** The host's answers, keyed like the `inputRequests` they answer: each is that request's result. */
export type InputResponses = Record<string, JsonObject>;

/** A URL the person must open before the server can serve the request (handshake era, error -32042). */
export interface RequiredUrlElicitation {
  url: string;
  elicitationId: string;
  message?: string;
}

/** What the client does next with one attempt's outcome. */
export type AttemptVerdict =
  /** Done: this is the request's result. */
  | { kind: 'complete'; result: JsonObject }
  /** Done: the request failed with this error. */
  | { kind: 'fail'; error: Error }
  /**
   * Send the request again (new JSON-RPC id) after the era updated its own state, for example another
   * protocol version after UnsupportedProtocolVersion. `shapeParams` is called again for the new attempt.
   */
  | { kind: 'retry'; reason: string }
  /** The server forgot the session (HTTP 404 for our session id): renew it once, then send again. */
  | { kind: 'renew-session'; reason: string }
  /**
   * The server needs input first (2026-07-28 `resultType: "input_required"`). The client answers every
   * request through the host (the same handlers that serve server→client requests), then sends the request
   * again on a new id with the params `continueWith` builds (adding `inputResponses` and echoing
   * `requestState` verbatim).
   */
  | {
      kind: 'input-required';
      inputRequests: Readonly<Record<string, InputRequest>>;
      continueWith(params: JsonParams | undefined, responses: InputResponses): JsonParams;
    }
  /**
   * Handshake era, error -32042: the person must complete these URL elicitations (with consent), then the
   * request is sent again once; when they cannot be completed, `error` stands.
   */
  | { kind: 'url-elicitation-required'; elicitations: readonly RequiredUrlElicitation[]; error: Error };

// ---- the strategy ------------------------------------------------------------------------------------

/** One attempt of one request, as the era sees it (an object so later fields can be added without churn). */
export interface AttemptContext {
  method: ClientRequestMethod;
  /** Counts from 1 for this request; retries, renewals and input rounds each start a new attempt. */
  attempt: number;
  session: ServerSession;
  identity: ClientIdentity;
}

export interface ProtocolEra {
  readonly kind: EraKind;

  /**
   * Opens the session on a started connection. Rejects with a LocalError naming the server and the cause
   * (for example 'unsupported-version'); the client then closes the connection.
   */
  open(wire: EraWire, identity: ClientIdentity): Promise<ServerSession>;

  /**
   * Renews an expired session on the same connection and returns the new one. The client calls it at most
   * once at a time however many requests saw the expiry.
   */
  renew(wire: EraWire, identity: ClientIdentity, reason: string): Promise<ServerSession>;

  /**
   * The params one attempt of `method` sends: the era adds what every request carries (the modern era's
   * `_meta` protocolVersion / clientCapabilities / clientInfo). Returns `params` itself when it adds nothing.
   */
  shapeParams(params: JsonParams | undefined, context: AttemptContext): JsonParams | undefined;

  /**
   * The protocol headers of one HTTP request (installed on the transport with `setProtocolHeaders`).
   * Handshake era: MCP-Protocol-Version once negotiated. Modern era: MCP-Protocol-Version, Mcp-Method,
   * Mcp-Name on every POST.
   */
  headersFor(request: OutgoingHttpRequest): Record<string, string>;

  /** Reads one attempt's outcome. */
  interpret(outcome: AttemptOutcome, context: AttemptContext): AttemptVerdict;

  /**
   * Whether a server notification belongs to this session (2026-07-28: list-change and resource-update
   * notifications must carry the id of one of our subscriptions). Absent means every notification does.
   */
  acceptsNotification?(method: string, params: JsonObject): boolean;

  /** Releases what the era holds open (2026-07-28: the subscriptions/listen stream). */
  close?(): void;

  /** 2026-07-28: the log level every request asks for in `_meta` (replaces logging/setLevel). */
  setLogLevel?(level: LoggingLevel | undefined): void;

  /** 2026-07-28: the resources whose updates the subscription stream asks for (replaces resources/subscribe). */
  setSubscribedResources?(uris: readonly string[]): void;
}
