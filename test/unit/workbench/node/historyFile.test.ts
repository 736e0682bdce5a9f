/**
 * History across a window reload: HistoryLog.restore, the snapshot's defensive reading, and HistoryFile writing and
 * reading a real file in a temporary folder (one log per "window").
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryLog, type HistoryRecord } from '../../../../src/workbench/history/historyLog';
import { parseHistory, serializeHistory } from '../../../../src/workbench/history/historySnapshot';
import { HistoryFile } from '../../../../src/workbench/node/historyFile';

function call(
  toolName: string,
  result: unknown = { content: [{ type: 'text', text: `${toolName} done` }] },
): HistoryRecord {
  return {
    server: { id: 'everything#1', name: 'everything' },
    startedAt: 1_700_000_000_000,
    durationMs: 12,
    operation: { kind: 'tool', toolName, arguments: { a: 2, b: 3 } },
    outcome: { kind: 'succeeded' },
    result,
  };
}

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-history-')), 'nested', 'history.json');
}

test('restore puts earlier entries before the current ones, with lower ids, within the capacity', () => {
  const log = new HistoryLog({ capacity: 3 });
  const earlier = new HistoryLog();
  for (const name of ['one', 'two', 'three']) earlier.record(call(name));
  const now = log.record(call('now'));
  log.restore(earlier.entries());
  const names = log.entries().map((entry) => (entry.operation.kind === 'tool' ? entry.operation.toolName : ''));
  assert.deepEqual(names, ['two', 'three', 'now'], 'the newest earlier entries fill the room left');
  const ids = log.entries().map((entry) => entry.id);
  assert.deepEqual(
    [...ids].sort((a, b) => a - b),
    ids,
    'ids increase with time',
  );
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  assert.equal(log.get(now.id), now);
  assert.equal(log.record(call('next')).id, now.id + 1, 'new ids go on from the current ones');
});

test('restored results count against the budget, and the oldest give theirs up first', () => {
  const big = { content: [{ type: 'text', text: 'x'.repeat(400) }] };
  const earlier = new HistoryLog();
  earlier.record(call('old', big));
  earlier.record(call('newer', big));
  const log = new HistoryLog({ maxTotalResultChars: 1000 });
  log.record(call('now', big));
  log.restore(earlier.entries());
  assert.ok(log.resultChars <= 1000, `within the budget: ${log.resultChars}`);
  const [old, newer, now] = log.entries();
  assert.equal(old.result.kind, 'dropped');
  assert.equal(newer.result.kind, 'kept');
  assert.equal(now.result.kind, 'kept');
});

test('a snapshot reads back what was written; anything else is left out, not trusted', () => {
  const log = new HistoryLog();
  log.record(call('echo'));
  log.record({ ...call('fails'), outcome: { kind: 'failed', message: 'boom' }, result: undefined });
  const text = serializeHistory(log.entries());
  assert.deepEqual(parseHistory(text).entries, log.entries());

  assert.deepEqual(parseHistory('{"version":1,"entries":[').entries, []);
  assert.match(parseHistory('{"version":1,"entries":[').problem ?? '', /not JSON/);
  assert.match(parseHistory('{"version":2,"entries":[]}').problem ?? '', /not a version 1/);
  const mixed = JSON.stringify({
    version: 1,
    entries: [
      JSON.parse(text).entries[0],
      { id: 'x' },
      { ...JSON.parse(text).entries[0], operation: { kind: 'shell', command: 'rm -rf /' } },
      { ...JSON.parse(text).entries[0], result: { kind: 'kept', chars: -1, value: 1 } },
      { ...JSON.parse(text).entries[0], outcome: { kind: 'failed' } },
    ],
  });
  const parsed = parseHistory(mixed);
  assert.equal(parsed.entries.length, 1);
  assert.equal(parsed.problem, '4 unreadable entries left out');
});

test("HistoryFile: a second window finds the first window's History, masked; Clear empties the file too", async () => {
  const file = tempFile();
  const first = new HistoryLog({}, () => ['s3cr3t-token']);
  const firstFile = new HistoryFile(first, file, (line) => assert.fail(line), 10);
  first.record(call('get-env', { content: [{ type: 'text', text: 'API_KEY=s3cr3t-token' }] }));
  first.record(call('echo'));
  await firstFile.dispose();
  const written = fs.readFileSync(file, 'utf8');
  assert.ok(!written.includes('s3cr3t-token'), 'no secret reaches the file');
  assert.ok(written.includes('API_KEY='), 'the masked result is there');
  if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o777, 0o600);

  const second = new HistoryLog();
  const secondFile = new HistoryFile(second, file, (line) => assert.fail(line), 10);
  second.record(call('recorded-before-the-load'));
  await secondFile.load();
  const names = second.entries().map((entry) => (entry.operation.kind === 'tool' ? entry.operation.toolName : ''));
  assert.deepEqual(names, ['get-env', 'echo', 'recorded-before-the-load']);

  second.clear();
  await secondFile.dispose();
  const third = new HistoryLog();
  const thirdFile = new HistoryFile(third, file, (line) => assert.fail(line), 10);
  await thirdFile.load();
  assert.equal(third.size, 0);
  await thirdFile.dispose();
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['history.json'], 'no temporary file is left');
});

test('HistoryFile: a burst of records is one write after the last of them', async () => {
  const file = tempFile();
  const log = new HistoryLog();
  const history = new HistoryFile(log, file, (line) => assert.fail(line), 50);
  for (let index = 0; index < 20; index++) log.record(call(`call-${index}`));
  assert.ok(!fs.existsSync(file), 'nothing is written while the burst goes on');
  await history.flush();
  assert.equal(parseHistory(fs.readFileSync(file, 'utf8')).entries.length, 20);
  await history.dispose();
});

test('HistoryFile: a missing file is no History and no message; a damaged or oversized one is reported and skipped', async () => {
  const reports: string[] = [];
  const missing = new HistoryFile(new HistoryLog(), tempFile(), (line) => reports.push(line));
  await missing.load();
  await missing.dispose();
  assert.equal(reports.length, 0, reports.join('\n'));

  const damaged = tempFile();
  fs.mkdirSync(path.dirname(damaged), { recursive: true });
  fs.writeFileSync(damaged, '{"version":1,"entr');
  const log = new HistoryLog();
  const damagedFile = new HistoryFile(log, damaged, (line) => reports.push(line));
  await damagedFile.load();
  await damagedFile.dispose();
  assert.equal(log.size, 0);
  assert.match(reports.join('\n'), /not JSON/);

  const oversized = tempFile();
  fs.mkdirSync(path.dirname(oversized), { recursive: true });
  const small = new HistoryLog({ maxTotalResultChars: 10 });
  fs.writeFileSync(oversized, 'x'.repeat(2 * 10 + 4 * 1024 * 1024 + 1));
  const oversizedFile = new HistoryFile(small, oversized, (line) => reports.push(line));
  await oversizedFile.load();
  await oversizedFile.dispose();
  assert.equal(small.size, 0);
  assert.match(reports.at(-1) ?? '', /bytes, over/);
});
