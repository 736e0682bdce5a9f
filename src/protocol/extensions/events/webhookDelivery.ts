import { errorMessage } from '../../errors';
import { isObject } from '../../guards';
import type { JsonObject } from '../../types';
import { cursorOf } from './eventTypes';
import { errorText } from './pushDelivery';
import { Delivery, type DeliveryParts } from './subscription';

/**
 * The receiving end of webhook deliveries, which the host runs (the Node listener is src/protocol/node/
 * webhookListener.ts): it verifies each POST's Standard Webhooks signature with `secret`, answers the verification
 * challenge itself, and hands every other verified body to `onBody`.
 */
export interface WebhookEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

export type WebhookEndpointFactory = (options: {
  secret: string;
  onBody: (body: JsonObject) => void;
}) => Promise<WebhookEndpoint>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Only a callback on this machine is ever offered to a server: a loopback http(s) URL. */
export function isLoopbackCallback(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** A Standard Webhooks secret from the platform's CSPRNG: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * Webhook mode: a loopback endpoint of this client's, registered with `events/subscribe` (a fresh secret per
 * subscription) and refreshed before the granted `refreshBefore` with the same key (url, name, arguments) and the
 * last cursor; `refreshBefore: null` (no expiry, granted only when asked) is never refreshed. Stop unsubscribes and
 * closes the endpoint.
 */
export class WebhookDelivery extends Delivery {
  readonly mode = 'webhook' as const;
  private endpoint: Promise<WebhookEndpoint | undefined> | undefined;
  private url: string | undefined;
  private subscribed = false;
  private readonly secret = newWebhookSecret();

  constructor(
    parts: DeliveryParts,
    private readonly openEndpoint: WebhookEndpointFactory,
  ) {
    super(parts);
  }

  start(): this {
    this.endpoint = this.openEndpoint({ secret: this.secret, onBody: (body) => this.body(body) }).then(
      (endpoint) => {
        if (!isLoopbackCallback(endpoint.url)) {
          this.terminate('the webhook endpoint is not on this machine (loopback), so it is not offered to the server');
          return endpoint;
        }
        this.url = endpoint.url;
        this.subscribe();
        return endpoint;
      },
      (error: unknown) => {
        this.terminate(`the webhook endpoint could not be opened: ${errorMessage(error)}`);
        return undefined;
      },
    );
    return this;
  }

  private subscribe(): void {
    const url = this.url;
    if (this.stopped || url === undefined) return;
    const params = {
      ...this.subscriptionParams(),
      delivery: { mode: 'webhook', url, secret: this.secret },
      ttlMs: this.limits.webhookTtlMs,
    };
    this.context.request('events/subscribe', params, { signal: this.nextSignal(), refresh: true }).then(
      (result) => this.granted(result),
      (error: unknown) => void this.failed(error, () => this.subscribe()),
    );
  }

  private granted(result: JsonObject): void {
    if (this.stopped) return;
    this.succeeded();
    const first = !this.subscribed;
    this.subscribed = true;
    this.cursor = cursorOf(result.cursor);
    if (result.truncated === true) this.feed.gap(this.cursor);
    this.feed.status(first ? 'active' : 'refreshed');
    const status = result.deliveryStatus;
    if (isObject(status) && status.active === false)
      this.feed.status('error', `the server had suspended delivery (${String(status.lastError).slice(0, 40)})`);
    const { refreshBefore } = result;
    if (refreshBefore === null) return; // no expiry: nothing to refresh
    const expires = typeof refreshBefore === 'string' ? Date.parse(refreshBefore) : Number.NaN;
    const remaining = Number.isFinite(expires) ? expires - this.parts.now() : this.limits.webhookTtlMs;
    if (!Number.isFinite(expires)) this.feed.status('error', 'the grant has no readable refreshBefore');
    // Well before the end: half the grant, or a minute before it for long grants; never a refresh storm.
    const delay = remaining > 120_000 ? remaining - 60_000 : remaining / 2;
    this.schedule(Math.max(this.limits.minRefreshMs, delay), () => this.subscribe());
  }

  /** A verified body from the endpoint: an event occurrence, or a control envelope (`type`). */
  private body(body: JsonObject): void {
    if (this.stopped) return;
    switch (body.type) {
      case undefined:
        // The body's cursor is a safe-to-persist watermark, whatever order deliveries arrive in: keep the latest.
        this.cursor = this.feed.occurrence(body);
        return;
      case 'gap':
        this.cursor = cursorOf(body.cursor);
        this.feed.gap(this.cursor);
        return;
      case 'terminated':
        // The server no longer has it: ending here sends no events/unsubscribe (only a stop by the client does).
        this.terminate(errorText(body.error));
        return;
      default:
        return; // `verification` is answered by the endpoint; other types are not this revision's
    }
  }

  protected override async release(byClient: boolean): Promise<void> {
    const endpoint = await this.endpoint;
    try {
      if (byClient && this.subscribed && this.url !== undefined)
        await this.context.request(
          'events/unsubscribe',
          { name: this.type.name, arguments: this.args, delivery: { url: this.url } },
          { timeoutMs: 5_000 },
        );
    } finally {
      await endpoint?.close();
    }
  }
}
