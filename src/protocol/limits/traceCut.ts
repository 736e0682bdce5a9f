/**
 * What the verbose trace writes of one message: the whole text up to `maxTraceBytes` UTF-8 bytes, else its first
 * `maxTraceBytes` bytes (never half a character) followed by "… (N bytes cut)". A trace line is for a person reading
 * the log; a 200 MB result written whole would cost the host that much again in the output channel.
 *
 * To be called by the trace hook (src/protocol/jsonrpc/mcpStreams.ts) on the text it is about to write, with
 * `InputLimits.maxTraceBytes` of the connection.
 */
import { utf8Length } from './inputLimits';

const encoder = new TextEncoder();

export function cutForTrace(text: string, maxTraceBytes: number): string {
  if (text.length * 3 <= maxTraceBytes) return text; // fits whatever its characters are
  if (text.length <= maxTraceBytes && utf8Length(text) <= maxTraceBytes) return text;
  // encodeInto stops at a character boundary: `read` code units make at most maxTraceBytes bytes.
  const { read } = encoder.encodeInto(text.length > maxTraceBytes ? text.slice(0, maxTraceBytes) : text, new Uint8Array(maxTraceBytes));
  const kept = text.slice(0, read);
  const cutBytes = utf8Length(text) - utf8Length(kept);
  return `${kept}… (${cutBytes} bytes cut)`;
}
