import { enableExtension, type EnabledExtension, type ExtensionDefinition } from '../protocolExtension';
import { EventsApi, type EventsServices } from './eventsApi';
import { EVENT_METHODS, EVENTS_EXTENSION_ID } from './eventTypes';

/**
 * io.modelcontextprotocol/events (SEP-3415) on the extension seam: declared as `{}` in each 2026-07-28 request's
 * client capabilities, adds the events/* methods, and hands hosts an EventsApi. Nothing is sent until the host asks,
 * and nothing at all to a server that did not declare the extension.
 */
export const eventsExtension: ExtensionDefinition<EventsServices, EventsApi> = {
  id: EVENTS_EXTENSION_ID,
  settings: () => ({}),
  methods: EVENT_METHODS,
  activate: (context, services) => new EventsApi(context, services),
};

/** The events extension, enabled (for McpClientOptions.extensions); webhook mode needs `webhookEndpoint`. */
export function enableEvents(services: EventsServices = {}): EnabledExtension {
  return enableExtension(eventsExtension, services);
}
