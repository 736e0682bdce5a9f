/**
 * Splits a byte stream into newline-delimited lines in linear time. Chunks are kept as a list and joined
 * once per line, so a 50 MB message costs one copy instead of one per chunk. Splitting happens on the byte
 * 0x0A, so a multi-byte UTF-8 character cut across chunks is never broken.
 */

export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export interface LineSink {
  line(text: string): void;
  /** A line grew past the limit; its bytes are discarded up to the next newline. */
  oversized(bytes: number, limit: number): void;
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

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
      this.accumulate(chunk.subarray(start, newline));
      this.finishLine();
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
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.discarding = true;
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
      this.discarding = false;
      this.pending = [];
      this.pendingBytes = 0;
      this.sink.oversized(bytes, this.maxLineBytes);
      return;
    }
    const pieces = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const buffer = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces);
    let end = buffer.length;
    if (end > 0 && buffer[end - 1] === 0x0d) end--;
    if (end === 0) return;
    const text = buffer.toString('utf8', 0, end);
    if (text.trim().length === 0) return;
    this.sink.line(text);
  }
}
