import { isObject } from '../../protocol/guards';
import { DELIVERY_MODES, type DeliveryMode, type FeedItem } from '../../protocol/extensions/events/eventTypes';
import type { JsonObject } from '../../protocol/types';

/**
 * The `events/subscribe` step of a recording (Events, SEP-3415): subscribe to one event type (its name, a delivery
 * mode, its arguments, optionally a cursor to resume from), take the events that come until a bound (`until.count`
 * events, or `until.withinMs` milliseconds, whichever comes first), then stop the subscription. The answer is
 * `{"result": {"events": [{"name", "data"}, …]}}`: each event's name and payload, in arrival order, compared with the
 * recording's rules like any answer (`$.result.events[*].data.at` ignored, matched…). Only what a server means is
 * kept: an eventId, a timestamp or a cursor is new at every run; a gap the server declares (`truncated`) is an entry
 * `{"gap": "truncated"}`; a flood gap is this client's own doing and is left out. This module is what reading a file
 * needs; running the step (eventsStep.ts, with the Events client) loads when a step runs.
 */

export const EVENTS_STEP_METHOD = 'events/subscribe';

/** A step waits at most this long, whatever the file says: a recording may come from anywhere. */
export const MAX_EVENTS_STEP_MS = 10 * 60 * 1000;
/** And takes at most this many events. */
export const MAX_EVENTS_STEP_COUNT = 10_000;

export interface EventsStepParams {
  name: string;
  mode: DeliveryMode;
  arguments: JsonObject;
  /** Where to resume; null (or absent) is "from now". */
  cursor: string | null;
  until: { count?: number; withinMs?: number };
}

export type RecordedEvent = { name: string; data: unknown } | { gap: 'truncated' };

const PARAM_KEYS: readonly string[] = ['name', 'mode', 'arguments', 'cursor', 'until'];

/** The step's params checked, or what is wrong with them (a file edited by hand). */
export function checkEventsParams(params: Record<string, unknown>): EventsStepParams | { problem: string } {
  const { name, mode, cursor, until } = params;
  const args = params.arguments ?? {};
  if (typeof name !== 'string' || name === '') return { problem: 'needs params.name, the event type, as a string' };
  if (!(DELIVERY_MODES as readonly unknown[]).includes(mode))
    return { problem: `needs params.mode, one of ${DELIVERY_MODES.join(', ')}` };
  if (!isObject(args)) return { problem: 'needs params.arguments as an object' };
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string')
    return { problem: 'needs params.cursor as a string or null' };
  if (!isObject(until)) return { problem: 'needs params.until with count and/or withinMs (when the step ends)' };
  const { count, withinMs } = until as { count?: unknown; withinMs?: unknown };
  const unknown = [
    ...Object.keys(params).filter((key) => !PARAM_KEYS.includes(key)),
    ...Object.keys(until)
      .filter((key) => key !== 'count' && key !== 'withinMs')
      .map((key) => `until.${key}`),
  ];
  if (unknown.length > 0) return { problem: `has unknown params ${unknown.join(', ')}` };
  const within = (value: unknown, max: number) =>
    value === undefined || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= max);
  if (!within(count, MAX_EVENTS_STEP_COUNT))
    return { problem: `needs params.until.count as a whole number from 1 to ${MAX_EVENTS_STEP_COUNT}` };
  if (!within(withinMs, MAX_EVENTS_STEP_MS))
    return { problem: `needs params.until.withinMs as a whole number from 1 to ${MAX_EVENTS_STEP_MS}` };
  if (count === undefined && withinMs === undefined)
    return { problem: 'needs params.until.count or params.until.withinMs: a step that never ends is not a test' };
  return {
    name,
    mode: mode as DeliveryMode,
    arguments: args as JsonObject,
    cursor: typeof cursor === 'string' ? cursor : null,
    until: {
      ...(count === undefined ? {} : { count: count as number }),
      ...(withinMs === undefined ? {} : { withinMs: withinMs as number }),
    },
  };
}

/** A feed item as the recording keeps it (undefined: not kept). */
export function recordedEventOf(item: FeedItem): RecordedEvent | undefined {
  switch (item.kind) {
    case 'event':
      return { name: item.name, data: item.data };
    case 'gap':
      return item.reason === 'truncated' ? { gap: 'truncated' } : undefined;
    case 'status':
    case 'refused':
      return undefined;
    default: {
      const exhaustive: never = item;
      return exhaustive;
    }
  }
}
