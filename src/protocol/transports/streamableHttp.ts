import { staticHeaders, type HttpAuthorizer } from '../auth/authorizer';
import type { Disposable } from '../disposable';
import { Emitter } from '../disposable';
import { LocalError, errorMessage } from '../errors';
import { inputLimits, readTextCapped, tooLargeReason, type InputLimits } from '../limits/inputLimits';
import type {
  DiagnosticListener,
  HttpSessionMode,
  OutgoingHttpRequest,
  ProtocolHeaderProvider,
  Transport,
  TransportSink,
} from './transport';
import {
  answeredIdsOf,
  cancelledRequestIdOf,
  requestIdOf,
  type Exchange,
  type HttpExchangeMode,
  type HttpWire,
  type LogicalStream,
  type RequestId,
} from './httpExchange';
import {
  authorizedFetch,
  describeMessage,
  discardBody,
  displayUrl,
  httpStatusError,
  mediaType,
  networkError,
  RedirectMemory,
  setHeaders,
  validateHttpUrl,
  type AuthorizedRequest,
} from './httpShared';
import { SessionMode } from './sessionMode';
import { StatelessMode } from './statelessMode';

/**
 * The MCP "Streamable HTTP" transport (spec 2025-11-25 and 2026-07-28, basic/transports): every client message is
 * one POST; the answer is 202, a JSON body, or an SSE stream. How requests relate to each other (a session with
 * resumable streams and a GET stream, or stateless POSTs) is the active mode's job (httpExchange.ts); the era picks
 * the mode with setSessionMode. Everything read from the server stops at the limits (InputLimits).
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
  /**
   * Caps on what the server may make this client hold: maxMessageBytes per JSON body and per SSE event's data,
   * maxSseLineBytes per SSE line. Past a cap reading stops and the request concerned fails naming the setting.
   */
  limits?: Partial<InputLimits>;
}

const DEFAULT_RECONNECT_DELAY_MS = 1000;
const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;

type TransportState =
  | { kind: 'idle' }
  | { kind: 'open'; sink: TransportSink }
  | { kind: 'closing'; done: Promise<void> }
  | { kind: 'closed' };

export class StreamableHttpTransport implements Transport {
  readonly kind = 'streamable-http' as const;
  private state: TransportState = { kind: 'idle' };
  private readonly diagnostics = new Emitter<string>();
  private readonly fetchFn: typeof fetch;
  private readonly authorizer: HttpAuthorizer;
  private readonly limits: InputLimits;
  /** The protocol era's headers (MCP-Protocol-Version, ...); the era owns them, the transport only adds them. */
  private protocolHeaders: ProtocolHeaderProvider | undefined;
  /** Requests whose response is expected on an SSE stream; a stream that drops early is resumed (or lost) for them. */
  private readonly awaiting = new Set<RequestId>();
  /** Whether this endpoint redirects: until it does, requests skip the copy fetch makes to follow redirects. */
  private readonly redirects = new RedirectMemory();
  private readonly wire: HttpWire;
  private readonly sessions: SessionMode;
  private readonly stateless: StatelessMode;
  private mode: HttpExchangeMode;
  /** The URL as error texts show it (credentials and secret query values masked), parsed once, not per response. */
  private shownUrlValue: string | undefined;

