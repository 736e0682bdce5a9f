import { Emitter, type Disposable } from '../../src/protocol/disposable';
import { LocalError } from '../../src/protocol/errors';
import type {
  DiagnosticListener,
  OutgoingHttpRequest,
  ProtocolHeaderProvider,
  Transport,
  TransportKind,
  TransportSink,
} from '../../src/protocol/transports/transport';

/**
 * An in-memory linked transport pair for deterministic protocol tests: the client side is an ordinary
 * `Transport`; the server side is an endpoint the test drives message by message (read what the client
 * sent, answer, send requests and notifications, close). No I/O, no timers: every step happens when the
 * test takes it.
 *
 * The client side also plays an HTTP transport's part in the era seam: it computes the era's protocol
 * headers for every message (as a POST would carry them) and counts `openServerChannel` calls, so tests
 * can check what the era adds without a network.
 */

/** One message the client sent, with the protocol headers an HTTP transport would have put on its POST. */
interface SentMessage {
  message: Record<string, unknown>;
  headers: Record<string, string>;
}

type LinkState = { kind: 'idle' } | { kind: 'open'; sink: TransportSink } | { kind: 'closed' };

interface LinkedPair {
  client: MemoryClientTransport;
  server: MemoryServerEndpoint;
}

interface MemoryTransportOptions {
  /** Reported as the client transport's kind (default 'stdio'); 'streamable-http' makes it look like HTTP to the client. */
  kind?: TransportKind;
}

export function createLinkedPair(options: MemoryTransportOptions = {}): LinkedPair {
  const link = new Link();
  return { client: new MemoryClientTransport(link, options.kind ?? 'stdio'), server: new MemoryServerEndpoint(link) };
}

/** The shared state between the two ends. */
class Link {
  state: LinkState = { kind: 'idle' };
  protocolHeaders: ProtocolHeaderProvider | undefined;
  serverChannelOpens = 0;
  /** Messages the client sent that the test has not taken yet. */
  readonly inbox: SentMessage[] = [];
  readonly everything: SentMessage[] = [];
  readonly waiters: Array<{
    predicate: (sent: SentMessage) => boolean;
    resolve: (sent: SentMessage) => void;
    reject: (error: Error) => void;
  }> = [];
  readonly diagnostics = new Emitter<string>();
  /** One-shot send failures armed by the test (like an HTTP 404 answering a POST). */
  readonly sendFailures: Array<{ predicate: (sent: SentMessage) => boolean; error: Error }> = [];

  /** Records a message the client sent; returns the error to reject the send with, if one was armed for it. */
  clientSent(message: Record<string, unknown>): Error | undefined {
    const sent: SentMessage = { message, headers: this.protocolHeaders?.({ kind: 'message', message }) ?? {} };
    this.everything.push(sent);
    const failure = this.sendFailures.find((candidate) => candidate.predicate(sent));
    if (failure) {
      this.sendFailures.splice(this.sendFailures.indexOf(failure), 1);
      return failure.error;
    }
    const waiter = this.waiters.find((candidate) => candidate.predicate(sent));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(sent);
      return undefined;
    }
    this.inbox.push(sent);
    return undefined;
  }

  close(error?: Error): void {
    const state = this.state;
    this.state = { kind: 'closed' };
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new LocalError('connection-closed', 'the memory link closed'));
    if (state.kind === 'open') state.sink.onClose(error);
  }
}

class MemoryClientTransport implements Transport {
  constructor(
    private readonly link: Link,
    readonly kind: TransportKind,
  ) {}

  start(sink: TransportSink): Promise<void> {
    if (this.link.state.kind !== 'idle')
      return Promise.reject(new LocalError('transport', 'the memory transport was already started'));
    this.link.state = { kind: 'open', sink };
    return Promise.resolve();
  }

  send(message: object): Promise<void> {
    if (this.link.state.kind !== 'open')
      return Promise.reject(new LocalError('connection-closed', 'the memory transport is not open'));
    // A copy, as a wire would make: later mutation by the sender must not change what the server saw.
    const failure = this.link.clientSent(JSON.parse(JSON.stringify(message)) as Record<string, unknown>);
    return failure ? Promise.reject(failure) : Promise.resolve();
  }

  setProtocolHeaders(provider: ProtocolHeaderProvider | undefined): void {
    this.link.protocolHeaders = provider;
  }

  openServerChannel(): void {
    this.link.serverChannelOpens++;
  }

  close(): Promise<void> {
    if (this.link.state.kind !== 'closed') this.link.close();
    return Promise.resolve();
  }

  dispose(): void {
    void this.close();
  }

  onDiagnostic(listener: DiagnosticListener): Disposable {
    return this.link.diagnostics.event(listener);
  }
}

export class MemoryServerEndpoint {
  constructor(private readonly link: Link) {}

  /** Every message the client sent so far, taken or not, in order. */
  get sent(): readonly SentMessage[] {
    return this.link.everything;
  }

  /** How many times the client side was asked to open its server channel. */
  get serverChannelOpens(): number {
    return this.link.serverChannelOpens;
  }

  get isClosed(): boolean {
    return this.link.state.kind === 'closed';
  }

  /** The protocol headers the era would put on an HTTP request of this kind right now. */
  headersFor(request: OutgoingHttpRequest): Record<string, string> {
    return this.link.protocolHeaders?.(request) ?? {};
  }

  /**
   * Takes the next message the client sent that matches `predicate` (default: any), waiting for it when it
   * was not sent yet. Messages skipped by the predicate stay queued for later calls.
   */
  next(predicate: (sent: SentMessage) => boolean = () => true): Promise<SentMessage> {
    const index = this.link.inbox.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.link.inbox.splice(index, 1)[0]);
    if (this.link.state.kind === 'closed')
      return Promise.reject(new LocalError('connection-closed', 'the memory link is closed'));
    return new Promise((resolve, reject) => this.link.waiters.push({ predicate, resolve, reject }));
  }

  /** Takes the next request (a message with method and id) for `method`. */
  async nextRequest(method: string): Promise<SentMessage & { id: string | number }> {
    const sent = await this.next((candidate) => candidate.message.method === method && 'id' in candidate.message);
    const id = sent.message.id;
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new LocalError('protocol-violation', `the client sent ${method} with id ${JSON.stringify(id)}`);
    return { ...sent, id };
  }

  /** Takes the next notification for `method`. */
  nextNotification(method: string): Promise<SentMessage> {
    return this.next((candidate) => candidate.message.method === method && !('id' in candidate.message));
  }

  /**
   * Makes the next client send that matches `predicate` reject with `error` (once), the way an HTTP
   * transport rejects a POST the server refused. The message still counts as sent but is not queued.
   */
  failSend(predicate: (sent: SentMessage) => boolean, error: Error): void {
    this.link.sendFailures.push({ predicate, error });
  }

  /** Delivers any value to the client, exactly as given (tests may send malformed messages on purpose). */
  send(value: unknown): void {
    if (this.link.state.kind !== 'open') throw new LocalError('connection-closed', 'the memory link is not open');
    this.link.state.sink.onMessage(value);
  }

  respond(id: string | number, result: object): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  respondError(id: string | number, code: number, message: string, data?: unknown): void {
    this.send({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
  }

  notify(method: string, params?: object): void {
    this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  request(id: string | number, method: string, params?: object): void {
    this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
  }

  /** Ends the connection from the server's side; `error` says why, as a transport failure would. */
  close(error?: Error): void {
    if (this.link.state.kind !== 'closed') this.link.close(error);
  }
}
