/**
 * The Events scenarios of the conformance repository (`src/scenarios/client/events/`: events-client-poll, -push,
 * -webhook, -no-extension; no released suite carries them yet), driven as a host uses events: connect, and only if
 * the server declares io.modelcontextprotocol/events list the event types and subscribe to each in the mode its
 * descriptor names; list again on notifications/events/list_changed; after the context's `durationMs` stop every
 * subscription (which cancels streams and unsubscribes webhooks) and exit.
 */
import type { McpClient } from '../protocol/client';
import { enableEvents, EVENTS_API, type EventsApi, type EventType } from '../protocol/extensions/events';
import { openWebhookListener } from '../protocol/node/webhookListener';
import type { ScenarioDriver } from './conformance';

const DEFAULT_DURATION_MS = 5_000;

function subscribeToEach(events: EventsApi, types: readonly EventType[], log: (line: string) => void): void {
  for (const type of types) {
    const mode = type.delivery.find((candidate) => events.modes.includes(candidate));
    if (!mode) {
      log(`${type.name}: no delivery mode this client runs`);
      continue;
    }
    events.subscribe(type, mode, {}, (item) => {
      if (item.kind !== 'event') log(`${type.name} (${mode}): ${JSON.stringify(item).slice(0, 300)}`);
    });
    log(`subscribed to ${type.name} by ${mode}`);
  }
}

const runEvents: ScenarioDriver = {
  era: '2026-07-28',
  extensions: () => [enableEvents({ webhookEndpoint: openWebhookListener })],
  run: async (client: McpClient, log, context) => {
    const events = client.extension(EVENTS_API);
    if (!events) throw new Error('the events extension was not enabled for this scenario');
    const durationMs = typeof context?.durationMs === 'number' ? context.durationMs : DEFAULT_DURATION_MS;
    if (!events.supported) {
      log('the server declares no io.modelcontextprotocol/events: no events/* request is sent');
      await new Promise((resolve) => setTimeout(resolve, Math.min(durationMs, 2_000)));
      return;
    }
    const listening = events.onListChanged(() => {
      log('notifications/events/list_changed: listing again');
      void events.list().then(
        (listing) => log(`events/list -> ${listing.types.map((type) => type.name).join(', ')}`),
        (error: unknown) => log(`events/list failed: ${String(error)}`),
      );
    });
    try {
      const listing = await events.list();
      log(`events/list -> ${listing.types.map((type) => `${type.name} [${type.delivery.join(',')}]`).join(', ')}`);
      subscribeToEach(events, listing.types, log);
      await new Promise((resolve) => setTimeout(resolve, durationMs));
    } finally {
      listening.dispose();
      await events.stopAll();
      for (const subscription of events.active()) log(`still running: ${subscription.type.name}`);
    }
  },
};

export const EVENT_SCENARIOS: Readonly<Record<string, ScenarioDriver>> = {
  'events-client-poll': runEvents,
  'events-client-push': runEvents,
  'events-client-webhook': runEvents,
  'events-client-no-extension': runEvents,
};
