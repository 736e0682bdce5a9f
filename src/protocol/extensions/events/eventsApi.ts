import { Emitter, type Disposable } from '../../disposable';
import { LocalError } from '../../errors';
import { isObject } from '../../guards';
import type { RequestId } from '../../jsonrpc/messages';
import type { JsonObject } from '../../types';
import { SchemaValidator } from '../../validation/schemaValidation';
import type { ExtensionContext } from '../protocolExtension';
import {
  DEFAULT_EVENTS_LIMITS,
  DELIVERY_MODES,
  EVENT_NOTIFICATIONS,
  EVENTS_EXTENSION_ID,
  LIST_CHANGED_FILTER_FIELD,
  SUBSCRIPTION_ID_META,
  type DeliveryMode,
  type EventsLimits,
  type EventType,
  type FeedItem,
} from './eventTypes';
import { PollDelivery } from './pollDelivery';
import { PushDelivery, type StreamRouter } from './pushDelivery';
import type { DeliveryParts, EventSubscription, SubscribeRequest } from './subscription';
import { WebhookDelivery, type WebhookEndpointFactory } from './webhookDelivery';

export interface EventsServices {
  /** Opens a loopback endpoint for webhook delivery; without it webhook mode is not offered. */
  webhookEndpoint?: WebhookEndpointFactory;
  limits?: Partial<EventsLimits>;
  now?: () => number;
}

export interface EventTypeListing {
  types: EventType[];
  /** Entries this client refused, and why (`index` counts across pages). */
  invalid: { index: number; name?: string; reason: string }[];
}

/** What hosts reach through `client.extension(eventsExtension)` (see index.ts for the whole contract). */
export class EventsApi implements Disposable {
  private readonly limits: EventsLimits;
  private readonly validator = new SchemaValidator();
  private readonly streams = new Map<RequestId, PushDelivery>();
  private readonly subscriptions = new Set<EventSubscription>();
  private readonly listChanged = new Emitter<void>();
  private readonly now: () => number;

  constructor(
    private readonly context: ExtensionContext,
    private readonly services: EventsServices = {},
  ) {
    this.limits = { ...DEFAULT_EVENTS_LIMITS, ...services.limits };
    this.now = services.now ?? Date.now;
    for (const method of Object.values(EVENT_NOTIFICATIONS)) {
      if (method === EVENT_NOTIFICATIONS.listChanged) continue;
      context.onServerNotification(method, (params) => this.routeFrame(method, params));
    }
    // Heard wherever it comes: on the subscriptions/listen stream it was asked for, or (as the conformance suite
    // sends it) on another request's response stream. A flood is bounded by the listeners' own coalescing.
    context.onServerNotification(EVENT_NOTIFICATIONS.listChanged, () => {
      if (this.supported) this.listChanged.fire();
    });
  }

  private settings(): JsonObject | undefined {
    const session = this.context.session();
    // The extension is defined for 2026-07-28 only (it needs per-request capabilities and subscriptions/listen).
    if (session.kind !== 'modern') return undefined;
    const extensions = session.capabilities.extensions as Record<string, unknown> | undefined;
    const value = extensions?.[EVENTS_EXTENSION_ID];
    return isObject(value) ? value : undefined;
  }

  /**
   * The server declared the extension in a 2026-07-28 session (throws when not connected). No events/* request is
   * sent otherwise.
   */
  get supported(): boolean {
    return this.settings() !== undefined;
  }

  /** The modes this client can use here (webhook only with an endpoint factory). */
  get modes(): readonly DeliveryMode[] {
    return DELIVERY_MODES.filter((mode) => mode !== 'webhook' || this.services.webhookEndpoint !== undefined);
  }

  private requireSupport(what: string): void {
    if (!this.supported)
      throw new LocalError(
        'capability-missing',
        `${this.context.serverName} does not offer the ${EVENTS_EXTENSION_ID} extension, so this client does not ${what}`,
      );
  }

  /**
   * Fires on notifications/events/list_changed. While anyone listens, `eventsListChanged` is asked for on the
   * 2026-07-28 subscriptions/listen stream (when the server declared `listChanged: true`).
   */
  onListChanged(listener: () => void): Disposable {
    const subscription = this.listChanged.event(listener);
    this.updateListenFilter();
    return {
      dispose: () => {
        subscription.dispose();
        this.updateListenFilter();
      },
    };
  }

  private updateListenFilter(): void {
    const wanted = this.listChanged.listenerCount > 0 && this.supported && this.settings()?.listChanged === true;
    this.context.listenFor({ [LIST_CHANGED_FILTER_FIELD]: wanted ? true : undefined });
  }

