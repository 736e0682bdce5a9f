/**
 * The task a sampling review or an elicitation form names in its title line: read from the request's untrusted
 * `_meta["io.modelcontextprotocol/related-task"]`, escaped (control and bidirectional characters shown as \uXXXX)
 * and bounded, with the tool the client's task book knows for it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SHOWN_TASK_ID, relatedTaskOf } from '../../../../src/workbench/tasks/relatedTask';

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
  const shown = relatedTaskOf(tagged('abc\u202Egnp.exe\nsecond line'))?.shownTaskId ?? '';
  assert.equal(shown, 'abc\\u202Egnp.exe\\u000Asecond line');
  const tool = relatedTaskOf(tagged('t'), () => 'tool\u200Bname')?.shownToolName;
  assert.equal(tool, 'tool\\u200Bname');
});

test('a long task id is cut with an ellipsis, never inside an escape', () => {
  const shown = relatedTaskOf(tagged('x'.repeat(10_000)))?.shownTaskId ?? '';
  assert.equal([...shown].length, MAX_SHOWN_TASK_ID);
  assert.ok(shown.endsWith('…'));
  const escapes = relatedTaskOf(tagged('\u0007'.repeat(100)))?.shownTaskId ?? '';
  // Ten whole escapes of six characters, then the ellipsis: an eleventh would pass the bound.
  assert.equal(escapes, `${'\\u0007'.repeat(10)}…`);
});
