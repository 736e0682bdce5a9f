/** When an app's own display-mode switch may take the keyboard focus (src/workbench/apps/hostContext.ts). */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { APP_GESTURE_WINDOW_MS, switchTakesFocus } from '../../../../src/workbench/apps/hostContext';

test('a switch takes the focus only within a second of the person acting in the app', () => {
  const now = 50_000;
  assert.equal(switchTakesFocus(undefined, now), false, 'never acted in the app: a switch on its own');
  assert.equal(switchTakesFocus(now - 200, now), true);
  assert.equal(switchTakesFocus(now - APP_GESTURE_WINDOW_MS, now), true);
  assert.equal(switchTakesFocus(now - APP_GESTURE_WINDOW_MS - 1, now), false, 'a gesture long ago');
  assert.equal(switchTakesFocus(now + 10, now), false, 'a time from the future (a clock change) counts as none');
});
