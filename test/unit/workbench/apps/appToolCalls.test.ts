/**
 * An app's own tool calls (src/workbench/apps/appToolCalls.ts): which ask the person first, how their arguments are
 * shown, what the app hears when declined, and the History record that marks each as the app's.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { LocalError } from '../../../../src/protocol/errors';
import type { Tool } from '../../../../src/protocol/types';
import {
  appCallRecord,
  asksBeforeAppCall,
  declinedResult,
  shownArguments,
} from '../../../../src/workbench/apps/appToolCalls';

const tool = (annotations?: Tool['annotations']): Tool => ({
  name: 'erase',
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});

test('a call asks first when its server marks the tool destructive and not read-only, or when the host does not know the tool', () => {
  assert.equal(asksBeforeAppCall(tool({ destructiveHint: true })), true);
  assert.equal(asksBeforeAppCall(tool({ destructiveHint: true, readOnlyHint: false })), true);
  assert.equal(asksBeforeAppCall(undefined), true, 'a tool missing from the host list: nothing says it is harmless');
  assert.equal(asksBeforeAppCall(tool({ destructiveHint: true, readOnlyHint: true })), false, 'read-only wins');
  assert.equal(asksBeforeAppCall(tool({ destructiveHint: false })), false);
  assert.equal(asksBeforeAppCall(tool()), false, 'no annotations: as the person would call it from a form');
});

test('the arguments a prompt shows are escaped line by line and cut with a count', () => {
  const shown = shownArguments({ path: 'notes\u202Etxt.exe', note: 'a\\b' });
  assert.equal(shown, '{\n  "path": "notes\\u202Etxt.exe",\n  "note": "a\\\\\\\\b"\n}');
  assert.doesNotMatch(shown, /\u202E/);
  const long = shownArguments({ text: 'x'.repeat(5000) });
  assert.match(long, /\n… \(\d+ more characters\)$/);
  assert.ok(long.length < 1600);
});

test('declined, the app hears an error result that says so', () => {
  assert.deepEqual(declinedResult('erase', 'declined'), {
    content: [{ type: 'text', text: 'The person declined this call of erase.' }],
    isError: true,
  });
  assert.match(JSON.stringify(declinedResult('erase', 'busy')), /another request of this app is waiting/);
});

test("the History record of an app's call is a tool call of its server, marked with the app and the host's note", () => {
  const base = {
    server: { id: 'apps#1', name: 'apps' },
    appTool: 'show_panel',
    toolName: 'erase',
    args: { what: 'all' },
    startedAt: 1000,
    endedAt: 1042,
    note: 'via the app of show_panel',
  };
  const result = { content: [{ type: 'text' as const, text: 'erased' }] };
  assert.deepEqual(appCallRecord({ ...base, end: { kind: 'answered', result } }), {
    server: { id: 'apps#1', name: 'apps' },
    startedAt: 1000,
    durationMs: 42,
    operation: { kind: 'tool', toolName: 'erase', arguments: { what: 'all' } },
    outcome: { kind: 'succeeded', note: 'via the app of show_panel' },
    result,
    source: { kind: 'app', appTool: 'show_panel' },
  });
  const toolError = appCallRecord({ ...base, end: { kind: 'answered', result: { ...result, isError: true } } });
  assert.deepEqual(toolError.outcome, { kind: 'tool-error', note: 'via the app of show_panel' });
  const declined = appCallRecord({ ...base, end: { kind: 'declined', result: declinedResult('erase', 'declined') } });
  assert.deepEqual(declined.outcome, { kind: 'declined', note: 'via the app of show_panel' });
  assert.equal(declined.result, undefined, 'nothing was called, so nothing answered');
  assert.equal(declined.durationMs, undefined);
  const cancelled = appCallRecord({ ...base, end: { kind: 'threw', error: new LocalError('cancelled', 'closed') } });
  assert.deepEqual(cancelled.outcome, { kind: 'cancelled' });
  const failed = appCallRecord({ ...base, end: { kind: 'threw', error: new Error('the server went away') } });
  assert.deepEqual(failed.outcome, { kind: 'failed', message: 'the server went away' });
  assert.deepEqual(failed.source, { kind: 'app', appTool: 'show_panel' });
});
