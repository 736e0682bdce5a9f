import { staticHeaders, type HttpAuthorizer } from '../auth/authorizer';
import type { Disposable } from '../disposable';
import { Emitter } from '../disposable';
import { LocalError, errorMessage } from '../errors';
import type {
  DiagnosticListener,
  OutgoingHttpRequest,
  ProtocolHeaderProvider,
  Transport,
  TransportSink,
} from './transport';
import { SseParser, type SseEvent } from './sseParser';
import { inputLimits, type InputLimits } from '../limits/inputLimits';
import {
  authorizedFetch,
  describeMessage,
  discardBody,
  displayUrl,
  httpStatusError,
  mediaType,
  networkError,
  pumpSse,
  setHeaders,
  validateHttpUrl,
} from './httpShared';

/**
 * The 2024-11-05 "HTTP with SSE" transport: one long-lived GET stream whose first `endpoint` event names
 * the URI to POST messages to; server messages arrive as `message` events on that stream.
 */

export interface HttpSseOptions {
  url: string;
  /** Supplies credentials for every request and answers 401/403 challenges. Defaults to `staticHeaders(headers)`. */
  authorizer?: HttpAuthorizer;
  /** Shorthand for `authorizer: staticHeaders(headers)`; ignored when an authorizer is given. */
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** How long start() waits for the `endpoint` event. */
  endpointTimeoutMs?: number;
  /** Caps on what the server may make this client hold (maxMessageBytes per event, maxSseLineBytes per line). */
  limits?: Partial<InputLimits>;
}

const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;

type HttpSseState =
  | { kind: 'idle' }
  | { kind: 'connecting'; sink: TransportSink }
  | { kind: 'open'; sink: TransportSink; endpoint: string }
  | { kind: 'closed' };

export class HttpSseTransport implements Transport {
  readonly kind = 'sse' as const;
  private state: HttpSseState = { kind: 'idle' };
  private readonly diagnostics = new Emitter<string>();
  private readonly fetchFn: typeof fetch;
  private readonly scope = new AbortController();
  private readonly authorizer: HttpAuthorizer;
  /** The protocol era's headers; the era owns them, the transport only adds them. */
  private protocolHeaders: ProtocolHeaderProvider | undefined;
  private readonly limits: InputLimits;

  constructor(private readonly options: HttpSseOptions) {
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.authorizer = options.authorizer ?? staticHeaders(options.headers);
    this.limits = inputLimits(options.limits);
  }

  /** The POST URI announced by the server, once known. */
  get endpoint(): string | undefined {
    return this.state.kind === 'open' ? this.state.endpoint : undefined;
  }

  onDiagnostic(listener: DiagnosticListener): Disposable {
    return this.diagnostics.event(listener);
  }

