import {
  AbstractMessageReader,
  AbstractMessageWriter,
  type DataCallback,
  type Disposable as RpcDisposable,
  type Message,
} from 'vscode-jsonrpc';
import type { Transport } from '../transports/transport';
import { BoundedMap, BoundedSet } from './bounded';
import { SENT } from './sent';
import {
  classifyIncoming,
  unknownReservedMetaKeys,
  type JsonRpcErrorObject,
  type JsonRpcErrorResponse,
  type JsonRpcResultResponse,
  type RequestId,
} from './messages';

export type TraceDirection = 'send' | 'receive';

/** What the reader needs to know about the requests this side has in flight. */
interface ReaderPeer {
  isPending(id: RequestId): boolean;
  wasAbandoned(id: RequestId): boolean;
  /** A response for a pending request broke the base protocol: settle that request with a local error. */
  failPending(id: RequestId, reason: string): void;
  /**
   * A valid response: settles the pending request it answers (outgoing requests do not go through vscode-jsonrpc);
   * false when no request with its id is pending.
   */
  respond(response: JsonRpcResultResponse | JsonRpcErrorResponse): boolean;
  /** The peer sent a request: it awaits our response. */
  recordIncomingRequest(id: RequestId): void;
  /** The peer cancelled one of its requests to us: the response must not be sent. */
  recordIncomingCancel(id: RequestId): void;
  violation(reason: string, raw: unknown): void;
  notification(method: string, params: Record<string, unknown>): void;
  orphanError(error: JsonRpcErrorObject): void;
  trace(direction: TraceDirection, message: unknown): void;
}

/**
 * Feeds vscode-jsonrpc with MCP messages: validates each incoming value, maps MCP's
 * `notifications/cancelled` onto the engine's `$/cancelRequest` so its built-in cancellation applies. Responses to
 * this side's requests go to the peer directly: the engine serves only the server's requests to us.
 */
export class McpMessageReader extends AbstractMessageReader {
  private callback: DataCallback | undefined;

  constructor(private readonly peer: ReaderPeer) {
    super();
  }

  listen(callback: DataCallback): RpcDisposable {
    this.callback = callback;
    return { dispose: () => (this.callback = undefined) };
  }

  deliver(value: unknown): void {
    this.peer.trace('receive', value);
    const classified = classifyIncoming(value);
    if (classified.kind === 'request' || classified.kind === 'notification' || classified.kind === 'result') {
      for (const key of unknownReservedMetaKeys(value)) {
        this.peer.violation(
          `_meta key "${key}" uses a prefix reserved for MCP but is not defined by the specification (kept, value not interpreted)`,
          value,
        );
      }
    }
    switch (classified.kind) {
      case 'request':
        this.peer.recordIncomingRequest(classified.message.id as RequestId);
        this.emit(classified.message);
        return;
      case 'notification': {
        const { message } = classified;
        if (message.method === 'notifications/cancelled') {
          const requestId = message.params?.requestId;
          if (typeof requestId === 'string' || typeof requestId === 'number') {
            this.peer.recordIncomingCancel(requestId);
            this.emit({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: requestId } } as Message);
          }
          return;
        }
        // Dispatched here, in arrival order with responses (which the engine settles synchronously too), so a
        // progress or log notification is never overtaken by the response that follows it.
        this.peer.notification(message.method, message.params ?? {});
        return;
      }
      case 'result':
      case 'error': {
        const { message } = classified;
        // One lookup of the id for a response that answers a pending request (every response, nearly).
        if (this.peer.respond(message)) return;
        const id = message.id as RequestId;
        if (!this.peer.wasAbandoned(id)) {
          this.peer.violation(`response for unknown request id ${JSON.stringify(id)}`, value);
        }
        return;
      }
      case 'orphan-error':
        this.peer.orphanError(classified.error);
        return;
      case 'violation':
        this.peer.violation(classified.reason, value);
        if (classified.id !== undefined && this.peer.isPending(classified.id)) {
          this.peer.failPending(classified.id, classified.reason);
        }
        return;
      default: {
        const exhaustive: never = classified;
        throw new Error(`unhandled message kind ${JSON.stringify(exhaustive)}`);
      }
    }
  }

  closed(): void {
    this.fireClose();
  }

  private emit(message: Message): void {
    this.callback?.(message);
  }
}

/** How many of the peer's requests awaiting our response are remembered (for honouring their cancellation). */
const INCOMING_MEMORY = 4096;

/** Hands outgoing messages to the transport; drops responses the peer asked us not to send. */
export class McpMessageWriter extends AbstractMessageWriter {
  /**
   * The peer's requests still awaiting our response, and whether the peer cancelled them. A cancellation is
   * remembered only for a request that is here: one for an id never received, or already answered, changes nothing
   * (remembering those let a peer grow this without bound). Removed when the response is written.
   */
  private readonly incoming = new BoundedMap<RequestId, 'awaiting' | 'cancelled'>(INCOMING_MEMORY);
  /** The peer's requests already answered: a second response to one id is never written. */
  private readonly answered = new BoundedSet<RequestId>(INCOMING_MEMORY);
  private isClosed = false;
  private isClosing = false;

  constructor(
    private readonly transport: Transport,
    private readonly trace: (direction: TraceDirection, message: unknown) => void,
  ) {
    super();
  }

  expectResponse(id: RequestId): void {
    this.incoming.set(id, 'awaiting');
  }

  suppressResponse(id: RequestId): void {
    if (this.incoming.has(id)) this.incoming.set(id, 'cancelled');
  }

  /** Sizes of the per-id bookkeeping, for tests that show it stays bounded. */
  get bookkeeping(): { incomingRequests: number; cancelledIncoming: number } {
    let cancelledIncoming = 0;
    for (const state of this.incoming.values()) if (state === 'cancelled') cancelledIncoming++;
    return { incomingRequests: this.incoming.size, cancelledIncoming };
  }

  /** The connection closed: what the engine still writes (a handler that finished late) goes nowhere. */
  closed(): void {
    this.isClosed = true;
  }

  /**
   * This side is closing: a response to the server's request (a roots/list that came in at exit) is no longer sent,
   * so nothing is written to a transport that is going away (and no error about it is logged).
   */
  closing(): void {
    this.isClosing = true;
  }

  write(message: Message): Promise<void> {
    if (this.isClosed) return SENT;
    const record = message as unknown as { id?: RequestId; method?: string };
    if (record.method === undefined && record.id !== undefined) {
      if (this.isClosing) return SENT;
      if (this.answered.has(record.id)) return SENT; // one response per request, whatever the engine does
      this.answered.add(record.id);
      if (this.incoming.size > 0) {
        const state = this.incoming.get(record.id);
        this.incoming.delete(record.id);
        if (state === 'cancelled') return SENT; // cancelled by the peer: MCP says the receiver should not respond
      }
    }
    // Not an async function: that would cost a second promise per message. A throwing trace still rejects.
    try {
      this.trace('send', message);
      return this.transport.send(message);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  end(): void {
    // The transport owns the stream's lifetime.
  }
}
