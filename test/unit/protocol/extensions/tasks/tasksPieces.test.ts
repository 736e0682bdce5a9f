/** Host-neutral task pieces: view rows, ages, sorting, task parsing, and the HTTP routing header of task requests. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { standardHeaders } from '../../../../../src/protocol/eras/modern/headers';
import { TaskBook } from '../../../../../src/protocol/extensions/tasks/taskBook';
import { readTask } from '../../../../../src/protocol/extensions/tasks/taskModel';
import {
  recordStatusNotification,
  taskMode,
  type TaskMode,
  type TaskModeOptions,
  type ToolTaskOffer,
} from '../../../../../src/protocol/extensions/tasks/tasksExtension';
import type { Tool } from '../../../../../src/protocol/types';
import { MAX_KEPT_ARGUMENT_CHARS } from '../../../../../src/protocol/extensions/tasks/taskBook';
import { MAX_ROW_ARGUMENT_CHARS, shortAge, sortTaskRows, taskRow } from '../../../../../src/workbench/tasks/taskRows';

test('tasks/get, tasks/update and tasks/cancel carry Mcp-Name = the task id (SEP-2663 routing)', () => {
  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    assert.equal(standardHeaders('2026-07-28', method, { taskId: 'task-7' })['Mcp-Name'], 'task-7', method);
  }
});

test('both generations read into one snapshot; bad fields are dropped or refused', () => {
  const legacy = readTask(
    's',
    '2025-11-25',
    { taskId: 'a', status: 'working', ttl: 1000, pollInterval: 500, createdAt: '2026-01-01T00:00:00Z' },
    'x',
  );
  assert.equal(legacy.ttlMs, 1000);
  assert.equal(legacy.pollIntervalMs, 500);
  assert.equal(legacy.createdAt, Date.parse('2026-01-01T00:00:00Z'));
  const modern = readTask(
    's',
    '2026-07-28',
    { taskId: 'b', status: 'completed', ttlMs: null, pollIntervalMs: -5, result: { content: [] } },
    'x',
  );
  assert.equal(modern.ttlMs, null);
  assert.equal(modern.pollIntervalMs, undefined, 'a negative interval is no hint');
  assert.ok(modern.status === 'completed' && modern.result);
  assert.throws(
    () => readTask('srv', '2026-07-28', { taskId: '', status: 'working' }, 'the answer'),
    /srv: the answer has no usable taskId/,
  );
  assert.throws(() => readTask('srv', '2026-07-28', { taskId: 'c', status: 'done' }, 'the answer'), /status "done"/);
  assert.equal(
    readTask('s', '2026-07-28', { taskId: 'd', status: 'working', statusMessage: 'm'.repeat(10_000) }, 'x')
      .statusMessage?.length,
    4096,
  );
});

test('rows: live tasks can be cancelled, completed ones opened; newest live first; ages are compact', () => {
  const book = new TaskBook('srv');
  const now = Date.parse('2026-06-01T12:00:00Z');
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  book.record(
    '2026-07-28',
    readTask('srv', '2026-07-28', { taskId: 'old-done', status: 'completed', createdAt: at(90), result: {} }, 'x'),
    { toolName: 'build' },
  );
  book.record(
    '2026-07-28',
    readTask('srv', '2026-07-28', { taskId: 'live', status: 'input_required', createdAt: at(2) }, 'x'),
    { toolName: 'ask' },
  );
  book.record(
    '2026-07-28',
    readTask('srv', '2026-07-28', { taskId: 'older-live', status: 'working', createdAt: at(30) }, 'x'),
  );
  const rows = sortTaskRows(book.all().map((tracked) => taskRow(tracked, now)));
  assert.deepEqual(
    rows.map((row) => row.taskId),
    ['live', 'older-live', 'old-done'],
  );
  assert.deepEqual(
    rows.map((row) => [row.canCancel, row.hasResult]),
    [
      [true, false],
      [true, false],
      [false, true],
    ],
  );
  assert.equal(rows[0].toolName, 'ask');
  assert.equal(shortAge(rows[0].ageMs), '2 min');
  assert.equal(shortAge(rows[2].ageMs), '1 h');
  assert.equal(shortAge(42_000), '42 s');
  assert.equal(shortAge(3 * 86_400_000), '3 d');
});

test("a row's tooltip arguments: the kept ones as compact JSON, cut by code points; over the book's cap only their size", () => {
  const book = new TaskBook('srv', (args) => args);
  const working = (taskId: string) => readTask('srv', '2026-07-28', { taskId, status: 'working' }, 'x');
  book.record('2026-07-28', working('short'), { toolName: 'research', arguments: { topic: 'reefs' } });
  assert.deepEqual(taskRow(book.get('short')!).arguments, { kind: 'shown', text: '{"topic":"reefs"}' });
  book.record('2026-07-28', working('short'));
  assert.deepEqual(
    taskRow(book.get('short')!).arguments,
    { kind: 'shown', text: '{"topic":"reefs"}' },
    'a poll keeps them',
  );
  book.record('2026-07-28', working('long'), { arguments: { topic: '😀'.repeat(400) } });
  const long = taskRow(book.get('long')!).arguments;
  assert.ok(long?.kind === 'shown');
  assert.equal([...long.text].length, MAX_ROW_ARGUMENT_CHARS);
  assert.ok(long.text.endsWith('😀…'), 'no emoji cut in half');
  book.record('2026-07-28', working('huge'), { arguments: { topic: 'x'.repeat(MAX_KEPT_ARGUMENT_CHARS) } });
  assert.deepEqual(taskRow(book.get('huge')!).arguments, { kind: 'omitted', chars: MAX_KEPT_ARGUMENT_CHARS + 12 });
  book.record('2026-07-28', working('listed'));
  assert.equal(taskRow(book.get('listed')!).arguments, undefined, 'a task this client did not start shows none');
  const unkept = new TaskBook('srv');
  unkept.record('2026-07-28', working('cli'), { arguments: { topic: 'reefs' } });
  assert.equal(unkept.get('cli')?.arguments, undefined, 'without a keeper (the CLI) nothing is kept');
});

test('a 2025-11-25 status notification updates only a task the book knows, and never revives an ended one', () => {
  const book = new TaskBook('srv');
  const warnings: string[] = [];
  const context = {
    serverName: 'srv',
    logger: { debug() {}, info() {}, warn: (line: string) => void warnings.push(line), error() {} },
  };
  const notify = (params: Record<string, unknown>) => recordStatusNotification(context, { book }, params);
  notify({ taskId: 'stranger', status: 'working', ttl: null });
  assert.equal(book.get('stranger'), undefined, 'a server cannot add rows by notifying');
  book.record('2025-11-25', readTask('srv', '2025-11-25', { taskId: 't1', status: 'working', ttl: null }, 'x'), {
    toolName: 'research',
  });
  notify({ taskId: 't1', status: 'working', ttl: null, statusMessage: 'stage 2' });
  assert.equal(book.get('t1')?.snapshot.statusMessage, 'stage 2');
  assert.equal(book.get('t1')?.toolName, 'research', 'what the book knew is kept');
  notify({ taskId: 't1', status: 'completed', ttl: null });
  notify({ taskId: 't1', status: 'working', ttl: null, statusMessage: 'late' });
  assert.equal(book.get('t1')?.snapshot.status, 'completed', 'a late working after completed is ignored');
  notify({ taskId: 't1', status: 'paused', ttl: null });
  assert.equal(book.get('t1')?.snapshot.status, 'completed');
  assert.match(warnings.join('\n'), /status "paused"/, 'a malformed notification is logged, not thrown');
});

test('taskMode: the one decision whether a tools/call runs as a task, both generations', () => {
  const tool = (taskSupport?: string): Tool => ({
    name: 't',
    inputSchema: { type: 'object' },
    ...(taskSupport === undefined ? {} : { execution: { taskSupport } }),
  });
  const legacy: ToolTaskOffer = { generation: '2025-11-25', toolCalls: true };
  const legacyNoToolCalls: ToolTaskOffer = { generation: '2025-11-25', toolCalls: false };
  const modern: ToolTaskOffer = { generation: '2026-07-28' };
  const none: ToolTaskOffer = { generation: undefined };
  const cases: [string, Tool, ToolTaskOffer, TaskModeOptions, TaskMode][] = [
    [
      'no tasks offered: direct, even for required',
      tool('required'),
      none,
      { asTask: true },
      { kind: 'direct', reason: 'no-tasks' },
    ],
    [
      '2025-11-25 required: a task, asked or not',
      tool('required'),
      legacy,
      {},
      { kind: 'task', generation: '2025-11-25', reason: 'required', wait: true },
    ],
    [
      '2025-11-25 required, --no-wait',
      tool('required'),
      legacy,
      { wait: false },
      { kind: 'task', generation: '2025-11-25', reason: 'required', wait: false },
    ],
    [
      '2025-11-25 optional, asked',
      tool('optional'),
      legacy,
      { asTask: true },
      { kind: 'task', generation: '2025-11-25', reason: 'asked', wait: true },
    ],
    ['2025-11-25 optional, not asked', tool('optional'), legacy, {}, { kind: 'direct', reason: 'not-asked' }],
    [
      '2025-11-25 optional, --no-wait alone does not ask',
      tool('optional'),
      legacy,
      { wait: false },
      { kind: 'direct', reason: 'not-asked' },
    ],
    [
      '2025-11-25 forbidden, asked',
      tool('forbidden'),
      legacy,
      { asTask: true },
      { kind: 'direct', reason: 'forbidden' },
    ],
    [
      '2025-11-25 no execution field = forbidden',
      tool(),
      legacy,
      { asTask: true },
      { kind: 'direct', reason: 'forbidden' },
    ],
    [
      '2025-11-25 an unknown taskSupport = forbidden',
      tool('sometimes'),
      legacy,
      { asTask: true },
      { kind: 'direct', reason: 'forbidden' },
    ],
    // The spec: without tasks.requests.tools.call the client must not task-augment, whatever taskSupport says.
    [
      '2025-11-25 required, server without tasks.requests.tools.call',
      tool('required'),
      legacyNoToolCalls,
      {},
      { kind: 'direct', reason: 'no-tool-call-tasks' },
    ],
    [
      '2025-11-25 optional asked, server without tasks.requests.tools.call',
      tool('optional'),
      legacyNoToolCalls,
      { asTask: true },
      { kind: 'direct', reason: 'no-tool-call-tasks' },
    ],
    [
      '2026-07-28: the server decides (waited)',
      tool(),
      modern,
      {},
      { kind: 'server-decides', generation: '2026-07-28', wait: true },
    ],
    [
      '2026-07-28: taskSupport and asTask change nothing',
      tool('forbidden'),
      modern,
      { asTask: true },
      { kind: 'server-decides', generation: '2026-07-28', wait: true },
    ],
    [
      '2026-07-28 --no-wait: a task answer is handed back',
      tool('required'),
      modern,
      { wait: false },
      { kind: 'server-decides', generation: '2026-07-28', wait: false },
    ],
  ];
  for (const [name, called, offer, options, expected] of cases)
    assert.deepEqual(taskMode(called, offer, options), expected, name);
});
