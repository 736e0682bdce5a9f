import type { HistoryEntry } from '../history/historyLog';
import type { FeedItem } from '../../protocol/extensions/events';
import { MAX_EVENTS_STEP_COUNT, MAX_EVENTS_STEP_MS, recordedEventOf } from './eventsStepParams';
import type { RecordedStep } from './format';

/**
 * History entries as recorded steps (History → Save as Test…). Only what can be asked again and was answered in
 * full makes a step: a tool call, a resource read or a prompt get that succeeded (a tool error is an answer too)
 * with its whole result kept, or an Events subscription whose events History kept (an `events/subscribe` step that
 * waits for as many events, at most as long as the subscription ran). History has masked everything already.
 */
type HistoryStepChoice =
  { kind: 'step'; entry: HistoryEntry; step: RecordedStep } | { kind: 'unusable'; entry: HistoryEntry; reason: string };

export function historyStep(entry: HistoryEntry): HistoryStepChoice {
  const { operation, outcome, result } = entry;
  if (operation.kind === 'sampling' || operation.kind === 'elicitation')
    return { kind: 'unusable', entry, reason: 'it was the server asking, not a request to the server' };
  if (operation.kind === 'conversation')
    return { kind: 'unusable', entry, reason: 'it is a conversation with a model (Save as Eval in its panel)' };
  if (outcome.kind !== 'succeeded' && outcome.kind !== 'tool-error')
    return { kind: 'unusable', entry, reason: `it ended ${outcome.kind}, without the server's whole answer` };
  if (result.kind !== 'kept') return { kind: 'unusable', entry, reason: 'History did not keep its whole result' };
  switch (operation.kind) {
    case 'tool': {
      // History keeps the call's outcome (the result and our own check of it); the server's answer is the result.
      const outcomeValue = result.value as { result?: unknown } | undefined;
      return {
        kind: 'step',
        entry,
        step: {
          request: { method: 'tools/call', params: { name: operation.toolName, arguments: operation.arguments } },
          answer: { result: outcomeValue?.result ?? result.value },
        },
      };
    }
    case 'resource':
      return {
        kind: 'step',
        entry,
        step: {
          request: { method: 'resources/read', params: { uri: operation.uri } },
          answer: { result: result.value },
        },
      };
    case 'events':
      return eventsStep(entry, operation, result.value);
    case 'prompt':
      return {
        kind: 'step',
        entry,
        step: {
          request: { method: 'prompts/get', params: { name: operation.promptName, arguments: operation.arguments } },
          answer: { result: result.value },
        },
      };
    default: {
      const exhaustive: never = operation;
      return exhaustive;
    }
  }
}

/**
 * The chosen entries split at the latest start of the server that answered each: `earlier` were answered by a
 * process before it (an earlier build, when dev mode restarted the server after an edit), `since` by the one running
 * now. `latestStart` gives a server's latest start time (ms), undefined when it has not started in this window.
 */
export function splitAtLatestStart<T extends { entry: HistoryEntry }>(
  chosen: readonly T[],
  latestStart: (serverId: string) => number | undefined,
): { earlier: T[]; since: T[] } {
  const earlier: T[] = [];
  const since: T[] = [];
  for (const choice of chosen) {
    const started = latestStart(choice.entry.server.id);
    // Not started in this window: every entry (History read from disk included) came from a process before it.
    (started !== undefined && choice.entry.startedAt >= started ? since : earlier).push(choice);
  }
  return { earlier, since };
}

/** A History `events` entry (its result: workbench/events/eventsHistory.ts) as an events/subscribe step. */
function eventsStep(
  entry: HistoryEntry,
  operation: Extract<HistoryEntry['operation'], { kind: 'events' }>,
  value: unknown,
): HistoryStepChoice {
  const kept = value as { items?: unknown; itemsLeftOut?: unknown } | undefined;
  if (!Array.isArray(kept?.items)) return { kind: 'unusable', entry, reason: 'History kept no events of it' };
  if (typeof kept.itemsLeftOut === 'number' && kept.itemsLeftOut > 0)
    return {
      kind: 'unusable',
      entry,
      reason: `History kept only its last ${kept.items.length} events (${kept.itemsLeftOut} left out)`,
    };
  const events = (kept.items as FeedItem[]).flatMap((item) => {
    const recorded = recordedEventOf(item);
    return recorded ? [recorded] : [];
  });
  const count = Math.min(events.filter((event) => 'name' in event).length, MAX_EVENTS_STEP_COUNT);
  // As long as the subscription ran (a second at least): the replay waits that long for as many events.
  const withinMs = Math.min(Math.max(Math.round(entry.durationMs ?? 0), 1_000), MAX_EVENTS_STEP_MS);
  return {
    kind: 'step',
    entry,
    step: {
      request: {
        method: 'events/subscribe',
        params: {
          name: operation.eventName,
          mode: operation.mode,
          arguments: operation.arguments,
          cursor: null,
          until: { ...(count > 0 ? { count } : {}), withinMs },
        },
      },
      answer: { result: { events } },
    },
  };
}
