import { Emitter, type Disposable } from '../../protocol/disposable';
import type { TraceDirection } from '../../protocol/jsonrpc/mcpStreams';
import { BoundedMap } from '../../protocol/jsonrpc/bounded';
import type { HttpExchangeRecord, WireObserver } from '../../protocol/transports/wireObserver';
import { MASK, maskText } from '../secrets';
import { httpEventOf } from './httpEvent';
import { maskedMessageText } from './messageText';
import { checkRequest, type ReplayCheck } from './replay';
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
  id: string | number;
  /** The revision the request carried (its `_meta`, or what an `initialize` asks for). */
  revision: string | undefined;
  /** A replay's marks, given to its answer too. */
  replayOf?: number;
  edited?: true;
}

/** What pairs answers, progress and cancellations with their requests. */
interface PairingBook {
  pending: BoundedMap<string, Pending>;
  progressTokens: BoundedMap<string | number, { seq: number; id: string | number | undefined }>;
}

function newBook(): PairingBook {
  return { pending: new BoundedMap(PAIRING_MEMORY), progressTokens: new BoundedMap(PAIRING_MEMORY) };
}

/** The client's tokens as they are; an agent's within its scope (two agents may use the same token). */
function tokenKey(scope: string, token: string | number): string | number {
  return scope === '' ? token : `${scope}${typeof token}:${String(token)}`;
}

/** Rows a person may pin: pinned rows are kept apart from the ring, so clearing or rolling never drops them. */
export const MAX_PINNED = 50;
/**
 * Sent requests whose masked text differs from what was sent (a secret in them) are kept whole, the last this many,
 * so Replay sends them as they were; every other request is replayed from its text, which is then exact.
 */
const REPLAY_ORIGINALS = 256;

/** The requests that open a session: what was settled before them says nothing about the session they open. */
const OPENING_METHODS: ReadonlySet<string | undefined> = new Set(['initialize', 'server/discover']);

/**
 * A bounded, masked record of one server's wire: its JSON-RPC messages both ways (responses paired with their
 * requests, with the duration; progress and cancellations linked to theirs), its HTTP exchanges, and its console
 * (stderr) lines. Host-neutral: the extension's Protocol view and the CLI read the same log. It is a WireObserver, so
 * it is attached where a connection is built (McpClientOptions.trace and `observeFetch`).
 */
export class ProtocolLog implements WireObserver, Disposable {
  private readonly ring: Ring<WireEvent>;
  private nextSeq = 1;
  /** The revision the current session settled on (see MessageEvent.era); undefined until one is. */
  private settled: string | undefined;
  /**
   * The client's pairing: our requests awaiting a response, by id ('send:' + id), and the server's ('receive:' + id);
   * progress tokens → the row (and id) of the request that asked for progress.
   */
  private readonly book = newBook();
  /** The agents' (agentMessage), apart: an agent's flood does not push out the client's own requests. */
  private readonly agentBook = newBook();
  private readonly appended = new Emitter<WireEvent>();
  private readonly cleared = new Emitter<void>();
  private readonly pinsChanged = new Emitter<void>();
  private readonly pins = new Map<number, WireEvent>();
  /** Unmasked originals of sent requests whose text was masked, by row (never posted, never written). */
  private readonly originals = new BoundedMap<number, unknown>(REPLAY_ORIGINALS);
  /** Replays asked for and not yet seen on the wire: the next request of that method sent is the replay. */
  private readonly replays: Array<{ method: string; of: number; edited: boolean }> = [];

