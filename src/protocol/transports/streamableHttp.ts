import { staticHeaders, type HttpAuthorizer } from '../auth/authorizer';
import type { Disposable } from '../disposable';
import { Emitter } from '../disposable';
import { LocalError, errorMessage } from '../errors';
import type { DiagnosticListener, HttpSessionMode, OutgoingHttpRequest, ProtocolHeaderProvider, Transport, TransportSink } from './transport';
import { SseParser } from './sseParser';
import {
  authorizedFetch,
  describeFetchFailure,
  describeMessage,
  discardBody,
  displayUrl,
  httpStatusError,
  mediaType,
  networkError,
  pumpSse,
  readBodyPrefix,
  RedirectMemory,
  setHeaders,
  sleep,
  validateHttpUrl,
} from './httpShared';


/**
 * The MCP "Streamable HTTP" transport (spec 2025-11-25, basic/transports): every client message is one
 * POST; the answer is 202, a JSON body, or an SSE stream; an optional standalone GET stream carries
 * server-initiated messages; interrupted streams are resumed with a GET carrying Last-Event-ID.
 */

export interface StreamableHttpOptions {
  url: string;
  /** Supplies credentials for every request and answers 401/403 challenges. Defaults to `staticHeaders(headers)`. */
  authorizer?: HttpAuthorizer;
  /** Shorthand for `authorizer: staticHeaders(headers)`; ignored when an authorizer is given. Protocol headers win. */
  headers?: Record<string, string>;
  /** Injected for tests and for hosts that wrap fetch (proxies). Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Delay before reconnecting an SSE stream when the server sent no `retry` field. */
  reconnectDelayMs?: number;
  /** Consecutive reconnections without progress before a stream is given up. */
  maxReconnectAttempts?: number;
}

export const DEFAULT_RECONNECT_DELAY_MS = 1000;
export const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;
const DELETE_TIMEOUT_MS = 2000;
/** An SSE connection that stayed up this long counts as progress even without events. */
const HEALTHY_CONNECTION_MS = 10_000;

type RequestId = string | number;

function requestIdOf(message: object): RequestId | undefined {
  const record = message as Record<string, unknown>;
  if (typeof record.method !== 'string') return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
}

