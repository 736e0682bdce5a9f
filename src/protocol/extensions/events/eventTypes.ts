import type { JsonObject } from '../../types';
import type { ValidationVerdict } from '../../validation/schemaValidation';
import type { ExtensionKey } from '../protocolExtension';
import type { EventsApi } from './eventsApi';

/**
 * The vocabulary of io.modelcontextprotocol/events (SEP-3415, draft of 2026-10-05; the conformance repository's
 * `src/scenarios/client/events/` are the acceptance reference): method and notification names, what a server's
 * answers are read into, what a subscription hands its listener, and the limits that bound all of it.
 */

export const EVENTS_EXTENSION_ID = 'io.modelcontextprotocol/events';
/** The events extension's API by its id: `client.extension(EVENTS_API)` without loading the extension's code. */
export const EVENTS_API: ExtensionKey<EventsApi> = { id: EVENTS_EXTENSION_ID };

export const EVENT_NOTIFICATIONS = {
  listChanged: 'notifications/events/list_changed',
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
} as const;

/** The `_meta` key every push notification carries: the JSON-RPC id of its `events/stream` request. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/** The `subscriptions/listen` filter field this extension adds. */
export const LIST_CHANGED_FILTER_FIELD = 'eventsListChanged';

declare module '../../methods' {
  interface ExtensionClientRequests {
    'events/list': { params: { cursor?: string } | undefined; result: JsonObject };
    'events/poll': { params: JsonObject & { name: string }; result: JsonObject };
    'events/stream': { params: JsonObject & { name: string }; result: JsonObject };
    'events/subscribe': { params: JsonObject & { name: string }; result: JsonObject };
    'events/unsubscribe': { params: JsonObject & { name: string }; result: JsonObject };
  }
}

export const EVENT_METHODS = [
  'events/list',
  'events/poll',
  'events/stream',
  'events/subscribe',
  'events/unsubscribe',
] as const;

export type DeliveryMode = 'poll' | 'push' | 'webhook';
export const DELIVERY_MODES: readonly DeliveryMode[] = ['poll', 'push', 'webhook'];

/** One entry of `events/list`, checked. Its text fields are the server's: untrusted, shown only escaped. */
export interface EventType {
  name: string;
  description?: string;
  /** The modes this client can use, in the server's order (unknown modes are left out). */
  delivery: DeliveryMode[];
  inputSchema?: JsonObject;
  payloadSchema?: JsonObject;
  _meta?: JsonObject;
}

export type SubscriptionStatus = 'active' | 'reconnecting' | 'refreshed' | 'error' | 'terminated' | 'stopped';

/**
 * What a subscription hands its listener, in arrival order. `receivedAt` is this client's clock (ms); everything
 * else but `payload` and `dropped` is the server's, untrusted.
 */
export type FeedItem =
  | {
      kind: 'event';
      receivedAt: number;
      eventId: string;
      name: string;
      timestamp: string;
      data: JsonObject;
      cursor: string | null;
      /** `data` against the event type's payloadSchema (our validator; `unchecked` when it declares none). */
      payload: ValidationVerdict;
    }
  | {
      kind: 'gap';
      receivedAt: number;
      /** `truncated`: the server skipped events (its word); `flood`: this client dropped events past its rate bound. */
      reason: 'truncated' | 'flood';
      cursor?: string | null;
      dropped?: number;
    }
  | { kind: 'status'; receivedAt: number; status: SubscriptionStatus; message?: string }
  | { kind: 'refused'; receivedAt: number; reason: string; eventId?: string };

export interface SubscriptionStats {
  delivered: number;
  /** Occurrences whose eventId was already delivered: dropped. */
  duplicates: number;
  gaps: number;
  refused: number;
  /** Occurrences dropped past maxEventsPerSecond. */
  floodDropped: number;
}

/** Every bound of the extension; hosts may lower or raise them (tests use small ones). */
export interface EventsLimits {
  /** Floor under a server's `nextPollMs` (the SEP's default, 1000 ms). */
  pollFloorMs: number;
  /** The wait when a poll answer names no usable `nextPollMs`. */
  defaultPollMs: number;
  /** `hasMore: true` drains at once this many times in a row; then the floor applies again. */
  maxImmediateDrains: number;
  /** `maxEvents` sent with each poll, and the most events one poll answer may carry. */
  maxEventsPerPoll: number;
  /** A payload (`data`) whose JSON is longer than this many UTF-16 units is refused (the SEP's 256 KiB profile). */
  maxPayloadChars: number;
  /** eventIds remembered for deduplication (oldest forgotten first). */
  dedupeMemory: number;
  /** Items kept for `recent()` (a feed view reads them). */
  feedLength: number;
  /** Occurrences delivered per second and subscription; the rest are dropped, counted and marked as a gap. */
  maxEventsPerSecond: number;
  /** Event types read from events/list, and its pages. */
  maxEventTypes: number;
  maxListPages: number;
  /** Push: silence after which a stream is dead before two frames have shown the server's heartbeat interval. */
  streamSilenceMs: number;
  /** Push: a stream is dead after this many observed heartbeat intervals of silence (the SEP: twice). */
  heartbeatMisses: number;
  /** Push: never call a stream dead sooner than this. */
  minStreamSilenceMs: number;
  /** Retries (a failed poll, a dropped stream, a failed refresh) back off from the floor up to this. */
  maxBackoffMs: number;
  /** Webhook: the lifetime suggested to the server (`ttlMs`). */
  webhookTtlMs: number;
  /** Webhook: never refresh sooner than this after a grant (a server granting 0 s cannot cause a refresh storm). */
  minRefreshMs: number;
}

export const DEFAULT_EVENTS_LIMITS: EventsLimits = {
  pollFloorMs: 1_000,
  defaultPollMs: 5_000,
  maxImmediateDrains: 10,
  maxEventsPerPoll: 100,
  maxPayloadChars: 256 * 1024,
  dedupeMemory: 10_000,
  feedLength: 500,
  maxEventsPerSecond: 100,
  maxEventTypes: 1_000,
  maxListPages: 100,
  streamSilenceMs: 60_000,
  heartbeatMisses: 2,
  minStreamSilenceMs: 1_000,
  maxBackoffMs: 30_000,
  webhookTtlMs: 10 * 60_000,
  minRefreshMs: 250,
};

/**
 * JSON-RPC errors after which retrying the same subscription cannot help: method not found, invalid params, and the
 * SEP's NotFound, Forbidden and Unsupported, under both the SEP's provisional codes (-32023, -32024, -32026) and the
 * conformance suite's (-32011, -32012, -32014), which still differ.
 */
export const TERMINAL_ERROR_CODES: ReadonlySet<number> = new Set([
  -32601, -32602, -32023, -32024, -32026, -32011, -32012, -32014,
]);

/** `cursor` as the SEP reads it: a string, or null for absent, null and anything else. */
export function cursorOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
