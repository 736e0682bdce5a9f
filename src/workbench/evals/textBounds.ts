/**
 * Byte bounds on text the playground passes on or shows: an attachment's text before it joins the person's request,
 * the model's streamed answer and each tool result in the panel. Counted in UTF-8 bytes (what a page and a model's
 * context pay for), cut on a character boundary, and the cut is said in the text itself so nothing looks whole that
 * is not. Host-neutral: no vscode, no Node.
 */

import { utf8Length } from '../../protocol/limits/inputLimits';

export interface BoundedText {
  text: string;
  /** The UTF-8 bytes of the whole text before any cut. */
  bytes: number;
  cut: boolean;
}

const encoder = new TextEncoder();

/** The UTF-8 length of `text` (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
export { utf8Length };

/** The kibibytes a cap is named in ("cut at 32 KB"). */
export function kilobytes(bytes: number): string {
  return (bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** The longest prefix of `text` that fits `maxBytes` of UTF-8, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const room = new Uint8Array(Math.max(0, Math.floor(maxBytes)));
  // encodeInto writes whole characters only: `read` is where the prefix that fits ends.
  const { read } = encoder.encodeInto(text, room);
  return text.slice(0, read);
}

/** `text` within `maxBytes`, or its prefix followed by "…(cut at N KB)". */
export function boundText(text: string, maxBytes: number): BoundedText {
  const bytes = utf8Length(text);
  if (bytes <= maxBytes) return { text, bytes, cut: false };
  return { text: `${utf8Prefix(text, maxBytes)}\n…(cut at ${kilobytes(maxBytes)} KB)`, bytes, cut: true };
}

/**
 * A stream of text (the model's answer, delta by delta) shown up to a byte cap: `take` returns the part of a delta
 * still to show (empty once the cap is reached) and `cutNow` says, once, that this delta was the one the cap cut.
 */
export class StreamBound {
  private used = 0;
  private reached = false;

  constructor(readonly maxBytes: number) {}

  take(delta: string): { text: string; cutNow: boolean } {
    if (this.reached) return { text: '', cutNow: false };
    const bytes = utf8Length(delta);
    if (this.used + bytes <= this.maxBytes) {
      this.used += bytes;
      return { text: delta, cutNow: false };
    }
    const text = utf8Prefix(delta, this.maxBytes - this.used);
    this.used = this.maxBytes;
    this.reached = true;
    return { text, cutNow: true };
  }

  /** A new answer starts (the next model step): its own cap. */
  reset(): void {
    this.used = 0;
    this.reached = false;
  }
}