/** The request a `notifications/cancelled` gives up on: no point resuming a stream for it any more. */
function cancelledRequestIdOf(message: object): RequestId | undefined {
  const record = message as Record<string, unknown>;
  if (record.method !== 'notifications/cancelled') return undefined;
  const params = record.params as Record<string, unknown> | undefined;
  const id = params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Ids of responses (result or error) contained in a received value, single message or array. */
function answeredIdsOf(value: unknown): RequestId[] {
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

// ---------------------------------------------------------------------------------------------------------

type TransportState =
  | { kind: 'idle' }
  | { kind: 'open'; sink: TransportSink }
  | { kind: 'closing'; done: Promise<void> }
  | { kind: 'closed' };

/** Where an SSE stream came from decides whether it is worth resuming when it drops. */
type StreamOrigin = { kind: 'post'; requestIds: readonly RequestId[] } | { kind: 'standalone' };

/** One logical SSE stream, which may span several HTTP responses (the original plus resumptions). */
interface LogicalStream {
  readonly label: string;
  readonly origin: StreamOrigin;
  lastEventId: string;
  retryMs: number | undefined;
}

type GetOutcome =
  | { kind: 'stream'; response: Response }
  /** The server has no stream for us (405, or 2xx that is not SSE): stop quietly. */
  | { kind: 'unsupported'; reason: string }
  /** Retrying will not help (4xx, closed transport). */
  | { kind: 'fatal'; reason: string }
  /** Worth another attempt (network error, 5xx, 429). */
  | { kind: 'failed'; reason: string };

export class StreamableHttpTransport implements Transport {
  readonly kind = 'streamable-http' as const;
  private state: TransportState = { kind: 'idle' };
  private readonly diagnostics = new Emitter<string>();
  private readonly fetchFn: typeof fetch;
  private readonly authorizer: HttpAuthorizer;
  private readonly reconnectDelayMs: number;
  private readonly maxReconnectAttempts: number;

  private sessionId: string | undefined;
  /** The protocol era's headers (MCP-Protocol-Version, ...); the era owns them, the transport only adds them. */
  private protocolHeaders: ProtocolHeaderProvider | undefined;
  /**
   * Aborts everything tied to the current session: fetches, SSE readers, reconnect timers. Replaced when
   * the session expires (old streams die, the transport lives on) and aborted for good on close.
   */
  private scope = new AbortController();
  /** Requests whose response is expected on an SSE stream; a stream that drops early is resumed for them. */
  private readonly awaitingResponse = new Set<RequestId>();
  private standaloneStream: LogicalStream | undefined;
  private sessionMode: HttpSessionMode = 'sessions';
  /** Stateless mode: each request's own abort, so cancelling it closes exactly its response stream. */
  private readonly requestAborts = new Map<RequestId, AbortController>();
  /**
   * Stateless mode: the abort of every POST whose exchange (request, then its JSON body or event stream) is not over,
   * by its signal, so that closing the transport ends them all.
   */
  private readonly openExchanges = new Map<AbortSignal, AbortController>();
  /** Whether this endpoint redirects: until it does, requests skip the copy fetch makes to follow redirects. */
  private readonly redirects = new RedirectMemory();

  constructor(private readonly options: StreamableHttpOptions) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.authorizer = options.authorizer ?? staticHeaders(options.headers);
    this.reconnectDelayMs = options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS;
    this.maxReconnectAttempts = options.maxReconnectAttempts ?? DEFAULT_MAX_RECONNECT_ATTEMPTS;
  }

  /** The session id the server assigned, if any. */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  onDiagnostic(listener: DiagnosticListener): Disposable {
    return this.diagnostics.event(listener);
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.state.kind !== 'idle') throw new LocalError('transport', 'the HTTP transport was already started');
    validateHttpUrl(this.options.url);
    // Nothing to open yet: the first POST (initialize) is the first contact.
    this.state = { kind: 'open', sink };
  }

  setProtocolHeaders(provider: ProtocolHeaderProvider | undefined): void {
    this.protocolHeaders = provider;
  }

  setSessionMode(mode: HttpSessionMode): void {
    this.sessionMode = mode;
    if (mode === 'stateless') this.sessionId = undefined;
  }

  /** Opens the standalone GET stream for server-initiated messages, unless one exists for this session. */
  openServerChannel(): void {
    if (this.state.kind === 'open' && this.standaloneStream === undefined) {
      const stream: LogicalStream = { label: 'GET stream', origin: { kind: 'standalone' }, lastEventId: '', retryMs: undefined };
      this.standaloneStream = stream;
      this.runStandaloneStream(stream, this.scope.signal).catch((error: unknown) => this.warn(`GET stream failed: ${errorMessage(error)}`));
    }
  }

  async send(message: object): Promise<void> {
    if (this.state.kind !== 'open') throw new LocalError('connection-closed', 'the HTTP transport is not open');
    const url = this.options.url;
    const label = describeMessage(message);
    const cancelled = cancelledRequestIdOf(message);
    if (cancelled !== undefined) this.awaitingResponse.delete(cancelled);
    if (this.sessionMode === 'stateless' && cancelled !== undefined) {
      // 2026-07-28: closing the request's response stream is the cancellation; nothing else is sent.
      this.requestAborts.get(cancelled)?.abort();
      this.requestAborts.delete(cancelled);
      this.diagnostics.fire(`cancelled request ${JSON.stringify(cancelled)} by closing its response stream`);
      return;
    }
    const sentSessionId = this.sessionId;
    const requestId = requestIdOf(message);
    const signal = this.requestSignal(requestId);
    let streaming = false;
    try {
      streaming = await this.post(url, label, message, requestId, sentSessionId, signal);
    } finally {
      if (!streaming) this.openExchanges.delete(signal);
    }
  }

  /** One POST and its answer; true when the answer is an event stream still being read (it releases its exchange). */
  private async post(url: string, label: string, message: object, requestId: RequestId | undefined, sentSessionId: string | undefined, signal: AbortSignal): Promise<boolean> {
    let response: Response;
    try {
      response = await authorizedFetch(this.fetchFn, this.authorizer, url, {
        method: 'POST',
        headers: this.buildHeaders({ kind: 'message', message }, 'application/json, text/event-stream', { 'Content-Type': 'application/json' }),
        body: JSON.stringify(message),
        signal,
        redirects: this.redirects,
      });
    } catch (error) {
      throw this.fetchError('POST', signal, error);
    }
    this.captureSessionId(response);
    const type = mediaType(response);
    this.diagnostics.fire(`POST ${label} → ${response.status}${type ? ` (${type})` : ''}`);

    if (response.status === 202 || response.status === 204) {
      await discardBody(response);
      return false;
    }
    if (!response.ok) {
      if (this.sessionMode === 'stateless' && requestId !== undefined && (await this.deliverErrorAnswer(response, requestId))) return false;
      this.forgetRequest(requestId);
      if (response.status === 404 && sentSessionId !== undefined) {
        // Only the session this request carried is forgotten: a concurrent 404 that arrives after a new
        // session was made must not wipe it.
        if (this.sessionId === sentSessionId) this.forgetSession(`the server answered 404 to ${label}`);
        throw await httpStatusError(response, url, 'session-expired', (detail) => `session expired (${detail}); the client must initialize again`);
      }
      throw await httpStatusError(response, url);
    }

    if (type === 'text/event-stream') {
      if (requestId !== undefined) this.awaitingResponse.add(requestId);
      const stream: LogicalStream = {
        label: `SSE stream of ${label}`,
        origin: { kind: 'post', requestIds: requestId === undefined ? [] : [requestId] },
        lastEventId: '',
        retryMs: undefined,
      };
      // `send` is done once the headers are in; the events arrive in the background.
      this.followStream(stream, response, signal)
        .catch((error: unknown) => this.warn(`${stream.label} failed: ${errorMessage(error)}`))
        .finally(() => this.openExchanges.delete(signal));
      return true;
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.fetchError('POST', signal, error);
    } finally {
      this.forgetRequest(requestId);
    }
    if (text.trim().length === 0) return false;
    if (type !== 'application/json') {
      this.diagnostics.fire(`POST ${label}: unexpected content type '${type || 'none'}', reading the body as JSON`);
    }
    this.deliver(text);
    return false;
  }

  close(): Promise<void> {
    switch (this.state.kind) {
      case 'closing':
        return this.state.done;
      case 'closed':
        return Promise.resolve();
      case 'idle':
        this.state = { kind: 'closed' };
        return Promise.resolve();
      case 'open': {
        const sink = this.state.sink;
        let finished!: () => void;
        const done = new Promise<void>((resolve) => (finished = resolve));
        this.state = { kind: 'closing', done };
        void this.shutdown(sink).finally(finished);
        return done;
      }
    }
  }

  dispose(): void {
    void this.close();
  }

  // -------------------------------------------------------------------------------------------------------

  private async shutdown(sink: TransportSink): Promise<void> {
    this.scope.abort();
    this.abortOpenExchanges();
    this.awaitingResponse.clear();
    this.requestAborts.clear();
    const sessionId = this.sessionId;
    if (sessionId !== undefined && this.sessionMode === 'sessions') await this.deleteSession();
    this.state = { kind: 'closed' };
    this.diagnostics.fire('closed');
    try {
      sink.onClose();
    } catch {
      // The sink's failure must not leave close() pending.
    }
  }

  /** Tells the server the session is over (spec: SHOULD). 405 and failures are fine; bounded in time. */
  private async deleteSession(): Promise<void> {
    try {
      const response = await authorizedFetch(this.fetchFn, this.authorizer, this.options.url, {
        method: 'DELETE',
        headers: this.buildHeaders({ kind: 'end-session' }, 'application/json, text/event-stream'),
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
        redirects: this.redirects,
      });
      this.diagnostics.fire(`DELETE → ${response.status}`);
      await discardBody(response);
    } catch (error) {
      this.diagnostics.fire(`DELETE failed: ${describeFetchFailure(error)}`);
    }
  }

  /** The transport's and the era's headers; `authorizedFetch` adds the credentials underneath them. */
  private buildHeaders(request: OutgoingHttpRequest, accept: string, extra: Record<string, string> = {}): Record<string, string> {
    const headers = setHeaders({}, extra);
    headers.accept = accept;
    if (this.sessionId !== undefined && this.sessionMode === 'sessions') headers['mcp-session-id'] = this.sessionId;
    const protocol = this.protocolHeaders?.(request);
    return protocol ? setHeaders(headers, protocol) : headers;
  }

  private captureSessionId(response: Response): void {
    // 2026-07-28 has no sessions: a session id some server still sends is ignored, never echoed.
    if (this.sessionMode === 'stateless') return;
    const id = response.headers.get('mcp-session-id');
    if (id === null || id === '' || id === this.sessionId) return;
    this.sessionId = id;
    this.diagnostics.fire('session id received');
  }

  /**
   * The server no longer knows our session: drop it and everything tied to it, so the client can
   * initialize again on this same transport.
   */
  private forgetSession(reason: string): void {
    this.diagnostics.fire(`session expired: ${reason}`);
    this.sessionId = undefined;
    this.standaloneStream = undefined;
    this.awaitingResponse.clear();
    const old = this.scope;
    this.scope = new AbortController();
    old.abort();
    this.abortOpenExchanges();
  }

  private abortOpenExchanges(): void {
    const open = [...this.openExchanges.values()];
    this.openExchanges.clear();
    for (const controller of open) controller.abort();
  }

  /** The signal of one POST: the transport's scope, plus (stateless mode) the request's own abort. */
  private requestSignal(requestId: RequestId | undefined): AbortSignal {
    if (this.sessionMode !== 'stateless' || requestId === undefined) return this.scope.signal;
    // The request's own controller, which the transport's close also aborts (openExchanges): cheaper per POST than
    // AbortSignal.any([scope, own]).
    const own = new AbortController();
    this.requestAborts.set(requestId, own);
    this.openExchanges.set(own.signal, own);
    return own.signal;
  }

  private forgetRequest(requestId: RequestId | undefined): void {
    if (requestId !== undefined) this.requestAborts.delete(requestId);
  }

  /**
   * Stateless mode: a modern server answers a request it rejects (unsupported version -32022, header
   * mismatch -32020, unknown method -32601) with an HTTP error status AND a JSON-RPC error response in the
   * body. That error is the request's answer, so it is delivered like any other response. Authorization
   * statuses are never read this way: the authorizer and the caller must see them as HTTP failures.
   */
  private async deliverErrorAnswer(response: Response, requestId: RequestId): Promise<boolean> {
    if (response.status === 401 || response.status === 403 || mediaType(response) !== 'application/json') return false;
    const text = await readBodyPrefix(response.clone(), 64 * 1024);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    const record = value as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
    const error = record.error as Record<string, unknown> | null | undefined;
    if (typeof error !== 'object' || error === null || typeof error.code !== 'number') return false;
    // The answer to a POST belongs to the one request the POST carried. A rejection sent before the server
    // read the id (id null or absent) is still that request's answer; an id naming another request is not.
    if (record.id !== requestId && record.id !== null && record.id !== undefined) return false;
    await discardBody(response);
    this.forgetRequest(requestId);
    this.diagnostics.fire(`HTTP ${response.status} carried the JSON-RPC error answer to request ${JSON.stringify(requestId)}`);
    this.deliver(record.id === requestId ? text : JSON.stringify({ ...record, id: requestId }));
    return true;
  }

  private fetchError(method: string, signal: AbortSignal, error: unknown): LocalError {
    // Our own refusals (a cross-origin redirect, an authorizer's failure) already say what happened.
    if (error instanceof LocalError && !signal.aborted) return error;
    if (this.state.kind !== 'open') {
      return new LocalError('connection-closed', `${method} ${displayUrl(this.options.url)} was cancelled: the transport closed`, { cause: error });
    }
    // Stateless mode: the request's own abort (its cancellation), not the end of a session.
    if (this.sessionMode === 'stateless' && signal.aborted && signal !== this.scope.signal && !this.scope.signal.aborted) {
      return new LocalError('cancelled', `${method} ${displayUrl(this.options.url)} was cancelled`, { cause: error });
    }
    if (signal.aborted) {
      return new LocalError('session-expired', `${method} ${displayUrl(this.options.url)} was cancelled: the session expired`, { cause: error });
    }
    return networkError(method, this.options.url, error);
  }

  private deliver(raw: string): void {
    if (this.state.kind !== 'open') return;
    const sink = this.state.sink;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      sink.onUnparsable(raw, `invalid JSON: ${errorMessage(error)}`);
      return;
    }
    for (const id of answeredIdsOf(value)) {
      this.awaitingResponse.delete(id);
      this.forgetRequest(id);
    }
    try {
      sink.onMessage(value);
    } catch (error) {
      // A failing consumer must not break the stream the message came on.
      this.diagnostics.fire(`message handler failed: ${errorMessage(error)}`);
    }
  }

  private warn(message: string): void {
    this.diagnostics.fire(message);
    if (this.state.kind === 'open') this.state.sink.onWarning(message);
  }

  private isWanted(stream: LogicalStream, signal: AbortSignal): boolean {
    if (this.state.kind !== 'open' || signal.aborted) return false;
    switch (stream.origin.kind) {
      case 'post':
        return stream.origin.requestIds.some((id) => this.awaitingResponse.has(id));
      case 'standalone':
        return this.standaloneStream === stream;
    }
  }

  private async runStandaloneStream(stream: LogicalStream, signal: AbortSignal): Promise<void> {
    // Let the caller finish its turn first (typically it is about to POST notifications/initialized).
    await Promise.resolve();
    const opened = await this.openGetStream(stream, signal);
    switch (opened.kind) {
      case 'stream':
        this.diagnostics.fire('GET stream opened');
        await this.followStream(stream, opened.response, signal);
        return;
      case 'unsupported':
        this.diagnostics.fire(`no GET stream: ${opened.reason}`);
        return;
      case 'fatal':
      case 'failed':
        if (!signal.aborted) this.warn(`the server-to-client GET stream is unavailable: ${opened.reason}`);
        return;
    }
  }

  /**
   * Reads a logical stream to its end, resuming it with GET + Last-Event-ID while it is still wanted.
   * Attempts are counted since the last progress, so a polling server (closes after each event, sends
   * `retry`) is followed indefinitely while a dead one is given up after maxReconnectAttempts.
   */
  private async followStream(stream: LogicalStream, first: Response, signal: AbortSignal): Promise<void> {
    let response = first;
    let attempts = 0;
    for (;;) {
      if (await this.readEvents(stream, response, signal)) attempts = 0;
      let next: Response | undefined;
      while (next === undefined) {
        if (!this.isWanted(stream, signal)) return;
        if (stream.origin.kind === 'post' && this.sessionMode === 'stateless') {
          // Streams are not resumable in 2026-07-28: the request is lost and must be issued again.
          this.stopWanting(stream);
          for (const id of stream.origin.requestIds) {
            this.forgetRequest(id);
            if (this.state.kind === 'open') this.state.sink.onRequestLost?.(id, `${stream.label} ended before its response`);
          }
          return;
        }
        if (stream.origin.kind === 'post' && stream.lastEventId === '') {
          this.warn(`${stream.label} ended before its response and the server gave no event id to resume from`);
          return;
        }
        if (attempts >= this.maxReconnectAttempts) {
          this.warn(`${stream.label}: gave up after ${attempts} reconnection attempts`);
          this.stopWanting(stream);
          return;
        }
        attempts++;
        const delay = stream.retryMs ?? this.reconnectDelayMs;
        const cursor = stream.lastEventId ? ` (Last-Event-ID ${stream.lastEventId})` : '';
        this.diagnostics.fire(`SSE reconnect in ${delay} ms${cursor}`);
        if (!(await sleep(delay, signal))) return;
        if (!this.isWanted(stream, signal)) return;
        const opened = await this.openGetStream(stream, signal);
        switch (opened.kind) {
          case 'stream':
            this.diagnostics.fire(`${stream.label} resumed`);
            next = opened.response;
            break;
          case 'unsupported':
          case 'fatal':
            if (!signal.aborted) this.warn(`${stream.label} cannot be resumed: ${opened.reason}`);
            this.stopWanting(stream);
            return;
          case 'failed':
            this.diagnostics.fire(`${stream.label} reconnection failed: ${opened.reason}`);
            break;
        }
      }
      response = next;
    }
  }

  /** A POST stream that cannot be resumed releases its requests. (A dead standalone stream stays
   * registered, so openServerChannel does not reopen a stream the server refused.) */
  private stopWanting(stream: LogicalStream): void {
    if (stream.origin.kind !== 'post') return;
    for (const id of stream.origin.requestIds) this.awaitingResponse.delete(id);
  }

  /**
   * Reads one HTTP response of a logical stream. Returns whether it made progress: it carried an event
   * block, or it lived long enough to be a healthy connection cut by an idle timeout (proxies do that to
   * quiet GET streams; giving up on those would lose server notifications).
   */
  private async readEvents(stream: LogicalStream, response: Response, signal: AbortSignal): Promise<boolean> {
    const openedAt = Date.now();
    const parser = new SseParser(
      {
        event: (event) => {
          stream.lastEventId = event.lastEventId;
          if (event.type === 'message') this.deliver(event.data);
          else this.diagnostics.fire(`${stream.label}: ignored SSE event of type '${event.type}'`);
        },
        retry: (ms) => {
          stream.retryMs = ms;
        },
      },
      stream.lastEventId,
    );
    const outcome = await pumpSse(response, parser);
    // Also picks up ids of events without data (the spec's priming event).
    stream.lastEventId = parser.lastEventId;
    if (!signal.aborted) {
      this.diagnostics.fire(outcome.kind === 'ended' ? `${stream.label} ended` : `${stream.label} broke: ${outcome.reason}`);
    }
    return parser.blocksSeen > 0 || Date.now() - openedAt >= HEALTHY_CONNECTION_MS;
  }

  private async openGetStream(stream: LogicalStream, signal: AbortSignal): Promise<GetOutcome> {
    const extra: Record<string, string> = stream.lastEventId ? { 'Last-Event-ID': stream.lastEventId } : {};
    let response: Response;
    try {
      response = await authorizedFetch(this.fetchFn, this.authorizer, this.options.url, {
        method: 'GET',
        headers: this.buildHeaders({ kind: 'stream' }, 'text/event-stream', extra),
        signal,
        redirects: this.redirects,
      });
    } catch (error) {
      if (signal.aborted) return { kind: 'fatal', reason: 'cancelled' };
      if (error instanceof LocalError) return { kind: 'fatal', reason: error.message };
      return { kind: 'failed', reason: networkError('GET', this.options.url, error).message };
    }
    this.captureSessionId(response);
    const type = mediaType(response);
    this.diagnostics.fire(`GET → ${response.status}${type ? ` (${type})` : ''}`);
    if (response.status === 405) {
      await discardBody(response);
      return { kind: 'unsupported', reason: 'the server does not offer GET streams (405)' };
    }
    if (!response.ok) {
      // A 404 here does not forget the session: the next POST will see it and report session-expired.
      const error = await httpStatusError(response, this.options.url);
      const retryable = response.status >= 500 || response.status === 429;
      return { kind: retryable ? 'failed' : 'fatal', reason: error.message };
    }
    if (type !== 'text/event-stream') {
      await discardBody(response);
      return { kind: 'unsupported', reason: `the server answered GET with '${type || 'no content type'}', not an event stream` };
    }
    return { kind: 'stream', response };
  }
}
