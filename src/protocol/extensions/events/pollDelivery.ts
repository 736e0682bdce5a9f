import { cursorOf } from './eventTypes';
import { Delivery } from './subscription';

/**
 * Poll mode: `events/poll` with the last cursor, again after the server's `nextPollMs` (never sooner than the floor),
 * at once while it says `hasMore` (at most maxImmediateDrains times in a row). `truncated` marks a gap and its fresh
 * cursor is kept; a null or absent cursor is never replayed.
 */
export class PollDelivery extends Delivery {
  readonly mode = 'poll' as const;
  private drains = 0;

  start(): this {
    this.feed.status('active');
    this.poll();
    return this;
  }

  private poll(): void {
    if (this.stopped) return;
    const params = { ...this.subscriptionParams(), maxEvents: this.limits.maxEventsPerPoll };
    this.context.request('events/poll', params, { signal: this.nextSignal(), refresh: true }).then(
      (result) => this.answered(result),
      (error: unknown) => void this.failed(error, () => this.poll()),
    );
  }

  private answered(result: Record<string, unknown>): void {
    if (this.stopped) return;
    this.succeeded();
    const events = Array.isArray(result.events) ? result.events : [];
    if (!Array.isArray(result.events)) this.feed.status('error', 'the poll answer has no events array');
    // A truncated answer's events come after the gap: the gap is marked first.
    if (result.truncated === true) this.feed.gap(cursorOf(result.cursor));
    for (const occurrence of events.slice(0, this.limits.maxEventsPerPoll)) this.feed.occurrence(occurrence);
    if (events.length > this.limits.maxEventsPerPoll)
      this.feed.status(
        'error',
        `the poll answer carried ${events.length} events; ${this.limits.maxEventsPerPoll} were read`,
      );
    // Poll carries the cursor at the answer's level (an occurrence's own cursor is push's and webhook's).
    this.cursor = cursorOf(result.cursor);
    const drain = result.hasMore === true && this.drains < this.limits.maxImmediateDrains;
    this.drains = drain ? this.drains + 1 : 0;
    this.schedule(drain ? 0 : this.waitAfter(result), () => this.poll());
  }

  private waitAfter(result: Record<string, unknown>): number {
    const asked = result.nextPollMs;
    const wait = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? asked : this.limits.defaultPollMs;
    // Past a day is no longer an interval but a server that does not want to be polled: poll daily.
    return Math.min(Math.max(wait, this.limits.pollFloorMs), 24 * 60 * 60_000);
  }
}
