import type { DeliveryMode, FeedItem, SubscriptionStats } from '../../protocol/extensions/events/eventTypes';
import type { HistoryRecord, HistoryServer } from '../history/historyLog';

/**
 * One History entry per Events subscription (mcpWorkbench.events.recordInHistory): written when it starts and
 * replaced in place as events come, at most once per `intervalMs`, and once more when it ends. Its result holds the
 * counters and only the last `maxItems` feed items (History then caps the result's size and masks it at its sink).
 */
export interface EventsHistorySubject {
  server: HistoryServer;
  eventName: string;
  mode: DeliveryMode;
  arguments: Record<string, unknown>;
  startedAt: number;
  stats(): SubscriptionStats;
  recent(): FeedItem[];
}

export const EVENTS_HISTORY_ITEMS = 50;

export function eventsHistoryRecord(
  subject: EventsHistorySubject,
  now: number,
  ended: string | undefined,
  maxItems = EVENTS_HISTORY_ITEMS,
): HistoryRecord {
  const items = subject.recent();
  return {
    server: subject.server,
    startedAt: subject.startedAt,
    durationMs: Math.max(0, now - subject.startedAt),
    operation: { kind: 'events', eventName: subject.eventName, mode: subject.mode, arguments: subject.arguments },
    outcome: { kind: 'succeeded', note: ended ?? 'running' },
    result: {
      stats: { ...subject.stats() },
      itemsLeftOut: Math.max(0, items.length - maxItems),
      items: items.slice(-maxItems),
    },
  };
}

/** Writes (`write(previousId, record)` → id) the subscription's entry, throttled; `end` writes the last one. */
export class EventsHistoryWriter {
  private id: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(
    private readonly subject: EventsHistorySubject,
    private readonly write: (previousId: number | undefined, record: HistoryRecord) => number,
    private readonly intervalMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {
    this.flush(undefined);
  }

  /** Something arrived: the entry is rewritten within intervalMs (a flood is one write per interval). */
  changed(): void {
    if (this.done || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush(undefined);
    }, this.intervalMs);
  }

  /** The subscription ended (`how`: stopped, terminated…): the last write, and no timer left. */
  end(how: string): void {
    if (this.done) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush(how);
    this.done = true;
  }

  private flush(ended: string | undefined): void {
    this.id = this.write(this.id, eventsHistoryRecord(this.subject, this.now(), ended));
  }
}
