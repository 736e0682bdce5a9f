import type { Disposable } from '../disposable';
import { DisposableStore, Emitter } from '../disposable';
import { LocalError } from '../errors';
import type {
  DiagnosticListener,
  HttpSessionMode,
  ProtocolHeaderProvider,
  Transport,
  TransportKind,
  TransportSink,
} from './transport';
import { HttpSseTransport, type HttpSseOptions } from './httpSse';
import { HttpStatusError } from './httpShared';
import { StreamableHttpTransport, type StreamableHttpOptions } from './streamableHttp';

export type HttpTransportMode = 'auto' | 'streamable-http' | 'sse';

type HttpTransportOptions = StreamableHttpOptions &
  Pick<HttpSseOptions, 'endpointTimeoutMs'> & { mode?: HttpTransportMode };

export function createHttpTransport(options: HttpTransportOptions): Transport {
  const { mode = 'auto', ...rest } = options;
  switch (mode) {
    case 'streamable-http':
      return new StreamableHttpTransport(rest);
    case 'sse':
      return new HttpSseTransport(rest);
    case 'auto':
      return new AutoHttpTransport(rest);
  }
}

/** Statuses with which a 2024-11-05 server refuses a POST to its SSE URL (spec "Backwards Compatibility"). */
const HTTP_SSE_HINT_STATUSES = new Set([400, 404, 405]);

type Decision =
  | { kind: 'undecided' }
  /** The first message (initialize) is in flight over Streamable HTTP; later sends wait for the verdict. */
  | { kind: 'probing'; done: Promise<void> }
  | { kind: 'decided' };

/**
 * Streamable HTTP first; if the server refuses the initialize POST with 400/404/405, the same URL is
 * treated as a 2024-11-05 HTTP+SSE endpoint and the message is sent again there.
 */
export class AutoHttpTransport implements Transport {
  private active: Transport;
  private decision: Decision = { kind: 'undecided' };
  private sink: TransportSink | undefined;
  private closed = false;
  /** Handed to whichever transport is active, including one adopted after the probe. */
  private protocolHeaders: ProtocolHeaderProvider | undefined;
  private sessionMode: HttpSessionMode = 'sessions';
  private readonly diagnostics = new Emitter<string>();
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly options: StreamableHttpOptions & Pick<HttpSseOptions, 'endpointTimeoutMs'>) {
    this.active = this.adopt(new StreamableHttpTransport(options));
  }

  get kind(): TransportKind {
    return this.active.kind;
  }

  onDiagnostic(listener: DiagnosticListener): Disposable {
    return this.diagnostics.event(listener);
  }

  async start(sink: TransportSink): Promise<void> {
    if (this.sink !== undefined) throw new LocalError('transport', 'the HTTP transport was already started');
    this.sink = sink;
    await this.active.start(this.sinkFor(this.active));
  }

  setProtocolHeaders(provider: ProtocolHeaderProvider | undefined): void {
    this.protocolHeaders = provider;
    this.active.setProtocolHeaders?.(provider);
  }

  setSessionMode(mode: HttpSessionMode): void {
    this.sessionMode = mode;
    this.active.setSessionMode?.(mode);
  }

  openServerChannel(): void {
    this.active.openServerChannel?.();
  }

  async send(message: object): Promise<void> {
    switch (this.decision.kind) {
      case 'decided':
        return this.active.send(message);
      case 'probing':
        await this.decision.done.catch(() => undefined);
        return this.send(message);
      case 'undecided': {
        const done = this.probe(message);
        this.decision = { kind: 'probing', done };
        return done;
      }
    }
  }

  close(): Promise<void> {
    this.closed = true;
    return this.active.close();
  }

  dispose(): void {
    void this.close();
    this.subscriptions.dispose();
  }

  // -------------------------------------------------------------------------------------------------------

  private async probe(message: object): Promise<void> {
    const streamable = this.active;
    try {
      await streamable.send(message);
      this.decision = { kind: 'decided' };
    } catch (error) {
      if (!(error instanceof HttpStatusError) || error.kind !== 'transport') {
        // No answer from the server (network, closed): nothing learned, the next send probes again.
        this.decision = { kind: 'undecided' };
        throw error;
      }
      if (!isInitialize(message)) {
        // Only a refused `initialize` says "this may be a 2024-11-05 server". A refused 2026-07-28 probe
        // (server/discover) is the era selection's business: it falls back to initialize, which probes again.
        this.decision = { kind: 'undecided' };
        throw error;
      }
      if (!HTTP_SSE_HINT_STATUSES.has(error.status)) {
        this.decision = { kind: 'decided' };
        throw error;
      }
      await this.fallBackToHttpSse(streamable, message, error);
    }
  }

  private async fallBackToHttpSse(streamable: Transport, message: object, refusal: HttpStatusError): Promise<void> {
    if (this.closed) throw new LocalError('connection-closed', 'the HTTP transport was closed');
    this.diagnostics.fire(`POST answered ${refusal.status}: trying the 2024-11-05 HTTP+SSE transport`);
    const httpSse = this.adopt(new HttpSseTransport(this.options));
    try {
      await httpSse.start(this.sinkFor(httpSse));
    } catch (error) {
      this.decision = { kind: 'undecided' };
      const reason = error instanceof Error ? error.message : String(error);
      throw new LocalError(
        'transport',
        `neither transport worked for this URL. Streamable HTTP: ${refusal.message}. HTTP+SSE (2024-11-05): ${reason}`,
        { cause: error },
      );
    }
    this.active = httpSse;
    this.decision = { kind: 'decided' };
    // The abandoned transport owns no session (its POST was refused); its close must not reach the sink.
    void streamable.close();
    await httpSse.send(message);
  }

  private adopt(transport: Transport): Transport {
    transport.setProtocolHeaders?.(this.protocolHeaders);
    transport.setSessionMode?.(this.sessionMode);
    this.subscriptions.add(transport.onDiagnostic((line) => this.diagnostics.fire(line)));
    return transport;
  }

  /** Forwards everything, except that only the active transport may report the connection closed. */
  private sinkFor(transport: Transport): TransportSink {
    return {
      onMessage: (value) => this.sink?.onMessage(value),
      onUnparsable: (raw, reason) => this.sink?.onUnparsable(raw, reason),
      onWarning: (text) => this.sink?.onWarning(text),
      onClose: (error) => {
        if (this.active === transport) this.sink?.onClose(error);
      },
      onRequestLost: (requestId, reason) => this.sink?.onRequestLost?.(requestId, reason),
    };
  }
}

function isInitialize(message: object): boolean {
  return (message as { method?: unknown }).method === 'initialize';
}
