import type { RequestId } from '../../jsonrpc/messages';
import type { JsonObject } from '../../types';
import { cursorOf, EVENT_NOTIFICATIONS } from './eventTypes';
import { Delivery, type DeliveryParts } from './subscription';

/** `events/stream` is held open for as long as the subscription runs: liveness is the heartbeat, not a deadline. */
const FOREVER_MS = 2 ** 31 - 1;

/** Where the events API routes each push notification: by the `events/stream` request id it names. */
export interface StreamRouter {
  route(id: RequestId, delivery: PushDelivery): void;
  unroute(id: RequestId): void;
}

/**
 * Push mode: one `events/stream` request per subscription; its notifications arrive on the request's response
 * stream (HTTP) or on stdout (stdio) and are routed here by `_meta.subscriptionId`. A stream silent for
 * `heartbeatMisses` heartbeat intervals (as observed: the server does not announce it) is dead: it is cancelled and
 * opened again from the last cursor (a null cursor is sent as null). A stream the server ends or that fails is opened
 * again after the floor, backing off.
 */
export class PushDelivery extends Delivery {
  readonly mode = 'push' as const;
  private streamId: RequestId | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;
  private lastBeatAt: number | undefined;
  private heartbeatMs: number | undefined;

  constructor(
    parts: DeliveryParts,
    private readonly router: StreamRouter,
  ) {
    super(parts);
  }

  start(): this {
    this.open();
    return this;
  }

  private open(): void {
    if (this.stopped) return;
    const signal = this.nextSignal();
    this.lastBeatAt = undefined;
    this.heartbeatMs = undefined;
    this.context
      .request('events/stream', this.subscriptionParams(), {
        signal,
        refresh: true,
        timeoutMs: FOREVER_MS,
        maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
        onRequestId: (id) => {
          this.leaveRouter();
          this.streamId = id;
          this.router.route(id, this);
        },
      })
      .then(
        () => {
          if (this.stopped || signal.aborted) return;
          this.leaveRouter();
          this.feed.status('reconnecting', 'the server ended the stream');
          this.schedule(this.limits.pollFloorMs, () => this.open());
        },
        (error: unknown) => {
          if (this.stopped || signal.aborted) return;
          this.leaveRouter();
          this.failed(error, () => this.open());
        },
      );
    this.armWatchdog();
  }

  /** One notification of this subscription's stream. */
  frame(method: string, params: JsonObject): void {
    if (this.stopped) return;
    this.succeeded();
    const now = this.parts.now();
    switch (method) {
      case EVENT_NOTIFICATIONS.active:
        this.lastBeatAt = now;
        this.cursor = cursorOf(params.cursor);
        if (params.truncated === true) this.feed.gap(this.cursor);
        this.feed.status('active');
        break;
      case EVENT_NOTIFICATIONS.event:
        this.cursor = this.feed.occurrence(params);
        break;
      case EVENT_NOTIFICATIONS.heartbeat:
        if (this.lastBeatAt !== undefined) this.heartbeatMs = Math.max(this.heartbeatMs ?? 0, now - this.lastBeatAt);
        this.lastBeatAt = now;
        this.cursor = cursorOf(params.cursor);
        break;
      case EVENT_NOTIFICATIONS.error:
        this.feed.status('error', errorText(params.error));
        break;
      case EVENT_NOTIFICATIONS.terminated:
        this.terminate(errorText(params.error));
        return;
      default:
        return;
    }
    this.armWatchdog();
  }

  /** How long this stream may stay silent before it counts as dead. */
  private silenceLimit(): number {
    const { heartbeatMs } = this;
    if (heartbeatMs === undefined || heartbeatMs <= 0) return this.limits.streamSilenceMs;
    return Math.min(
      this.limits.streamSilenceMs,
      Math.max(this.limits.minStreamSilenceMs, heartbeatMs * this.limits.heartbeatMisses),
    );
  }

  private armWatchdog(): void {
    this.clearWatchdog();
    if (this.stopped) return;
    const limit = this.silenceLimit();
    this.watchdog = setTimeout(() => {
      this.watchdog = undefined;
      if (this.stopped) return;
      this.leaveRouter();
      this.feed.status('reconnecting', `no event or heartbeat for ${limit} ms`);
      this.open(); // aborts the silent request first (stdio: notifications/cancelled; HTTP: the stream is closed)
    }, limit);
  }

  private clearWatchdog(): void {
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    this.watchdog = undefined;
  }

  private leaveRouter(): void {
    if (this.streamId !== undefined) this.router.unroute(this.streamId);
    this.streamId = undefined;
  }

  protected override release(): Promise<void> {
    this.clearWatchdog();
    this.leaveRouter();
    return Promise.resolve();
  }
}

/** The `error` of an error or terminated notification, as one line of the server's (untrusted) text. */
export function errorText(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'the server sent no error object';
  const { code, message } = error as Record<string, unknown>;
  const text = typeof message === 'string' ? message.slice(0, 500) : 'no message';
  return typeof code === 'number' ? `${text} (code ${code})` : text;
}
