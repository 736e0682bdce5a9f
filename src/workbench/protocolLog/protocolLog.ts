import { Emitter, type Disposable } from '../../protocol/disposable';
import type { TraceDirection } from '../../protocol/jsonrpc/mcpStreams';
import { BoundedMap } from '../../protocol/jsonrpc/bounded';
import type { HttpExchangeRecord, WireObserver } from '../../protocol/transports/wireObserver';
import { maskText } from '../secrets';
import { httpEventOf } from './httpEvent';
import { maskedMessageText } from './messageText';
import { Ring } from './ring';
import { summarize, type MessageEvent, type WireEvent } from './wireEvent';

/**
 * The bound of a log: past either limit the oldest events are dropped. 100,000 events (the Protocol view stays
 * smooth at that count) or 64 MB of kept text; one message keeps at most `maxMessageChars` characters (64 KiB,
 * the trace cut), so a 200 MB result costs 64 KiB here.
 */
interface ProtocolLogBounds {
  maxEvents: number;
  maxBytes: number;
  maxMessageChars: number;
}

const DEFAULT_PROTOCOL_LOG_BOUNDS: ProtocolLogBounds = {
  maxEvents: 100_000,
  maxBytes: 64 * 1024 * 1024,
  maxMessageChars: 64 * 1024,
};

/** How many requests awaiting their answer (and progress tokens) are remembered for pairing. */
const PAIRING_MEMORY = 4096;

interface Pending {
  seq: number;
  time: number;
  method: string | undefined;
}

/**
 * A bounded, masked record of one server's wire: its JSON-RPC messages both ways (responses paired with their
 * requests, with the duration; progress and cancellations linked to theirs), its HTTP exchanges, and its console
 * (stderr) lines. Host-neutral: the extension's Protocol view and the CLI read the same log. It is a WireObserver, so
 * it is attached where a connection is built (McpClientOptions.trace and `observeFetch`).
 */
export class ProtocolLog implements WireObserver, Disposable {
  private readonly ring: Ring<WireEvent>;
  private nextSeq = 1;
  private era: string | undefined;
  /** Our requests awaiting a response, by id ('send:' + id), and the server's ('receive:' + id). */
  private readonly pending = new BoundedMap<string, Pending>(PAIRING_MEMORY);
  private readonly progressTokens = new BoundedMap<string | number, number>(PAIRING_MEMORY);
  private readonly appended = new Emitter<WireEvent>();
  private readonly cleared = new Emitter<void>();

  /** Each event as it is appended. */
  readonly onDidAppend = this.appended.event;
  readonly onDidClear = this.cleared.event;

  constructor(
    /** Asked at each event: values that must not appear (inputs entered later included). */
    private readonly knownSecrets: () => readonly string[] = () => [],
    readonly bounds: ProtocolLogBounds = DEFAULT_PROTOCOL_LOG_BOUNDS,
  ) {
    this.ring = new Ring(bounds.maxEvents, bounds.maxBytes);
  }

  get size(): number {
    return this.ring.length;
  }

  /** Events dropped to stay within the bounds. */
  get dropped(): number {
    return this.ring.dropped;
  }

  events(): WireEvent[] {
    return this.ring.toArray();
  }

  /** The kept events after `seq`, oldest first. */
  since(seq: number): WireEvent[] {
    return this.ring.filter((event) => event.seq > seq);
  }

  message(direction: TraceDirection, message: unknown): void {
    const summary = summarize(message);
    if (summary.metaVersion !== undefined) this.era = summary.metaVersion;
    const secrets = this.knownSecrets();
    const { text, truncated, size } = maskedMessageText(message, secrets, this.bounds.maxMessageChars);
    const event: MessageEvent = {
      kind: 'message',
      seq: this.nextSeq++,
      time: Date.now(),
      direction,
      messageKind: summary.messageKind,
      size,
      text,
      truncated,
    };
    if (summary.method !== undefined) event.method = summary.method;
    if (summary.id !== undefined) event.id = summary.id;
    if (summary.error) event.error = { ...summary.error, message: maskText(summary.error.message, secrets) };
    this.pair(direction, summary, event);
    // The revision a handshake settles applies from its response on.
    if (summary.resultVersion !== undefined && (event.method === 'initialize' || event.method === 'server/discover'))
      this.era = summary.resultVersion;
    if (this.era !== undefined) event.era = this.era;
    this.append(event, text.length);
  }

  http(record: HttpExchangeRecord): void {
    const event = httpEventOf(record, this.knownSecrets(), this.nextSeq++);
    this.append(event, 256 + event.url.length + (event.requestBody?.length ?? 0));
  }

  /** A stderr line (or transport note), stamped with its arrival time. */
  console(line: string): void {
    const text = maskText(line, this.knownSecrets());
    this.append({ kind: 'console', seq: this.nextSeq++, time: Date.now(), text }, text.length);
  }

  clear(): void {
    this.ring.clear();
    this.pending.clear();
    this.progressTokens.clear();
    this.cleared.fire();
  }

  dispose(): void {
    this.appended.dispose();
    this.cleared.dispose();
  }

  private pair(direction: TraceDirection, summary: ReturnType<typeof summarize>, event: MessageEvent): void {
    const other: TraceDirection = direction === 'send' ? 'receive' : 'send';
    switch (summary.messageKind) {
      case 'request':
        if (summary.id !== undefined)
          this.pending.set(`${direction}:${String(summary.id)}`, {
            seq: event.seq,
            time: event.time,
            method: summary.method,
          });
        if (summary.progressToken !== undefined) this.progressTokens.set(summary.progressToken, event.seq);
        return;
      case 'result':
      case 'error': {
        if (summary.id === undefined) return;
        const key = `${other}:${String(summary.id)}`;
        const request = this.pending.get(key);
        if (!request) return;
        this.pending.delete(key);
        event.relatedSeq = request.seq;
        event.durationMs = event.time - request.time;
        // The method of the request it answers, so a filter by method shows both.
        if (request.method !== undefined) event.method = request.method;
        return;
      }
      case 'notification':
        if (summary.progressToken !== undefined && summary.method === 'notifications/progress') {
          const seq = this.progressTokens.get(summary.progressToken);
          if (seq !== undefined) event.relatedSeq = seq;
        } else if (summary.cancelledId !== undefined) {
          // A cancellation names a request of the side that sends it.
          const request = this.pending.get(`${direction}:${String(summary.cancelledId)}`);
          if (request) event.relatedSeq = request.seq;
        }
        return;
      case 'batch':
      case 'other':
        return;
      default: {
        const exhaustive: never = summary.messageKind;
        throw new Error(`unknown message kind ${String(exhaustive)}`);
      }
    }
  }

  private append(event: WireEvent, weight: number): void {
    this.ring.push(event, weight);
    this.appended.fire(event);
  }
}
