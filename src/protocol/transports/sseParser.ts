/**
 * An incremental text/event-stream parser following the WHATWG HTML "Server-sent events" parsing rules.
 *
 * Cost is linear in the input: each chunk is scanned once, a line cut across chunks is kept as a list of
 * pieces and joined once when it ends, and the `data` lines of an event are joined once at dispatch. So a
 * 50 MB event that arrives in 64 KB chunks is copied a constant number of times, not once per chunk.
 */

import { ByteBudget, InputLimitError } from '../limits/inputLimits';

export interface SseEvent {
  /** The `event` field, or 'message' when the server gave none. */
  readonly type: string;
  /** The `data` lines joined by '\n'. Never empty: the spec dispatches nothing for an empty data buffer. */
  readonly data: string;
  /** The last event id in effect when this event was dispatched ('' when none was ever set). */
  readonly lastEventId: string;
}

interface SseHandlers {
  event(event: SseEvent): void;
  /** The server asked for a new reconnection delay (a `retry` field with only ASCII digits). */
  retry?(milliseconds: number): void;
}

/** Caps on what one stream may make the parser hold; past one, push() throws an InputLimitError naming it. */
interface SseParserLimits {
  /** One line (setting maxSseLineBytes). */
  maxLineBytes: number;
  /** The data of one event, its lines joined (setting maxMessageBytes: an event carries one JSON-RPC message). */
  maxEventBytes: number;
}

const UNLIMITED: SseParserLimits = { maxLineBytes: Number.POSITIVE_INFINITY, maxEventBytes: Number.POSITIVE_INFINITY };

const LINE_END = /\r\n|\r|\n/g;

/**
 * With limits, a line or an event's data past its cap makes push() throw an InputLimitError before the text past the
 * cap is kept: the caller stops reading (pumpSse cancels the body) and the parser is not used again.
 */
export class SseParser {
  // The streaming decoder keeps a multi-byte character cut across chunks, and strips a leading BOM.
  private readonly decoder = new TextDecoder('utf-8');
  private linePieces: string[] = [];
  /** A chunk ended in CR; if the next one starts with LF it belongs to that same line end. */
  private swallowLeadingLf = false;

  private dataLines: string[] = [];
  private eventType = '';
  private lastEventIdBuffer = '';
  private currentLastEventId = '';
  private dispatchedCount = 0;
  private readonly lineBudget: ByteBudget;
  private readonly eventBudget: ByteBudget;

  /** `initialLastEventId` carries the cursor over a reconnection, as an EventSource keeps it. */
  constructor(
    private readonly handlers: SseHandlers,
    initialLastEventId = '',
    limits: SseParserLimits = UNLIMITED,
  ) {
    this.lastEventIdBuffer = initialLastEventId;
    this.currentLastEventId = initialLastEventId;
    this.lineBudget = new ByteBudget(limits.maxLineBytes);
    this.eventBudget = new ByteBudget(limits.maxEventBytes);
  }

  /** The stream's last event id, as the spec defines it: updated when an event (even an empty one) ends. */
  get lastEventId(): string {
    return this.currentLastEventId;
  }

  /** How many event blocks ended so far (dispatched or not); tells a caller the stream made progress. */
  get blocksSeen(): number {
    return this.dispatchedCount;
  }

  push(chunk: Uint8Array): void {
    this.consumeText(this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended. Per spec, pending data (an unterminated line or event) is discarded. */
  end(): void {
    this.consumeText(this.decoder.decode());
    this.linePieces = [];
    this.lineBudget.reset();
    this.dataLines = [];
    this.eventBudget.reset();
    this.eventType = '';
    this.swallowLeadingLf = false;
  }

  private consumeText(text: string): void {
    if (text.length === 0) return;
    let start = 0;
    if (this.swallowLeadingLf) {
      this.swallowLeadingLf = false;
      if (text.charCodeAt(0) === 0x0a) start = 1;
    }
    LINE_END.lastIndex = start;
    for (;;) {
      const match = LINE_END.exec(text);
      if (match === null) break;
      const end = match.index;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (match[0] === '\r' && end === text.length - 1) this.swallowLeadingLf = true;
      this.processLine(this.takeLine(text.slice(start, end)));
      start = LINE_END.lastIndex;
    }
    if (start < text.length) {
      const piece = start === 0 ? text : text.slice(start);
      this.checkLine(piece);
      this.linePieces.push(piece);
    }
  }

  private takeLine(tail: string): string {
    this.checkLine(tail);
    this.lineBudget.reset();
    if (this.linePieces.length === 0) return tail;
    this.linePieces.push(tail);
    const line = this.linePieces.join('');
    this.linePieces = [];
    return line;
  }

  /** Counts a piece of the current line before it is kept or joined. */
  private checkLine(piece: string): void {
    if (this.lineBudget.add(piece)) return;
    this.linePieces = [];
    throw new InputLimitError('an SSE line', this.lineBudget.limitBytes, 'maxSseLineBytes');
  }

  private processLine(line: string): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line.charCodeAt(0) === 0x3a /* ':' */) return; // comment, often a keep-alive
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      const valueStart = line.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1;
      value = line.slice(valueStart);
    }
    switch (field) {
      case 'data':
        // The '\n' that will join this line to the next counts too.
        if (!this.eventBudget.add(value) || (this.dataLines.length > 0 && !this.eventBudget.add('\n'))) {
          this.dataLines = [];
          throw new InputLimitError("an SSE event's data", this.eventBudget.limitBytes, 'maxMessageBytes');
        }
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        // An id containing NUL is ignored by the spec (it could not be sent back in a header).
        if (!value.includes('\0')) this.lastEventIdBuffer = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.handlers.retry?.(Number.parseInt(value, 10));
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(): void {
    this.dispatchedCount++;
    this.currentLastEventId = this.lastEventIdBuffer;
    const lines = this.dataLines;
    const type = this.eventType;
    this.dataLines = [];
    this.eventBudget.reset();
    this.eventType = '';
    if (lines.length === 0) return;
    const data = lines.length === 1 ? lines[0] : lines.join('\n');
    if (data.length === 0) return;
    this.handlers.event({ type: type || 'message', data, lastEventId: this.currentLastEventId });
  }
}