  /** Every page of events/list, each entry checked; bounded in pages and entries. */
  async list(options: { signal?: AbortSignal } = {}): Promise<EventTypeListing> {
    this.requireSupport('list events');
    const listing: EventTypeListing = { types: [], invalid: [] };
    const cursors = new Set<string>();
    const names = new Set<string>();
    let cursor: string | undefined;
    let index = 0;
    for (let page = 0; page < this.limits.maxListPages; page++) {
      const result = await this.context.request('events/list', cursor === undefined ? undefined : { cursor }, {
        signal: options.signal,
        refresh: true,
      });
      if (!Array.isArray(result.events))
        throw new LocalError(
          'protocol-violation',
          `${this.context.serverName}: events/list result has no events array`,
        );
      for (const raw of result.events) {
        if (listing.types.length >= this.limits.maxEventTypes) {
          listing.invalid.push({ index, reason: `past the limit of ${this.limits.maxEventTypes} event types` });
        } else {
          const read = readEventType(raw);
          if (typeof read === 'string') listing.invalid.push({ index, ...nameOf(raw), reason: read });
          else if (names.has(read.name))
            listing.invalid.push({ index, name: read.name, reason: 'another entry has the same name' });
          else {
            names.add(read.name);
            listing.types.push(read);
          }
        }
        index++;
      }
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') return listing;
      if (cursors.has(next))
        throw new LocalError('protocol-violation', `${this.context.serverName}: events/list repeated a cursor`);
      cursors.add(next);
      cursor = next;
    }
    throw new LocalError(
      'protocol-violation',
      `${this.context.serverName}: events/list returned more than ${this.limits.maxListPages} pages`,
    );
  }

  /** Starts a subscription to `type` by `mode`; `listener` hears its feed until it ends. */
  subscribe(
    type: EventType,
    mode: DeliveryMode,
    request: SubscribeRequest,
    listener: (item: FeedItem) => void,
  ): EventSubscription {
    this.requireSupport('subscribe to events');
    if (!type.delivery.includes(mode))
      throw new LocalError('invalid-argument', `${type.name.slice(0, 100)} is not delivered by ${mode}`);
    const parts: DeliveryParts = {
      context: this.context,
      type,
      request,
      limits: this.limits,
      validator: this.validator,
      listener,
      now: this.now,
    };
    const subscription = this.start(parts, mode);
    this.subscriptions.add(subscription);
    void subscription.ended.then(() => this.subscriptions.delete(subscription));
    return subscription;
  }

  private start(parts: DeliveryParts, mode: DeliveryMode): EventSubscription {
    switch (mode) {
      case 'poll':
        return new PollDelivery(parts).start();
      case 'push':
        return new PushDelivery(parts, this.router).start();
      case 'webhook': {
        const endpoint = this.services.webhookEndpoint;
        if (!endpoint) throw new LocalError('invalid-argument', 'this host runs no webhook endpoint');
        return new WebhookDelivery(parts, endpoint).start();
      }
      default: {
        const unreachable: never = mode;
        throw new LocalError('invalid-argument', `unknown delivery mode ${String(unreachable)}`);
      }
    }
  }

  /** The subscriptions still running. */
  active(): EventSubscription[] {
    return [...this.subscriptions];
  }

  /** Stops every subscription (each unsubscribes and releases what it holds). */
  async stopAll(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
  }

  dispose(): void {
    void this.stopAll();
    this.listChanged.dispose();
  }

  private readonly router: StreamRouter = {
    route: (id, delivery) => void this.streams.set(id, delivery),
    unroute: (id) => void this.streams.delete(id),
  };

  private routeFrame(method: string, params: JsonObject): void {
    const meta = params._meta;
    const id = isObject(meta) ? meta[SUBSCRIPTION_ID_META] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    // A notification naming a stream we no longer hold (cancelled, reconnected) is dropped.
    this.streams.get(id)?.frame(method, params);
  }
}

function nameOf(raw: unknown): { name?: string } {
  return isObject(raw) && typeof raw.name === 'string' ? { name: raw.name.slice(0, 200) } : {};
}

/** One events/list entry, or why it was refused. */
export function readEventType(raw: unknown): EventType | string {
  if (!isObject(raw)) return 'not an object';
  const { name, description, delivery, inputSchema, payloadSchema, _meta } = raw;
  if (typeof name !== 'string' || name === '' || name.length > 200) return 'no name (a string of 1 to 200 characters)';
  if (!Array.isArray(delivery) || delivery.length === 0) return 'no delivery modes';
  const modes = DELIVERY_MODES.filter((mode) => delivery.includes(mode));
  if (modes.length === 0) return 'none of its delivery modes is poll, push or webhook';
  if (inputSchema !== undefined && !isObject(inputSchema)) return 'its inputSchema is not an object';
  if (payloadSchema !== undefined && !isObject(payloadSchema)) return 'its payloadSchema is not an object';
  return {
    name,
    ...(typeof description === 'string' ? { description: description.slice(0, 2_000) } : {}),
    delivery: modes,
    ...(isObject(inputSchema) ? { inputSchema: inputSchema as JsonObject } : {}),
    ...(isObject(payloadSchema) ? { payloadSchema: payloadSchema as JsonObject } : {}),
    ...(isObject(_meta) ? { _meta: _meta as JsonObject } : {}),
  };
}
