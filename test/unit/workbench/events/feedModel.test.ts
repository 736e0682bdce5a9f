import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { FeedItem } from '../../../../src/protocol/extensions/events';
import { FeedModel, payloadText } from '../../../../src/workbench/events/feedModel';

const event = (n: number, data: unknown = { n }): FeedItem => ({
  kind: 'event',
  receivedAt: Date.UTC(2026, 11, 7, 16, 30, 0, n),
  eventId: `e-${n}`,
  name: 'ticks',
  timestamp: '2026-12-07T16:30:00Z',
  data: data as never,
  cursor: `t-${n}`,
  payload: { kind: 'valid' },
});

test('the feed keeps only its last rows, numbered in order', () => {
  const model = new FeedModel({ rows: 3 });
  for (let n = 1; n <= 10; n++) model.add(event(n));
  const rows = model.rows();
  assert.deepEqual(
    rows.map((row) => [row.seq, row.id]),
    [
      [8, 'e-8'],
      [9, 'e-9'],
      [10, 'e-10'],
    ],
  );
  assert.equal(rows[0].time, '16:30:00.008');
  assert.equal(rows[0].mark, 'valid');
  assert.equal(rows[0].text, '{\n  "n": 8\n}');
});

test("a payload is pretty JSON, escaped line by line and capped; the server's strings are escaped and cut", () => {
  const model = new FeedModel({ payloadChars: 40, textChars: 10 });
  const hostile = 'x\u202Eevil\u0007' + 'y'.repeat(50);
  const row = model.add(event(1, { text: hostile, big: 'z'.repeat(200) }));
  assert.doesNotMatch(row.text, /[\u202E\u0007]/);
  assert.match(row.text, /\\u202E/);
  assert.match(row.text, /… \(\d+ more characters\)$/);
  const refused = model.add({ kind: 'refused', receivedAt: 0, reason: `<b>${'r'.repeat(40)}`, eventId: 'id\u0000' });
  assert.equal(refused.text, '<b>rrrrrrr…');
  assert.equal(refused.id, 'id\\u0000');
});

test('gaps, statuses and an invalid payload say what happened', () => {
  const model = new FeedModel();
  const truncated = model.add({ kind: 'gap', receivedAt: 0, reason: 'truncated', cursor: 't-9' });
  assert.deepEqual([truncated.kind, truncated.mark, truncated.text], ['gap', 'truncated', 't-9']);
  const flood = model.add({ kind: 'gap', receivedAt: 0, reason: 'flood', dropped: 400 });
  assert.deepEqual([flood.mark, flood.detail], ['flood', '400']);
  const status = model.add({ kind: 'status', receivedAt: 0, status: 'reconnecting', message: 'stream\u2028dropped' });
  assert.deepEqual([status.mark, status.text], ['reconnecting', 'stream\\u2028dropped']);
  const invalid = model.add({ ...event(2), payload: { kind: 'invalid', errors: ['must have n'] } } as FeedItem);
  assert.deepEqual([invalid.mark, invalid.detail], ['invalid', 'must have n']);
});

test('a payload JSON cannot print is shown as text, not thrown', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(payloadText(cyclic, 100), '[object Object]');
});
