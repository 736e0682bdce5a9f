/**
 * Splits a byte stream into newline-delimited lines in linear time. Chunks are kept as a list and joined
 * once per line, so a 50 MB message costs one copy instead of one per chunk. Splitting happens on the byte
 * 0x0A, so a multi-byte UTF-8 character cut across chunks is never broken.
 */

import { DEFAULT_MAX_MESSAGE_BYTES, OVERSIZED_EDGE_BYTES } from '../jsonrpc/oversized';

// The limits and reasons are common protocol code (the RPC layer reads the reason); the splitting, on Buffer, is Node's.
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  OVERSIZED_EDGE_BYTES,
  isOversizedReason,
  oversizedReason,
} from '../jsonrpc/oversized';

interface LineSink {
  line(text: string): void;
  /**
   * A line grew past the limit; its bytes are discarded up to the next newline. `head` and `tail` are the first
   * and last bytes of the discarded line (at most OVERSIZED_EDGE_BYTES each), enough to find its JSON-RPC id.
   */
  oversized(bytes: number, limit: number, head: string, tail: string): void;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly sink: LineSink,
    private readonly maxLineBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        this.accumulate(chunk.subarray(start));
        return;
      }
      if (this.pendingBytes === 0 && !this.discarding && newline - start <= this.maxLineBytes) {
        // The whole line lies in this chunk (the usual case): decoded from it in place, without a view per line.
        this.emitLine(chunk, start, newline);
      } else {
        this.accumulate(chunk.subarray(start, newline));
        this.finishLine();
      }
      start = newline + 1;
    }
  }

  /** Flushes a final line that had no trailing newline (stream ended). */
  end(): void {
    if (this.pendingBytes > 0 || this.pending.length > 0) this.finishLine();
  }

  private accumulate(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.discarding) {
      this.pendingBytes += piece.length;
      this.keepTail(piece);
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.discarding = true;
      this.head = takeHead([...this.pending, piece], OVERSIZED_EDGE_BYTES);
      this.tail = Buffer.alloc(0);
      for (const kept of this.pending.slice(-2)) this.keepTail(kept);
      this.keepTail(piece);
      this.pending = [];
      this.pendingBytes += piece.length;
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private finishLine(): void {
    if (this.discarding) {
      const bytes = this.pendingBytes;
      const head = this.head.toString('utf8');
      const tail = this.tail.toString('utf8');
      this.discarding = false;
      this.pending = [];
      this.pendingBytes = 0;
      this.head = Buffer.alloc(0);
      this.tail = Buffer.alloc(0);
      this.sink.oversized(bytes, this.maxLineBytes, head, tail);
      return;
    }
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const buffer = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    this.emitLine(buffer, 0, buffer.length);
  }

  /** Hands on bytes [start, end) of `buffer` as one line, without a trailing CR; blank lines are skipped. */
  private emitLine(buffer: Buffer, start: number, end: number): void {
    if (end > start && buffer[end - 1] === 0x0d) end--;
    if (end === start) return;
    const text = buffer.toString('utf8', start, end);
    if (text.trim().length === 0) return;
    this.sink.line(text);
  }

  private keepTail(piece: Buffer): void {
    const last = piece.length > OVERSIZED_EDGE_BYTES ? piece.subarray(piece.length - OVERSIZED_EDGE_BYTES) : piece;
    const joined = this.tail.length ? Buffer.concat([this.tail, last]) : Buffer.from(last);
    this.tail = joined.length > OVERSIZED_EDGE_BYTES ? joined.subarray(joined.length - OVERSIZED_EDGE_BYTES) : joined;
  }
}

function takeHead(pieces: Buffer[], max: number): Buffer {
  const taken: Buffer[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (size >= max) break;
    const part = piece.subarray(0, max - size);
    taken.push(part);
    size += part.length;
  }
  return Buffer.concat(taken);
}
