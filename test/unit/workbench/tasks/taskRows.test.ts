/**
 * The Tasks view's rows after a task ends (first-hour trial, 2.9): a finished row reads its final status, not the
 * message of the stage the task was last seen in ("completed · Generating report..."), and it stays in the view when
 * its server stops or restarts, as long as the view's other finished tasks do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TaskBook } from '../../../../src/protocol/extensions/tasks/taskBook';
import { readTask } from '../../../../src/protocol/extensions/tasks/taskModel';
import { EarlierTasks, MAX_EARLIER_TASKS, taskRow } from '../../../../src/workbench/tasks/taskRows';

const NOW = Date.parse('2026-12-07T10:00:00Z');

function record(book: TaskBook, taskId: string, status: string, statusMessage?: string, toolName?: string) {
  const raw = {
    taskId,
    status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt: new Date(NOW - 60_000).toISOString(),
  };
  return book.record('2025-11-25', readTask('everything', '2025-11-25', raw, 'x'), toolName ? { toolName } : {});
}

test('a finished row shows its final status, not the message of its last stage', () => {
  const book = new TaskBook('everything');
  record(book, 'research', 'working', 'Gathering sources...', 'simulate-research-query');
  const live = record(book, 'research', 'working', 'Generating report...');
  assert.equal(taskRow(live, NOW).statusMessage, 'Generating report...', 'a live row shows its stage');
  // server-everything ends the task with the last stage's message still set.
  const done = record(book, 'research', 'completed', 'Generating report...');
  const row = taskRow(done, NOW);
  assert.equal(row.status, 'completed');
  assert.equal(row.statusMessage, undefined);
  assert.equal(row.toolName, 'simulate-research-query');
  // A message the server set when the task ended is its final word, and shows.
  assert.equal(taskRow(record(book, 'research', 'completed', 'Report ready'), NOW).statusMessage, 'Report ready');
  record(book, 'broken', 'working', 'Compiling...');
  assert.equal(taskRow(record(book, 'broken', 'failed', 'the build broke'), NOW).statusMessage, 'the build broke');
  // A task first seen finished (task get after a reload) shows what the server says.
  assert.equal(taskRow(record(book, 'seen-late', 'completed', 'All done'), NOW).statusMessage, 'All done');
});

test("a server's finished tasks stay in the view after it stops or restarts; its live ones do not", () => {
  const earlier = new EarlierTasks();
  const first = new TaskBook('everything');
  record(first, 'done-1', 'working', 'Generating report...', 'simulate-research-query');
  record(first, 'done-1', 'completed', 'Generating report...');
  record(first, 'live-1', 'working', 'Gathering sources...', 'simulate-research-query');
  const other = new TaskBook('other');
  record(other, 'done-other', 'completed');

  // Before the stop, the rows are the book's.
  assert.deepEqual(
    earlier.rows('workspace/everything', first.all(), NOW).map((row) => [row.taskId, row.earlier ?? false]),
    [
      ['live-1', false],
      ['done-1', false],
    ],
  );
  earlier.retire('workspace/everything', first.all());
  // Stopped: no book, and the finished task still shows, with its final status.
  const stopped = earlier.rows('workspace/everything', [], NOW);
  assert.deepEqual(
    stopped.map((row) => [row.taskId, row.status, row.statusMessage, row.earlier]),
    [['done-1', 'completed', undefined, true]],
  );
  assert.equal(earlier.get('workspace/everything', 'done-1')?.toolName, 'simulate-research-query');
  assert.equal(
    earlier.get('workspace/everything', 'live-1'),
    undefined,
    'a live task of a gone connection is not kept',
  );
  // Restarted: the new book's tasks and the earlier finished one; a task the new book knows shows from the book.
  const second = new TaskBook('everything');
  record(second, 'new-1', 'working');
  record(second, 'done-1', 'completed', 'Report ready');
  assert.deepEqual(
    earlier.rows('workspace/everything', second.all(), NOW).map((row) => [row.taskId, row.statusMessage, row.earlier]),
    [
      ['new-1', undefined, undefined],
      ['done-1', 'Report ready', undefined],
    ],
  );
  // Another server's rows are its own.
  assert.deepEqual(
    earlier.rows('workspace/other', other.all(), NOW).map((row) => row.taskId),
    ['done-other'],
  );
  // A server no longer configured takes its kept tasks with it.
  earlier.keepOnly(new Set(['workspace/other']));
  assert.deepEqual(earlier.rows('workspace/everything', [], NOW), []);
});

test('what is kept of earlier connections is bounded: the oldest finished tasks go first', () => {
  const earlier = new EarlierTasks();
  const book = new TaskBook('busy');
  for (let index = 0; index < MAX_EARLIER_TASKS + 50; index++) record(book, `task-${index}`, 'completed');
  earlier.retire('busy', book.all());
  const rows = earlier.rows('busy', [], NOW);
  assert.equal(rows.length, MAX_EARLIER_TASKS);
  assert.equal(earlier.get('busy', 'task-0'), undefined);
  assert.ok(earlier.get('busy', `task-${MAX_EARLIER_TASKS + 49}`));
});