  constructor(private readonly options: StreamableHttpOptions) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.authorizer = options.authorizer ?? staticHeaders(options.headers);
    this.limits = inputLimits(options.limits);
    this.wire = this.makeWire();
    this.sessions = new SessionMode(this.wire, {
      delayMs: options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS,
      maxAttempts: options.maxReconnectAttempts ?? DEFAULT_MAX_RECONNECT_ATTEMPTS,
    });
    this.stateless = new StatelessMode(this.wire);
    this.mode = this.sessions;
  }

  /** The session id the server assigned, if any. */
  get currentSessionId(): string | undefined {
    return this.sessions.currentSessionId;
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
    switch (mode) {
      case 'sessions':
        this.mode = this.sessions;
        return;
      case 'stateless':
        this.sessions.forgetSessionId();
        this.mode = this.stateless;
        return;
    }
  }

  openServerChannel(): void {
    if (this.state.kind === 'open') this.mode.openServerChannel();
  }

  async send(message: object): Promise<void> {
    if (this.state.kind !== 'open') throw new LocalError('connection-closed', 'the HTTP transport is not open');
    const mode = this.mode;
    const cancelled = cancelledRequestIdOf(message);
    if (cancelled !== undefined) {
      this.awaiting.delete(cancelled);
      if (mode.cancel(cancelled)) return;
    }
    const exchange = mode.begin(requestIdOf(message));
    let streaming = false;
    try {
      streaming = await this.post(mode, describeMessage(message), message, exchange);
    } finally {
      if (!streaming) mode.end(exchange);
    }
  }

  /** One POST and its answer; true when the answer is an event stream still being read (it ends its exchange). */
  private async post(mode: HttpExchangeMode, label: string, message: object, exchange: Exchange): Promise<boolean> {
    const url = this.options.url;
    const { requestId, signal } = exchange;
    let response: Response;
    try {
      const headers = this.buildHeaders({ kind: 'message', message }, 'application/json, text/event-stream', {
        'Content-Type': 'application/json',
      });
      response = await this.wire.fetch({ method: 'POST', headers, body: JSON.stringify(message), signal });
    } catch (error) {
      throw this.fetchError(mode, 'POST', exchange, error);
    }
    mode.observe(response);
    const type = mediaType(response);
    // Built only when someone listens: nobody does on a plain call's path, and this ran for every POST.
    if (this.diagnostics.listenerCount > 0)
      this.diagnostics.fire(`POST ${label} → ${response.status}${type ? ` (${type})` : ''}`);

    if (response.status === 202 || response.status === 204) {
      await discardBody(response);
      return false;
    }
    if (!response.ok) {
      if (await mode.refused(response, exchange, label)) return false;
      throw await httpStatusError(response, url);
    }

    if (type === 'text/event-stream') {
      if (requestId !== undefined) this.awaiting.add(requestId);
      const stream: LogicalStream = {
        label: `SSE stream of ${label}`,
        origin: { kind: 'post', requestIds: requestId === undefined ? [] : [requestId] },
        lastEventId: '',
        retryMs: undefined,
      };
      // `send` is done once the headers are in; the events arrive in the background.
      void mode.followPostStream(stream, response, exchange).finally(() => mode.end(exchange));
      return true;
    }

    let text: string;
    try {
      // Past the cap the body is cancelled and this request fails naming maxMessageBytes.
      text = await readTextCapped(
        response,
        this.limits.maxMessageBytes,
        `the response to ${label} from ${this.shownUrl}`,
        'maxMessageBytes',
      );
    } catch (error) {
      throw this.fetchError(mode, 'POST', exchange, error);
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
    this.awaiting.clear();
    await Promise.all([this.stateless.shutdown(), this.sessions.shutdown()]);
    this.state = { kind: 'closed' };
    this.diagnostics.fire('closed');
    try {
      sink.onClose();
    } catch {
      // The sink's failure must not leave close() pending.
    }
  }

  /** The transport's, the mode's and the era's headers; `authorizedFetch` adds the credentials underneath them. */
  private buildHeaders(
    request: OutgoingHttpRequest,
    accept: string,
    extra: Record<string, string> = {},
  ): Record<string, string> {
    const headers = setHeaders({}, extra);
    headers.accept = accept;
    this.mode.decorate(headers);
    const protocol = this.protocolHeaders?.(request);
    return protocol ? setHeaders(headers, protocol) : headers;
  }

  private get shownUrl(): string {
    return (this.shownUrlValue ??= displayUrl(this.options.url));
  }

  private fetchError(mode: HttpExchangeMode, method: string, exchange: Exchange, error: unknown): LocalError {
    // Our own refusals (a cross-origin redirect, an authorizer's failure, a cap) already say what happened.
    if (error instanceof LocalError && !exchange.signal.aborted) return error;
    if (this.state.kind !== 'open') {
      return new LocalError('connection-closed', `${method} ${this.shownUrl} was cancelled: the transport closed`, {
        cause: error,
      });
    }
    if (exchange.signal.aborted) return mode.abortError(method, exchange, error);
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
      this.awaiting.delete(id);
      this.mode.answered(id);
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

  private makeWire(): HttpWire {
    const isOpen = () => this.state.kind === 'open';
    return {
      url: this.options.url,
      limits: this.limits,
      get isOpen() {
        return isOpen();
      },
      awaiting: this.awaiting,
      fetch: (request: Omit<AuthorizedRequest, 'redirects'>) =>
        authorizedFetch(this.fetchFn, this.authorizer, this.options.url, { ...request, redirects: this.redirects }),
      headers: (request, accept, extra) => this.buildHeaders(request, accept, extra),
      deliver: (raw) => this.deliver(raw),
      note: (line) => this.diagnostics.fire(line),
      warn: (line) => this.warn(line),
      failTooLarge: (requestIds, error) => {
        this.warn(error.message);
        for (const id of requestIds) {
          if (!this.awaiting.delete(id) || this.state.kind !== 'open') continue;
          // The reader recognises the reason and fails the request the fragment names with 'message-too-large'.
          this.state.sink.onUnparsable(
            `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":… (not read past the cap)`,
            tooLargeReason(error),
          );
        }
      },
      lose: (requestIds, reason) => {
        for (const id of requestIds) {
          this.awaiting.delete(id);
          if (this.state.kind === 'open') this.state.sink.onRequestLost?.(id, reason);
        }
      },
    };
  }
}
