import { afterEach, beforeEach, mock, test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { FeedItem, SubscriptionStats } from '../../../../src/protocol/extensions/events';
import { HistoryLog, type HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { EventsHistoryWriter, type EventsHistorySubject } from '../../../../src/workbench/events/eventsHistory';
import { cliCommand } from '../../../../src/workbench/history/cliCommand';
import { parseHistory, serializeHistory } from '../../../../src/workbench/history/historySnapshot';
import { historyStep } from '../../../../src/workbench/recordings/fromHistory';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }));
afterEach(() => mock.timers.reset());

function subject(items: FeedItem[], stats: SubscriptionStats): EventsHistorySubject {
  return {
    server: { id: 's1', name: 'events' },
    eventName: 'ticks',
    mode: 'push',
    arguments: { token: 'sekrit-123' },
    startedAt: Date.now(),
    stats: () => stats,
    recent: () => [...items],
  };
}

const tick = (n: number): FeedItem => ({
  kind: 'event',
  receivedAt: n,
  eventId: `e-${n}`,
  name: 'ticks',
  timestamp: '',
  data: { n, echo: 'sekrit-123' },
  cursor: null,
  payload: { kind: 'valid' },
});

test('one History entry per subscription, replaced in place at most once per interval, and once at the end', () => {
  const items: FeedItem[] = [];
  const stats = { delivered: 0, duplicates: 0, gaps: 0, refused: 0, floodDropped: 0 };
  const history = new HistoryLog({}, () => ['sekrit-123']);
  const writes: HistoryRecord[] = [];
  const writer = new EventsHistoryWriter(subject(items, stats), (previous, record) => {
    writes.push(record);
    return (previous === undefined ? history.record(record) : history.replace(previous, record)).id;
  });
  assert.equal(history.entries().length, 1);
  // A flood: 200 events in one interval are one write.
  for (let n = 1; n <= 200; n++) {
    items.push(tick(n));
    stats.delivered++;
    writer.changed();
  }
  assert.equal(writes.length, 1);
  mock.timers.tick(1_000);
  assert.equal(writes.length, 2);
  writer.end('stopped');
  writer.changed();
  mock.timers.tick(5_000);
  assert.equal(writes.length, 3, 'nothing is written after the end');
  const entries = history.entries();
  assert.equal(entries.length, 1, 'still one entry');
  const [entry] = entries;
  assert.deepEqual(entry.operation, { kind: 'events', eventName: 'ticks', mode: 'push', arguments: { token: '••••' } });
  assert.deepEqual(entry.outcome, { kind: 'succeeded', note: 'stopped' });
  assert.equal(entry.result.kind, 'kept');
  const result = (entry.result as { value: { items: FeedItem[]; itemsLeftOut: number; stats: SubscriptionStats } })
    .value;
  assert.equal(result.items.length, 50, 'only the last items are kept');
  assert.equal(result.itemsLeftOut, 150);
  assert.equal((result.items.at(-1) as { eventId: string }).eventId, 'e-200');
  assert.equal(result.stats.delivered, 200);
  assert.doesNotMatch(JSON.stringify(entry), /sekrit-123/, 'masked at the sink');
});

test('an Events entry survives a reload, is a Save as Test step (an events/subscribe step), and copies as the CLI command that subscribes', () => {
  const history = new HistoryLog({}, () => []);
  const writer = new EventsHistoryWriter(
    subject([tick(1)], stats0()),
    (previous, record) => (previous === undefined ? history.record(record) : history.replace(previous, record)).id,
  );
  writer.end('terminated');
  const restored = parseHistory(serializeHistory(history.entries()));
  assert.equal(restored.problem, undefined);
  assert.deepEqual(restored.entries[0].operation, history.entries()[0].operation);
  const step = historyStep(restored.entries[0]);
  assert.equal(step.kind, 'step');
  assert.equal(step.kind === 'step' ? step.step.request.method : undefined, 'events/subscribe');
  const line = cliCommand(restored.entries[0].operation, { kind: 'url', url: 'http://127.0.0.1:9/mcp' }, 'mcp');
  // The masked argument becomes a variable the person sets, as for a tool call.
  assert.equal(
    line,
    `mcp events stream ticks --args '{"token":"'"\${MCP_ARG_TOKEN:?set MCP_ARG_TOKEN to the value of argument token}"'"}' --url http://127.0.0.1:9/mcp`,
  );
});

function stats0(): SubscriptionStats {
  return { delivered: 1, duplicates: 0, gaps: 0, refused: 0, floodDropped: 0 };
}