  /** Each event as it is appended. */
  readonly onDidAppend = this.appended.event;
  readonly onDidClear = this.cleared.event;
  readonly onDidChangePins = this.pinsChanged.event;

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
    if (direction === 'send' && summary.messageKind === 'request') {
      const replay = this.replays.findIndex((pending) => pending.method === summary.method);
      if (replay >= 0) {
        const [{ of, edited }] = this.replays.splice(replay, 1);
        event.replayOf = of;
        if (edited) event.edited = true;
      }
      if (!truncated && text.includes(MASK)) {
        try {
          this.originals.set(event.seq, structuredClone(message));
        } catch {
          // Not cloneable (never for a message from the wire): replayed from its text, which holds the mask.
        }
      }
    }
    const answered = this.pair(direction, summary, event, this.book, '');
    const era = this.revisionOf(direction, summary, answered);
    if (era !== undefined) event.era = era;
    this.append(event, text.length);
  }

  /**
   * A message between an agent and the gateway (issue 37), labelled with the agent (`label`: its clientInfo, escaped
   * and cut by the caller): `receive` is the agent's, `send` the gateway's to it. Paired within the agent's own ids
   * (`key` tells agents apart), apart from the wire's: the agent's ids are not the client's, and the revision an
   * agent speaks is its own, not the session's.
   */
  agentMessage(agent: { key: string; label: string }, direction: TraceDirection, message: unknown): void {
    const summary = summarize(message);
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
      agent: agent.label,
    };
    if (summary.method !== undefined) event.method = summary.method;
    if (summary.id !== undefined) event.id = summary.id;
    if (summary.error) event.error = { ...summary.error, message: maskText(summary.error.message, secrets) };
    this.pair(direction, summary, event, this.agentBook, `${agent.key}\0`);
    const era = summary.paramsVersion ?? summary.metaVersion ?? summary.resultVersion;
    if (era !== undefined) event.era = era;
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

  /** Keeps a row apart from the ring (shown first, kept when cleared or rolled), up to MAX_PINNED rows. */
  pin(seq: number): 'pinned' | 'full' | 'gone' {
    if (this.pins.has(seq)) return 'pinned';
    if (this.pins.size >= MAX_PINNED) return 'full';
    const [event] = this.ring.filter((candidate) => candidate.seq === seq);
    if (!event) return 'gone';
    this.pins.set(seq, event);
    this.pinsChanged.fire();
    return 'pinned';
  }

  unpin(seq: number): void {
    if (this.pins.delete(seq)) this.pinsChanged.fire();
  }

  /** The pinned rows, in row order. */
  pinned(): WireEvent[] {
    return [...this.pins.values()].sort((a, b) => a.seq - b.seq);
  }

  /** A kept or pinned row. */
  event(seq: number): WireEvent | undefined {
    return this.pins.get(seq) ?? this.ring.filter((event) => event.seq === seq)[0];
  }

  /**
   * The request of row `seq`, checked for Replay: sent by this client (not to an agent), kept whole (its original when its text was
   * masked), and one the client may send again.
   */
  replaySource(seq: number): ReplayCheck {
    const event = this.event(seq);
    // A request the gateway sent to an agent (a server's, relayed) was not this client's to send again.
    if (
      event?.kind !== 'message' ||
      event.direction !== 'send' ||
      event.messageKind !== 'request' ||
      event.agent !== undefined
    )
      return { ok: false, refusal: { kind: 'not-sent-request' } };
    if (this.originals.has(seq)) return checkRequest(this.originals.get(seq));
    if (event.truncated) return { ok: false, refusal: { kind: 'truncated' } };
    if (event.text.includes(MASK)) return { ok: false, refusal: { kind: 'masked' } };
    return checkRequest(JSON.parse(event.text));
  }

  /** The next request of `method` this client sends is a replay of row `of` (MessageEvent.replayOf), or its edit. */
  expectReplay(method: string, of: number, edited = false): void {
    this.replays.push({ method, of, edited });
    // A replay that never reached the wire (refused before sending) must not mark a later request: keep only a few.
    if (this.replays.length > 16) this.replays.shift();
  }

  /** A replay that failed before it was sent: the mark is not left for a later request. */
  forgetReplay(method: string, of: number): void {
    const index = this.replays.findIndex((pending) => pending.method === method && pending.of === of);
    if (index >= 0) this.replays.splice(index, 1);
  }

  clear(): void {
    this.ring.clear();
    for (const book of [this.book, this.agentBook]) {
      book.pending.clear();
      book.progressTokens.clear();
    }
    this.settled = undefined;
    this.cleared.fire();
  }

  dispose(): void {
    this.appended.dispose();
    this.cleared.dispose();
    this.pinsChanged.dispose();
  }

  /**
   * Links the event to the request it answers or is about; returns the request a response answers. `scope` keeps one
   * agent's ids apart from another's in the agents' book.
   */
  private pair(
    direction: TraceDirection,
    summary: ReturnType<typeof summarize>,
    event: MessageEvent,
    book: PairingBook,
    scope: string,
  ): Pending | undefined {
    const other: TraceDirection = direction === 'send' ? 'receive' : 'send';
    switch (summary.messageKind) {
      case 'request':
        if (summary.id !== undefined)
          book.pending.set(`${scope}${direction}:${String(summary.id)}`, {
            seq: event.seq,
            time: event.time,
            method: summary.method,
            id: summary.id,
            revision: summary.paramsVersion ?? summary.metaVersion,
            ...(event.replayOf !== undefined ? { replayOf: event.replayOf } : {}),
            ...(event.edited ? { edited: event.edited } : {}),
          });
        if (summary.progressToken !== undefined)
          book.progressTokens.set(tokenKey(scope, summary.progressToken), { seq: event.seq, id: summary.id });
        return undefined;
      case 'result':
      case 'error': {
        if (summary.id === undefined) return undefined;
        const key = `${scope}${other}:${String(summary.id)}`;
        const request = book.pending.get(key);
        if (!request) return undefined;
        book.pending.delete(key);
        event.relatedSeq = request.seq;
        event.relatedId = request.id;
        event.durationMs = event.time - request.time;
        if (request.replayOf !== undefined) event.replayOf = request.replayOf;
        if (request.edited) event.edited = request.edited;
        // The method of the request it answers, so a filter by method shows both.
        if (request.method !== undefined) event.method = request.method;
        return request;
      }
      case 'notification':
        if (summary.progressToken !== undefined && summary.method === 'notifications/progress') {
          const request = book.progressTokens.get(tokenKey(scope, summary.progressToken));
          if (request !== undefined) {
            event.relatedSeq = request.seq;
            if (request.id !== undefined) event.relatedId = request.id;
          }
        } else if (summary.cancelledId !== undefined) {
          // A cancellation names a request of the side that sends it.
          const request = book.pending.get(`${scope}${direction}:${String(summary.cancelledId)}`);
          if (request) {
            event.relatedSeq = request.seq;
            event.relatedId = request.id;
          }
        }
        return undefined;
      case 'batch':
      case 'other':
        return undefined;
      default: {
        const exhaustive: never = summary.messageKind;
        throw new Error(`unknown message kind ${String(exhaustive)}`);
      }
    }
  }

  /**
   * The revision a message carries or was sent under (MessageEvent.era). A request that opens a session (the era
   * probe's `server/discover`, `initialize`) carries its own and forgets the settled one: an `initialize` sent after
   * a probe asked for 2026-07-28 is labelled with what it asks for, and the probe's error answer with none. A result
   * of an opening request settles the session: its `protocolVersion` (initialize), or the revision its request
   * carried when the server lists it among its `supportedVersions` (server/discover). Every other message carries its
   * own `_meta` revision or has the settled one.
   */
  private revisionOf(
    direction: TraceDirection,
    summary: ReturnType<typeof summarize>,
    answered: Pending | undefined,
  ): string | undefined {
    const own = summary.paramsVersion ?? summary.metaVersion;
    switch (summary.messageKind) {
      case 'request':
        if (direction === 'send' && OPENING_METHODS.has(summary.method)) {
          this.settled = undefined;
          return own;
        }
        // Only an open 2026-07-28 session sends other requests with a revision in `_meta` (a log opened mid-session
        // learns it here).
        if (direction === 'send' && summary.metaVersion !== undefined) this.settled = summary.metaVersion;
        return own ?? this.settled;
      case 'result': {
        if (!answered || !OPENING_METHODS.has(answered.method)) return this.settled;
        const agreed =
          summary.resultVersion ??
          (answered.revision !== undefined &&
          (summary.resultSupported === undefined || summary.resultSupported.includes(answered.revision))
            ? answered.revision
            : undefined);
        this.settled = agreed;
        return agreed;
      }
      case 'error':
      case 'notification':
      case 'batch':
      case 'other':
        return own ?? this.settled;
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
