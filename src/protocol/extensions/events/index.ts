/**
 * Events (SEP-3415, `io.modelcontextprotocol/events`, 2026-07-28 only): the host-neutral API the CLI uses and an
 * extension UI (an Events group, a Subscribe… form, a live feed) can use as is.
 *
 * Enable:   `new McpClient({ …, extensions: [enableEvents({ webhookEndpoint })] })`. Without `webhookEndpoint`
 *           (Node: `openWebhookListener` from src/protocol/node/webhookListener.ts, a loopback listener) webhook mode
 *           is not offered. `limits` lowers or raises any bound of DEFAULT_EVENTS_LIMITS.
 * Reach:    `const events = client.extension(eventsExtension)` (undefined when not enabled), after connect.
 * Offered?  `events.supported`: the server declared the extension in a 2026-07-28 session. Nothing is sent otherwise.
 * List:     `await events.list()` → `{ types: EventType[], invalid }`: every page, each entry checked (name,
 *           description, delivery modes this client knows, inputSchema, payloadSchema). `events.modes` are the modes
 *           this host can use; a type is subscribable by `type.delivery ∩ events.modes`.
 * Changes:  `events.onListChanged(() => …)` → Disposable; while heard, `eventsListChanged` is asked for on the
 *           subscriptions/listen stream. List again when it fires (coalesce: it can come in floods).
 * Subscribe:`events.subscribe(type, 'poll' | 'push' | 'webhook', { arguments, cursor, maxAgeMs }, (item) => …)` →
 *           EventSubscription: `cursor` (keep it to resume later), `stats` (delivered, duplicates dropped, gaps,
 *           refused, flood-dropped), `recent()` (the last items, for a feed opened later), `stop()` (cancels the
 *           request in flight, unsubscribes a webhook, clears every timer, closes the listener; settles when done),
 *           `ended` (settles on stop or on the server's termination), and it is a Disposable.
 * Feed:     FeedItem: `event` (eventId, name, timestamp, data, cursor, `payload`: the verdict of our validator
 *           against the payloadSchema), `gap` (`truncated` by the server, or `flood`: dropped past
 *           maxEventsPerSecond, with the count), `status` (active, reconnecting, refreshed, error, terminated,
 *           stopped, with a message), `refused` (an occurrence that was malformed or too large). Every string in an
 *           item but `kind`, `reason` and `status` is the server's: untrusted, to be shown escaped.
 * Stop all: `events.stopAll()`; closing the client stops every subscription too.
 */
export { eventsExtension, enableEvents } from './eventsExtension';
export { EventsApi, readEventType, type EventsServices, type EventTypeListing } from './eventsApi';
export type { EventSubscription, SubscribeRequest } from './subscription';
export {
  isLoopbackCallback,
  newWebhookSecret,
  type WebhookEndpoint,
  type WebhookEndpointFactory,
} from './webhookDelivery';
export {
  DEFAULT_EVENTS_LIMITS,
  DELIVERY_MODES,
  EVENTS_API,
  EVENTS_EXTENSION_ID,
  type DeliveryMode,
  type EventsLimits,
  type EventType,
  type FeedItem,
  type SubscriptionStats,
} from './eventTypes';
