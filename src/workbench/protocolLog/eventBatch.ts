import type { WireEvent } from './wireEvent';

/** What the Protocol view posts to its page per batch of events ('reset' or 'append'), as JSON in UTF-8. */
interface EventBatch {
  events: readonly WireEvent[];
  /** Events the log dropped to stay within its bounds. */
  dropped: number;
}

const utf8 = new TextEncoder();

/**
 * A batch as the UTF-8 bytes of its JSON. VS Code serializes a posted object with a replacer it calls for every
 * value, and its IPC then escapes that text once more; a byte array passes both as one buffer. The array comes from
 * TextEncoder and owns its buffer: VS Code sends a view's whole underlying buffer, and a small Node Buffer's is the
 * shared pool (other data).
 */
export function encodeEventBatch(events: readonly WireEvent[], dropped: number): Uint8Array {
  const batch: EventBatch = { events, dropped };
  return utf8.encode(JSON.stringify(batch));
}
