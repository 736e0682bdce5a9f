/**
 * The way to a result page (src/extension/features/tools/resultChannel.ts, vscode-free apart from types): nothing is posted
 * before the page says it listens, only the latest body waits, and a page rebuilt with an older body is sent the
 * latest one. The webview is a recording stand-in (the channel is under test, not VS Code's postMessage).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { ResultChannel, type ResultBodyMessage } from '../../../../../src/extension/features/tools/resultChannel';

/** Records what is posted; `answer` is what postMessage resolves (false: VS Code could not deliver it). */
function recordingWebview(answer: () => boolean = () => true): { webview: vscode.Webview; posted: unknown[] } {
  const posted: unknown[] = [];
  const webview = {
    postMessage: async (message: unknown) => (posted.push(message), answer()),
  } as unknown as vscode.Webview;
  return { webview, posted };
}

const result = (sequence: number): ResultBodyMessage => ({
  type: 'show',
  key: `result-${sequence}`,
  html: `<p>result ${sequence}</p>`,
  sequence,
});
const settled = () => new Promise((resolve) => setImmediate(resolve));

test('before the page says ready nothing is posted; then only the latest body is', () => {
  const { webview, posted } = recordingWebview();
  const channel = new ResultChannel(webview);
  assert.equal(channel.deliver({ type: 'status', key: 'status-1', html: '<p>Calling…</p>' }), 'queued');
  assert.equal(channel.deliver(result(1)), 'queued');
  assert.deepEqual(posted, []);
  channel.ready(undefined);
  assert.deepEqual(posted, [result(1)]);
  assert.equal(channel.deliver(result(2)), 'posted');
  assert.deepEqual(posted, [result(1), result(2)]);
});

test('a page whose HTML carries the latest body is sent nothing; a page rebuilt with an older one is sent the latest', () => {
  const { webview, posted } = recordingWebview();
  const channel = new ResultChannel(webview, result(1));
  channel.ready('result-1');
  assert.deepEqual(posted, []);
  channel.deliver(result(2));
  // VS Code rebuilt the webview from its HTML, which still shows result 1 (result 2 was posted to the old page).
  channel.ready('result-1');
  assert.deepEqual(posted, [result(2), result(2)]);
  // A rebuilt page that already shows the latest body is sent nothing.
  channel.ready('result-2');
  assert.deepEqual(posted, [result(2), result(2)]);
});

test('a message VS Code could not deliver makes the channel wait for the next ready', async () => {
  let deliverable = false;
  const { webview, posted } = recordingWebview(() => deliverable);
  const channel = new ResultChannel(webview);
  channel.ready(undefined);
  assert.equal(channel.deliver(result(1)), 'posted');
  await settled();
  assert.equal(channel.deliver(result(2)), 'queued', 'after an undelivered message');
  deliverable = true;
  channel.ready(undefined);
  assert.deepEqual(posted, [result(1), result(2)]);
});

test('progress lines reach a listening page that shows a call in flight, and no other', () => {
  const { webview, posted } = recordingWebview();
  const channel = new ResultChannel(webview, { type: 'status', key: 'status-1', html: '<p>Calling…</p>' });
  channel.progress('dropped: the page is loading');
  channel.ready('status-1');
  channel.progress('1/3');
  channel.deliver(result(1));
  channel.progress('dropped: the result is shown');
  assert.deepEqual(posted, [{ type: 'progress', text: '1/3' }, result(1)]);
});
