import type { Disposable } from '../../disposable';
import { errorMessage, McpError } from '../../errors';
import type { JsonObject } from '../../types';
import type { SchemaValidator } from '../../validation/schemaValidation';
import type { ExtensionContext } from '../protocolExtension';
import {
  TERMINAL_ERROR_CODES,
  type DeliveryMode,
  type EventsLimits,
  type EventType,
  type FeedItem,
  type SubscriptionStats,
} from './eventTypes';
import { Feed } from './feed';

/** One subscription, whatever its mode: what a host holds, reads and stops. */
export interface EventSubscription extends Disposable {
  readonly type: EventType;
  readonly mode: DeliveryMode;
  /** The last cursor the server handed out (null: none, or the event type has no replay). */
  readonly cursor: string | null;
  readonly stats: SubscriptionStats;
  /** The last items of the feed, oldest first. */
  recent(): FeedItem[];
  /** Stops: cancels what is in flight, unsubscribes (webhook) and clears every timer; settles when all is done. */
  stop(): Promise<void>;
  /** Settles once the subscription has ended (stopped, or terminated by the server). */
  readonly ended: Promise<void>;
}

export interface SubscribeRequest {
  arguments?: JsonObject;
  /** Where to resume (a cursor kept from an earlier run); null or absent: start from now. */
  cursor?: string | null;
  maxAgeMs?: number;
}

/** What every mode is built from. */
export interface DeliveryParts {
  context: ExtensionContext;
  type: EventType;
  request: SubscribeRequest;
  limits: EventsLimits;
  validator: SchemaValidator;
  listener: (item: FeedItem) => void;
  now: () => number;
}

/**
 * The shared life of a subscription: one timer and one request in flight at most, both gone at stop; a retry backs
 * off from the poll floor to maxBackoffMs; the client's lifetime ending stops it too.
 */
export abstract class Delivery implements EventSubscription {
  abstract readonly mode: DeliveryMode;
  readonly type: EventType;
  cursor: string | null;
  protected readonly feed: Feed;
  protected readonly context: ExtensionContext;
  protected readonly limits: EventsLimits;
  protected readonly args: JsonObject;
  protected stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The end of a rate window in which events were dropped: its gap is marked then (Feed.flushFlood). */
  private floodTimer: ReturnType<typeof setTimeout> | undefined;
  protected inFlight: AbortController | undefined;
  private failures = 0;
  private resolveEnded!: () => void;
  readonly ended = new Promise<void>((resolve) => (this.resolveEnded = resolve));
  private stopping: Promise<void> | undefined;
  private readonly onLifetimeEnd = () => void this.stop();

  constructor(protected readonly parts: DeliveryParts) {
    this.type = parts.type;
    this.context = parts.context;
    this.limits = parts.limits;
    this.args = parts.request.arguments ?? {};
    this.cursor = parts.request.cursor ?? null;
    this.feed = new Feed(parts.type, parts.limits, parts.validator, parts.listener, parts.now, (ms) => {
      if (this.stopped || this.floodTimer !== undefined) return;
      this.floodTimer = setTimeout(() => {
        this.floodTimer = undefined;
        if (!this.stopped) this.feed.flushFlood();
      }, ms);
    });
    parts.context.lifetime.addEventListener('abort', this.onLifetimeEnd, { once: true });
  }

  get stats(): SubscriptionStats {
    return { ...this.feed.stats };
  }

  recent(): FeedItem[] {
    return this.feed.recent();
  }

  /** The fields every mode's request carries: name, arguments, cursor (null = from now), maxAgeMs. */
  protected subscriptionParams(): JsonObject & { name: string } {
    const params: JsonObject & { name: string } = { name: this.type.name, arguments: this.args, cursor: this.cursor };
    if (this.parts.request.maxAgeMs !== undefined && this.cursor !== null)
      params.maxAgeMs = this.parts.request.maxAgeMs;
    return params;
  }

  protected schedule(ms: number, run: () => void): void {
    this.clearTimer();
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) run();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A fresh signal for the next request (the previous one is aborted). */
  protected nextSignal(): AbortSignal {
    this.inFlight?.abort();
    this.inFlight = new AbortController();
    return this.inFlight.signal;
  }

  protected succeeded(): void {
    this.failures = 0;
  }

  /**
   * A request failed: a terminal error (the server will not serve this subscription) ends it; anything else is
   * reported and retried after the backoff. Answers whether it ended.
   */
  protected failed(error: unknown, retry: () => void): boolean {
    if (this.stopped) return true;
    if (error instanceof McpError && TERMINAL_ERROR_CODES.has(error.code)) {
      this.terminate(error.message);
      return true;
    }
    this.failures++;
    const backoff = Math.min(this.limits.maxBackoffMs, this.limits.pollFloorMs * 2 ** Math.min(this.failures - 1, 16));
    this.feed.status('error', `${errorMessage(error)}; retrying in ${backoff} ms`);
    this.schedule(backoff, retry);
    return false;
  }

  /** The server ended the subscription: nothing is sent any more. */
  protected terminate(message: string): void {
    if (this.stopped) return;
    this.feed.status('terminated', message);
    void this.finish(false);
  }

  stop(): Promise<void> {
    return this.finish(true);
  }

  dispose(): void {
    void this.stop();
  }

  private finish(byClient: boolean): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopped = true;
    this.clearTimer();
    if (this.floodTimer !== undefined) clearTimeout(this.floodTimer);
    this.floodTimer = undefined;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.parts.context.lifetime.removeEventListener('abort', this.onLifetimeEnd);
    this.stopping = this.release(byClient)
      .catch(() => undefined)
      .then(() => {
        this.feed.flushFlood();
        if (byClient) this.feed.status('stopped');
        this.resolveEnded();
      });
    return this.stopping;
  }

  /** What a mode releases beyond the timer and the request in flight (webhook: unsubscribe, close the listener). */
  protected release(_byClient: boolean): Promise<void> {
    return Promise.resolve();
  }
}
