import type { Disposable } from '../disposable';
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
import type { ListMethod } from '../methods';

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
interface SessionBase {
  /** The revision in use (negotiated by the handshake, or chosen per request by the modern era). */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  /**
   * Why this era was chosen, when the era selection has more to say than the preference (era auto: the server
   * answered server/discover, refused it, or was slow to answer the probe). For the log and the tooltip.
   */
  eraChoice?: string;
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
 * Requests the era sends through the client's own request loop (shaped by `shapeParams`, read by `interpret`), for
 * the era-specific ways of doing one thing: subscribing to a resource, setting the log level, telling of new roots.
 */
export interface EraRequests {
  request(method: ClientRequestMethod, params: JsonParams | undefined): Promise<JsonObject>;
  notify<M extends ClientNotificationMethod>(method: M, params: ClientNotifications[M]['params']): Promise<void>;
}

/** What the client's listeners want to hear about; the era opens what delivers it only when something listens. */
export interface WantedNotifications {
  toolsListChanged: boolean;
  promptsListChanged: boolean;
  resourcesListChanged: boolean;
  /** Resources the person subscribed to (their updates are wanted whoever listens). */
  resourceSubscriptions: readonly string[];
  /** What protocol extensions add to the 2026-07-28 listen filter (ExtensionContext.listenFor). */
  extensionFields: Readonly<Record<string, unknown>>;
}

/** Before a request goes out: send it, or it is already answered (a fresh cached result). */
export type Preflight = { kind: 'send' } | { kind: 'answered'; result: JsonObject };

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
  /**
   * Fires for every message the server sends (any response, error, request or notification), before it is handled:
   * the era probe takes anything a server says before answering server/discover as evidence of its era.
   */
  onServerMessage(listener: () => void): Disposable;
}

/** `inner` with its requests sent through `request` (the probe's bound, a start's deadline); the rest as it is. */
export function wireWithRequests(inner: EraWire, request: EraWire['request']): EraWire {
  return {
    serverName: inner.serverName,
    logger: inner.logger,
    transport: inner.transport,
    onServerMessage: (listener) => inner.onServerMessage(listener),
    notify: (method, params) => inner.notify(method, params),
    request,
  };
}

// ---- reading one attempt -----------------------------------------------------------------------------

/** What came back for one attempt of a request. */
export type AttemptOutcome =
  | { kind: 'result'; result: JsonObject }
  /** `McpError` when the server answered with an error object, `LocalError` for local failures. */
  | { kind: 'error'; error: Error };

/** One request the server needs answered before it can complete (2026-07-28 `inputRequests` values). */
export type InputRequest = {
  [M in ServerRequestMethod]: { method: M; params: ServerRequests[M]['params'] };
}[ServerRequestMethod];

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
   * The server says the request was shaped from a stale list (2026-07-28 HeaderMismatch after the x-mcp-header
   * annotations changed): list again, then send once more; when it fails again, `error` stands.
   */
  | { kind: 'relist-and-retry'; list: ListMethod; reason: string; error: Error }
  /**
   * A result of a type a protocol extension owns (a `resultType` such as "task"): the client hands it to that
   * extension, whose answer is the request's result.
   */
  | { kind: 'extension-result'; resultType: string; result: JsonObject }
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
  /** The `resultType` values enabled protocol extensions own; the era hands such results to them. */
  extensionResultTypes: ReadonlySet<string>;
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

  /** The request that checks the server answers: `ping`, or 2026-07-28's server/discover (which removed ping). */
  livenessMethod(): 'ping' | 'server/discover';

  /**
   * Before a request goes out: a fresh cached result answers it (2026-07-28 ttlMs), and a method the era does not
   * have is refused with a LocalError naming it. `refresh` skips the cache.
   */
  preflight(method: ClientRequestMethod, params: JsonParams | undefined, refresh: boolean): Preflight;

  /** A request completed with `result` (2026-07-28: kept while its ttlMs says it is fresh). */
  completed?(method: ClientRequestMethod, params: JsonParams | undefined, result: JsonObject): void;

  /** Whether a URL-mode elicitation/create must carry an elicitationId (2026-07-28 removed it). */
  urlElicitationNeedsId(): boolean;

  /**
   * The resources the person subscribed to changed: handshake era sends resources/(un)subscribe; 2026-07-28
   * reopens the subscription stream with the new list.
   */
  changeResourceSubscription(
    uri: string,
    subscribed: boolean,
    all: readonly string[],
    send: EraRequests,
  ): Promise<void>;

  /** handshake: logging/setLevel; 2026-07-28: the level every request asks for in `_meta`. */
  setLogLevel(level: LoggingLevel, send: EraRequests): Promise<void>;

  /** The host's roots changed: handshake sends notifications/roots/list_changed; 2026-07-28 sends roots with each request. */
  rootsChanged(send: EraRequests): Promise<void>;

  /** What the client's listeners want; 2026-07-28 opens subscriptions/listen only when something listens. */
  setWantedNotifications?(wanted: WantedNotifications): void;
}
