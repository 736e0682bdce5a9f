import type { McpClient } from '../../protocol/client';
import { LocalError } from '../../protocol/errors';
import { EVENTS_API } from '../../protocol/extensions/events/eventTypes';
import { EVENTS_STEP_METHOD, recordedEventOf, type EventsStepParams, type RecordedEvent } from './eventsStepParams';

/**
 * Runs an `events/subscribe` step (the step's format: eventsStepParams.ts). Loaded by stepMethods.ts when such a step
 * runs, so reading recordings (Test Explorer at start-up) does not load the Events client.
 */

/**
 * Subscribes as the step says and resolves with its answer's result once the bound is reached (or the server ended
 * the subscription, or `signal` aborted); the subscription is stopped in every case before it resolves. Throws a
 * LocalError when the server does not offer events or this type in this mode (the replay records it as an error).
 */
export async function performEventsStep(
  client: McpClient,
  params: EventsStepParams,
  signal?: AbortSignal,
): Promise<{ events: RecordedEvent[]; terminated?: true }> {
  const events = client.extension(EVENTS_API);
  if (!events?.supported)
    throw new LocalError('capability-missing', `${client.serverName} does not offer events (${EVENTS_STEP_METHOD})`);
  const listing = await events.list(signal ? { signal } : {});
  const type = listing.types.find((candidate) => candidate.name === params.name);
  if (!type) throw new LocalError('invalid-argument', `${client.serverName} offers no event type ${params.name}`);
  const received: RecordedEvent[] = [];
  let eventCount = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const count = params.until.count;
  const subscription = events.subscribe(
    type,
    params.mode,
    { arguments: params.arguments, cursor: params.cursor },
    (item) => {
      // Past the bound nothing more is kept: what comes while the subscription stops is not the step's.
      if (count !== undefined && eventCount >= count) return;
      const kept = recordedEventOf(item);
      if (!kept) return;
      received.push(kept);
      if ('name' in kept) eventCount++;
      if (count !== undefined && eventCount >= count) done();
    },
  );
  let stoppedByUs = false;
  let terminated = false;
  void subscription.ended.then(() => {
    if (!stoppedByUs) terminated = true;
    done();
  });
  const timer = params.until.withinMs === undefined ? undefined : setTimeout(() => done(), params.until.withinMs);
  const onAbort = () => done();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    stoppedByUs = !terminated;
    await subscription.stop();
  }
  return { events: received, ...(terminated ? { terminated: true as const } : {}) };
}
