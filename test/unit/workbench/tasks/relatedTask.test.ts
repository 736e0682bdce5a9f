/**
 * The task a sampling review or an elicitation form names in its title line: read from the request's untrusted
 * `_meta["io.modelcontextprotocol/related-task"]`, escaped (control and bidirectional characters shown as \uXXXX)
 * and bounded, with the tool the client's task book knows for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LONGEST_WHOLE_TASK_ID, SHORT_TASK_ID_CHARS, relatedTaskOf } from '../../../../src/workbench/tasks/relatedTask';

const tagged = (taskId: unknown) => ({ _meta: { 'io.modelcontextprotocol/related-task': { taskId } } });

test('a request tagged with a task names it, and its tool when the book knows it', () => {
  assert.deepEqual(relatedTaskOf(tagged('task-7')), { shownTaskId: 'task-7' });
  const asked: string[] = [];
  const named = relatedTaskOf(tagged('task-7'), (taskId) => (asked.push(taskId), 'simulate-research-query'));
  assert.deepEqual(named, { shownTaskId: 'task-7', shownToolName: 'simulate-research-query' });
  assert.deepEqual(asked, ['task-7'], 'the book is asked with the raw id');
});

test('no tag, or a tag of the wrong shape, names no task', () => {
  assert.equal(relatedTaskOf({}), undefined);
  assert.equal(relatedTaskOf({ _meta: 'x' }), undefined);
  assert.equal(relatedTaskOf({ _meta: { 'io.modelcontextprotocol/related-task': ['task-1'] } }), undefined);
  assert.equal(relatedTaskOf(tagged(42)), undefined);
  assert.equal(relatedTaskOf(tagged('')), undefined);
});

test('the server text is escaped: a right-to-left override or a newline cannot reorder or break the title', () => {
  assert.equal(relatedTaskOf(tagged('\u202Ex'))?.shownTaskId, '\\u202Ex');
  assert.equal(relatedTaskOf(tagged('a\nb'))?.shownTaskId, 'a\\u000Ab');
  // Shortened, it keeps no raw override either: the cut falls before an escape, never inside one.
  assert.equal(relatedTaskOf(tagged('abc\u202Egnp.exe\nsecond line'))?.shownTaskId, 'abc…');
  const tool = relatedTaskOf(tagged('t'), () => 'tool\u200Bname')?.shownToolName;
  assert.equal(tool, 'tool\\u200Bname');
});

test('a long task id is shortened to its first characters, never inside an escape; a short one is whole', () => {
  // server-everything's ids are 32 hex digits; the first-hour trial's title showed all of them (2.9).
  const hex = '9cc8650c43aed1593dc88f7f79b50a91';
  assert.deepEqual(
    relatedTaskOf(tagged(hex), () => 'simulate-research-query'),
    { shownTaskId: '9cc8650c…', shownToolName: 'simulate-research-query' },
  );
  assert.equal(relatedTaskOf(tagged('task-1234567'))?.shownTaskId, 'task-1234567', 'twelve characters stay whole');
  assert.equal('task-1234567'.length, LONGEST_WHOLE_TASK_ID);
  const shown = relatedTaskOf(tagged('x'.repeat(10_000)))?.shownTaskId ?? '';
  assert.equal(shown, `${'x'.repeat(SHORT_TASK_ID_CHARS)}…`);
  const escapes = relatedTaskOf(tagged('\u0007'.repeat(100)))?.shownTaskId ?? '';
  // One whole escape of six characters, then the ellipsis: a second would pass the eight characters kept.
  assert.equal(escapes, '\\u0007…');
});
