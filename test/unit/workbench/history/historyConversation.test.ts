/**
 * A playground conversation in History (src/workbench/history): one entry that grows with each request (replaced in
 * place, masked like any record), kept across a reload, and never a Save as Test step.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ConversationBuilder } from '../../../../src/workbench/evals/conversation';
import { HistoryLog, type HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { parseHistory, serializeHistory } from '../../../../src/workbench/history/historySnapshot';
import { historyStep } from '../../../../src/workbench/recordings/fromHistory';

function conversationRecord(requests: string[]): HistoryRecord {
  const builder = new ConversationBuilder({ id: 'm', name: 'M', provider: 'p' }, ['weather'], 1);
  for (const request of requests) {
    builder.begin(request, [], 2);
    ConversationBuilder.ended(builder.call('weather', 'get', { password: 'hunter22', city: 'Oslo' }), 'ok', false, 3);
    builder.finish('answered', `answer to ${request} with sk-abcdef`);
  }
  return {
    server: { id: 'weather#1', name: 'weather' },
    startedAt: 1,
    operation: {
      kind: 'conversation',
      model: 'M',
      servers: ['weather'],
      requests: requests.length,
      title: requests[0],
    },
    outcome: { kind: 'succeeded' },
    result: builder.record,
  };
}

test('a conversation stays one entry: each request replaces it in place, masked', () => {
  const log = new HistoryLog({}, () => ['sk-abcdef']);
  log.record({
    ...conversationRecord(['before']),
    operation: { kind: 'resource', uri: 'file:///x' },
    result: undefined,
  });
  const first = log.record(conversationRecord(['one']));
  log.record({
    ...conversationRecord(['after']),
    operation: { kind: 'resource', uri: 'file:///y' },
    result: undefined,
  });
  const replaced = log.replace(first.id, conversationRecord(['one', 'two']));
  assert.equal(replaced.id, first.id);
  assert.equal(log.size, 3);
  assert.deepEqual(
    log.entries().map((entry) => entry.operation.kind),
    ['resource', 'conversation', 'resource'],
  );
  const kept = log.get(first.id)!;
  assert.equal(kept.operation.kind === 'conversation' && kept.operation.requests, 2);
  const text = JSON.stringify(kept);
  assert.ok(!text.includes('hunter22') && !text.includes('sk-abcdef'), text);
  assert.equal(log.resultChars, JSON.stringify(kept.result.kind === 'kept' ? kept.result.value : null).length);
});

test('replacing an entry History no longer has records it anew', () => {
  const log = new HistoryLog();
  const first = log.record(conversationRecord(['one']));
  log.clear();
  const again = log.replace(first.id, conversationRecord(['one', 'two']));
  assert.notEqual(again.id, first.id);
  assert.equal(log.size, 1);
});

test('a conversation entry is kept across a reload and is not a recorded-test step', () => {
  const log = new HistoryLog();
  log.record(conversationRecord(['one']));
  const { entries, problem } = parseHistory(serializeHistory(log.entries()));
  assert.equal(problem, undefined);
  assert.deepEqual(entries[0].operation, {
    kind: 'conversation',
    model: 'M',
    servers: ['weather'],
    requests: 1,
    title: 'one',
  });
  assert.equal(historyStep(entries[0]).kind, 'unusable');
});
