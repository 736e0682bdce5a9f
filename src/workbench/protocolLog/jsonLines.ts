import type { WireEvent } from './wireEvent';

/**
 * The log as JSON Lines: one event per line, in order, already masked. A message's `text` is its JSON as a string
 * (kept as sent, cut when `truncated`), so each line parses even when the message it holds was cut.
 */
export function* toJsonLines(events: Iterable<WireEvent>): Generator<string, void, void> {
  for (const event of events) yield `${JSON.stringify({ ...event, time: new Date(event.time).toISOString() })}\n`;
}
