/**
 * The progress notification of a call (src/extension/platform/ui/delayedProgress.ts, vscode-free), on fake timers:
 * none for a call that answers within the delay (the trial's 22 ms call), and none while the review panel asks.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import {
  PROGRESS_DELAY_MS,
  delayedProgress,
  type AskingSignal,
  type ProgressUpdate,
} from '../../../../../src/extension/platform/ui/delayedProgress';

/** Every toast opened, with what it was told and whether it is closed. */
function toasts() {
  const opened: { updates: ProgressUpdate[]; closed: boolean }[] = [];
  return {
    opened,
    open: () => {
      const toast = { updates: [] as ProgressUpdate[], closed: false };
      opened.push(toast);
      return {
        report: (update: ProgressUpdate) => void toast.updates.push(update),
        close: () => {
          assert.equal(toast.closed, false, 'a toast is closed once');
          toast.closed = true;
        },
      };
    },
  };
}

function reviewPanel(): AskingSignal & { set(asking: boolean): void } {
  const listeners = new Set<() => void>();
  let asking = false;
  return {
    get asking() {
      return asking;
    },
    onDidChangeAsking(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    set(next) {
      asking = next;
      for (const listener of [...listeners]) listener();
    },
  };
}

const fakeTimers = (t: TestContext) => t.mock.timers.enable({ apis: ['setTimeout'] });

test('a call that answers in 22 ms shows no notification; one still running at the delay shows it', (t) => {
  fakeTimers(t);
  const quick = toasts();
  const call = delayedProgress({ open: quick.open });
  t.mock.timers.tick(22);
  call.done();
  t.mock.timers.tick(10 * PROGRESS_DELAY_MS);
  assert.equal(quick.opened.length, 0, 'no toast for the quick call');

  const slow = toasts();
  const long = delayedProgress({ open: slow.open });
  long.report({ message: '1/4', increment: 25 });
  t.mock.timers.tick(PROGRESS_DELAY_MS - 1);
  assert.equal(slow.opened.length, 0, 'not before the delay');
  t.mock.timers.tick(1);
  assert.equal(slow.opened.length, 1, 'the toast shows at the delay');
  assert.deepEqual(slow.opened[0]?.updates, [{ message: '1/4', increment: 25 }], 'with the progress so far');
  long.report({ message: '2/4', increment: 25 });
  assert.deepEqual(slow.opened[0]?.updates.at(-1), { message: '2/4', increment: 25 });
  long.done();
  assert.equal(slow.opened[0]?.closed, true, 'the answer closes it');
});

test('while the review panel asks, the notification keeps off it and comes back when the panel is done', (t) => {
  fakeTimers(t);
  const panel = reviewPanel();
  const shown = toasts();
  const call = delayedProgress({ open: shown.open, quiet: panel });
  panel.set(true);
  t.mock.timers.tick(PROGRESS_DELAY_MS * 4);
  assert.equal(shown.opened.length, 0, 'not over the panel');
  call.report({ message: 'sampling' });
  panel.set(false);
  assert.equal(shown.opened.length, 1, 'shown once the panel is done');
  assert.deepEqual(shown.opened[0]?.updates, [{ message: 'sampling', increment: 0 }]);

  panel.set(true);
  assert.equal(shown.opened[0]?.closed, true, 'a second question closes it');
  panel.set(false);
  assert.equal(shown.opened.length, 2, 'and it comes back after');
  call.done();
  assert.equal(shown.opened[1]?.closed, true);
  panel.set(true);
  panel.set(false);
  assert.equal(shown.opened.length, 2, 'nothing after the call ended');
});

test('a call that ends while the panel asks never shows a notification', (t) => {
  fakeTimers(t);
  const panel = reviewPanel();
  const shown = toasts();
  const call = delayedProgress({ open: shown.open, quiet: panel });
  panel.set(true);
  t.mock.timers.tick(PROGRESS_DELAY_MS);
  call.done();
  panel.set(false);
  t.mock.timers.tick(PROGRESS_DELAY_MS);
  assert.equal(shown.opened.length, 0);
});