  setProtocolHeaders(provider: ProtocolHeaderProvider | undefined): void {
    this.protocolHeaders = provider;
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.state.kind !== 'idle') throw new LocalError('transport', 'the SSE transport was already started');
    const base = validateHttpUrl(this.options.url);
    this.state = { kind: 'connecting', sink };
    try {
      const response = await this.openStream();
      const endpoint = await this.readUntilEndpoint(response, base);
      if (this.state.kind !== 'connecting')
        throw new LocalError('connection-closed', 'the SSE transport was closed while connecting');
      this.state = { kind: 'open', sink, endpoint };
      this.diagnostics.fire(`SSE endpoint ${displayUrl(endpoint)}`);
    } catch (error) {
      this.state = { kind: 'closed' };
      this.scope.abort();
      throw error;
    }
  }

  async send(message: object): Promise<void> {
    if (this.state.kind !== 'open') throw new LocalError('connection-closed', 'the SSE transport is not open');
    const endpoint = this.state.endpoint;
    const label = describeMessage(message);
    let response: Response;
    try {
      response = await authorizedFetch(this.fetchFn, this.authorizer, endpoint, {
        method: 'POST',
        headers: this.buildHeaders({ kind: 'message', message }, 'application/json, text/event-stream', {
          'Content-Type': 'application/json',
        }),
        body: JSON.stringify(message),
        signal: this.scope.signal,
      });
    } catch (error) {
      if (error instanceof LocalError && !this.scope.signal.aborted) throw error;
      if (this.scope.signal.aborted)
        throw new LocalError('connection-closed', `POST ${displayUrl(endpoint)} was cancelled: the transport closed`, {
          cause: error,
        });
      throw networkError('POST', endpoint, error);
    }
    this.diagnostics.fire(`POST ${label} → ${response.status}`);
    // Responses travel over the SSE stream; whatever the POST answers beyond its status is not used.
    if (!response.ok) throw await httpStatusError(response, endpoint);
    await discardBody(response);
  }

  close(): Promise<void> {
    const state = this.state;
    if (state.kind === 'closed') return Promise.resolve();
    this.state = { kind: 'closed' };
    this.scope.abort();
    if (state.kind !== 'idle') {
      this.diagnostics.fire('closed');
      try {
        state.sink.onClose();
      } catch {
        // The sink's failure must not break close().
      }
    }
    return Promise.resolve();
  }

  dispose(): void {
    void this.close();
  }

  // -------------------------------------------------------------------------------------------------------

  /** The transport's and the era's headers; `authorizedFetch` adds the credentials underneath them. */
  private buildHeaders(
    request: OutgoingHttpRequest,
    accept: string,
    extra: Record<string, string> = {},
  ): Record<string, string> {
    const headers = setHeaders({}, extra);
    headers.accept = accept;
    const protocol = this.protocolHeaders?.(request);
    return protocol ? setHeaders(headers, protocol) : headers;
  }

  private async openStream(): Promise<Response> {
    const url = this.options.url;
    let response: Response;
    try {
      response = await authorizedFetch(this.fetchFn, this.authorizer, url, {
        method: 'GET',
        headers: this.buildHeaders({ kind: 'stream' }, 'text/event-stream'),
        signal: this.scope.signal,
      });
    } catch (error) {
      if (error instanceof LocalError && !this.scope.signal.aborted) throw error;
      if (this.scope.signal.aborted)
        throw new LocalError('connection-closed', 'the SSE transport was closed while connecting', { cause: error });
      throw networkError('GET', url, error);
    }
    const type = mediaType(response);
    this.diagnostics.fire(`GET → ${response.status}${type ? ` (${type})` : ''}`);
    if (!response.ok) throw await httpStatusError(response, url);
    if (type !== 'text/event-stream') {
      await discardBody(response);
      throw new LocalError(
        'transport',
        `GET ${displayUrl(url)} answered '${type || 'no content type'}' instead of text/event-stream: not an HTTP+SSE (2024-11-05) MCP endpoint`,
      );
    }
    return response;
  }

  /**
   * Starts reading the stream in the background and resolves with the POST endpoint from the first
   * `endpoint` event. The stream keeps being read after that for `message` events.
   */
  private readUntilEndpoint(response: Response, base: URL): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: { kind: 'endpoint'; url: string } | { kind: 'error'; error: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (outcome.kind === 'endpoint') resolve(outcome.url);
        else reject(outcome.error);
      };
      const timeoutMs = this.options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
      const timer = setTimeout(
        () =>
          settle({
            kind: 'error',
            error: new LocalError(
              'transport',
              `no 'endpoint' event from ${displayUrl(base.href)} within ${timeoutMs} ms`,
            ),
          }),
        timeoutMs,
      );
      const parser = new SseParser(
        {
          event: (event) => {
            if (event.type === 'endpoint') {
              if (settled) {
                this.diagnostics.fire('ignored a second endpoint event');
                return;
              }
              try {
                settle({ kind: 'endpoint', url: resolveEndpoint(event.data, base) });
              } catch (error) {
                settle({ kind: 'error', error: error instanceof Error ? error : new Error(errorMessage(error)) });
              }
              return;
            }
            this.onEvent(event);
          },
        },
        '',
        { maxLineBytes: this.limits.maxSseLineBytes, maxEventBytes: this.limits.maxMessageBytes },
      );
      void pumpSse(response, parser).then((outcome) => {
        switch (outcome.kind) {
          case 'ended':
          case 'failed': {
            const reason =
              outcome.kind === 'ended' ? 'the server ended the SSE stream' : `the SSE stream broke: ${outcome.reason}`;
            settle({
              kind: 'error',
              error: new LocalError('transport', `${reason} before sending an 'endpoint' event`),
            });
            this.onStreamEnd(new LocalError('connection-closed', reason));
            return;
          }
          case 'too-large': {
            // Nothing on this stream can be attributed to one request: the connection ends, naming the limit.
            const error = outcome.error.within(`the SSE stream of ${displayUrl(base.href)}`);
            settle({ kind: 'error', error });
            this.onStreamEnd(error);
            return;
          }
        }
      });
    });
  }

  private onEvent(event: SseEvent): void {
    if (event.type !== 'message') {
      this.diagnostics.fire(`ignored SSE event of type '${event.type}'`);
      return;
    }
    if (this.state.kind !== 'open' && this.state.kind !== 'connecting') return;
    const sink = this.state.sink;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch (error) {
      sink.onUnparsable(event.data, `invalid JSON: ${errorMessage(error)}`);
      return;
    }
    try {
      sink.onMessage(value);
    } catch (error) {
      // A failing consumer must not break the stream the message came on.
      this.diagnostics.fire(`message handler failed: ${errorMessage(error)}`);
    }
  }

  /** Without the stream there is no way to receive anything: the connection is over. */
  private onStreamEnd(error: LocalError): void {
    if (this.state.kind !== 'open') return;
    const sink = this.state.sink;
    this.state = { kind: 'closed' };
    this.scope.abort();
    this.diagnostics.fire(error.message);
    sink.onClose(error);
  }
}

/** The endpoint is relative to the SSE URL; another origin would leak our messages (and headers) elsewhere. */
function resolveEndpoint(data: string, base: URL): string {
  let endpoint: URL;
  try {
    endpoint = new URL(data.trim(), base);
  } catch {
    throw new LocalError('protocol-violation', `the 'endpoint' event is not a valid URI: ${data.slice(0, 200)}`);
  }
  if (endpoint.origin !== base.origin) {
    throw new LocalError(
      'protocol-violation',
      `the server's 'endpoint' event points to another origin (${endpoint.origin}, expected ${base.origin}); refusing to send messages there`,
    );
  }
  return endpoint.href;
}
