/**
 * The History record's `source` (src/workbench/history): an app's own call is kept as the app's, in the log and
 * across a reload, and History files written before the field existed stay readable.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { HistoryLog, type HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { parseHistory, serializeHistory } from '../../../../src/workbench/history/historySnapshot';

const appCall: HistoryRecord = {
  server: { id: 'apps#1', name: 'apps' },
  startedAt: 1_700_000_000_000,
  durationMs: 3,
  operation: { kind: 'tool', toolName: 'erase_notes', arguments: { what: 'all' } },
  outcome: { kind: 'declined', note: 'via the app of show_panel' },
  source: { kind: 'app', appTool: 'show_panel' },
};

test("an app's call keeps its source in the log and across a reload; the person's own calls have none", () => {
  const log = new HistoryLog();
  const entry = log.record(appCall);
  const own = log.record({ ...appCall, source: undefined, outcome: { kind: 'succeeded' } });
  assert.deepEqual(entry.source, { kind: 'app', appTool: 'show_panel' });
  assert.equal('source' in own, false);
  const { entries, problem } = parseHistory(serializeHistory(log.entries()));
  assert.equal(problem, undefined);
  assert.deepEqual(
    entries.map((read) => read.source),
    [{ kind: 'app', appTool: 'show_panel' }, undefined],
  );
});

test('a History file from before the field is read whole; an entry with a source this version does not know is left out', () => {
  const before = JSON.stringify({
    version: 1,
    entries: [
      {
        id: 1,
        server: { id: 'apps#1', name: 'apps' },
        startedAt: 1,
        operation: { kind: 'tool', toolName: 'show_panel', arguments: {} },
        outcome: { kind: 'succeeded' },
        result: { kind: 'none' },
      },
    ],
  });
  assert.equal(parseHistory(before).entries.length, 1);
  assert.equal(parseHistory(before).problem, undefined);
  const odd = JSON.parse(before) as { entries: Record<string, unknown>[] };
  odd.entries.push({ ...odd.entries[0], id: 2, source: { kind: 'agent' } });
  odd.entries.push({ ...odd.entries[0], id: 3, source: { kind: 'app', appTool: 7 } });
  const read = parseHistory(JSON.stringify(odd));
  assert.deepEqual(
    read.entries.map((entry) => entry.id),
    [1],
  );
  assert.equal(read.problem, '2 unreadable entries left out');
});
