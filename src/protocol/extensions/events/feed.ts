import { isObject } from '../../guards';
import type { JsonObject } from '../../types';
import type { SchemaValidator } from '../../validation/schemaValidation';
import { cursorOf, type EventsLimits, type EventType, type FeedItem, type SubscriptionStats } from './eventTypes';

const MAX_EVENT_ID_LENGTH = 512;

/**
 * One subscription's feed, whatever delivers it: each occurrence is checked (shape, payload size, payload against the
 * event type's payloadSchema), deduplicated by eventId, held to a rate, and handed to the listener; gaps and status
 * changes go the same way. The last `feedLength` items stay readable for a view that opens later.
 */
export class Feed {
  readonly stats: SubscriptionStats = { delivered: 0, duplicates: 0, gaps: 0, refused: 0, floodDropped: 0 };
  private readonly seen = new Map<string, true>();
  private readonly kept: FeedItem[] = [];
  private windowStart = -Infinity;
  private inWindow = 0;
  private droppedInWindow = 0;

  constructor(
    private readonly type: EventType,
    private readonly limits: EventsLimits,
    private readonly validator: SchemaValidator,
    private readonly listener: (item: FeedItem) => void,
    private readonly now: () => number,
    /**
     * Asked to call `flushFlood` in `ms` when the window's first drop happens: a stream that falls quiet after a
     * flood still shows its gap when the window ends, not only at the next event or at stop.
     */
    private readonly armFlush: (ms: number) => void = () => undefined,
  ) {}

  recent(): FeedItem[] {
    return [...this.kept];
  }

  private emit(item: FeedItem): void {
    this.kept.push(item);
    if (this.kept.length > this.limits.feedLength) this.kept.shift();
    try {
      this.listener(item);
    } catch {
      // A listener that throws must not stop the subscription that feeds it.
    }
  }

  status(status: Extract<FeedItem, { kind: 'status' }>['status'], message?: string): void {
    this.emit({ kind: 'status', receivedAt: this.now(), status, ...(message === undefined ? {} : { message }) });
  }

  gap(cursor: string | null): void {
    this.stats.gaps++;
    this.emit({ kind: 'gap', receivedAt: this.now(), reason: 'truncated', cursor });
  }

  private refuse(reason: string, eventId?: string): void {
    this.stats.refused++;
    this.emit({ kind: 'refused', receivedAt: this.now(), reason, ...(eventId === undefined ? {} : { eventId }) });
  }

  /** Marks what the rate bound dropped in the window that ended (when it ends, at the next item, or at stop). */
  flushFlood(): void {
    if (this.droppedInWindow === 0) return;
    const dropped = this.droppedInWindow;
    this.droppedInWindow = 0;
    this.stats.gaps++;
    this.emit({ kind: 'gap', receivedAt: this.now(), reason: 'flood', dropped });
  }

  /** Takes one occurrence as the server sent it; answers its cursor (null when absent) for the caller to keep. */
  occurrence(raw: unknown): string | null {
    if (!isObject(raw)) {
      this.refuse('an event occurrence that is not an object');
      return null;
    }
    const cursor = cursorOf(raw.cursor);
    const { eventId, name, timestamp, data } = raw;
    // Remembered for deduplication, so bounded: a server cannot fill the memory with megabyte-long ids.
    if (typeof eventId !== 'string' || eventId === '' || eventId.length > MAX_EVENT_ID_LENGTH) {
      this.refuse(`an event occurrence without an eventId of 1 to ${MAX_EVENT_ID_LENGTH} characters`);
      return cursor;
    }
    if (this.seen.has(eventId)) {
      this.stats.duplicates++;
      return cursor;
    }
    if (name !== this.type.name) {
      this.refuse(`an occurrence of another event type (${String(name).slice(0, 100)})`, eventId);
      return cursor;
    }
    if (typeof timestamp !== 'string' || !isObject(data)) {
      this.refuse('an event occurrence without a timestamp string or a data object', eventId);
      return cursor;
    }
    const size = jsonLength(data, this.limits.maxPayloadChars);
    if (size > this.limits.maxPayloadChars) {
      this.refuse(`its data is larger than ${this.limits.maxPayloadChars} characters of JSON`, eventId);
      return cursor;
    }
    this.remember(eventId);
    const now = this.now();
    if (now - this.windowStart >= 1_000) {
      this.flushFlood();
      this.windowStart = now;
      this.inWindow = 0;
    }
    if (++this.inWindow > this.limits.maxEventsPerSecond) {
      if (this.droppedInWindow++ === 0) this.armFlush(Math.max(0, this.windowStart + 1_000 - now));
      this.stats.floodDropped++;
      return cursor;
    }
    this.stats.delivered++;
    this.emit({
      kind: 'event',
      receivedAt: now,
      eventId,
      name: this.type.name,
      timestamp: timestamp.slice(0, 100),
      data: data as JsonObject,
      cursor,
      payload:
        this.type.payloadSchema === undefined
          ? { kind: 'unchecked', reason: 'the event type declares no payloadSchema' }
          : this.validator.validate(this.type.payloadSchema, data),
    });
    return cursor;
  }

  private remember(eventId: string): void {
    this.seen.set(eventId, true);
    if (this.seen.size > this.limits.dedupeMemory) this.seen.delete(this.seen.keys().next().value as string);
  }
}

/** The length of `value` as JSON, stopping soon after `limit` (a huge payload is not serialized whole to be refused). */
function jsonLength(value: unknown, limit: number): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && length <= limit) {
    const next = pending.pop();
    if (typeof next === 'string') length += next.length + 2;
    else if (Array.isArray(next)) {
      length += 2 + next.length;
      for (const item of next) pending.push(item);
    } else if (isObject(next)) {
      for (const [key, item] of Object.entries(next)) {
        length += key.length + 4;
        pending.push(item);
      }
      length += 2;
    } else length += String(next).length;
  }
  return length;
}
