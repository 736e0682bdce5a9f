import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BurstDebounce } from '../../../../src/workbench/config/burstDebounce';

test('a file changing 100 times a second reloads once per max wait, not per change and not never', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let runs = 0;
  const debounce = new BurstDebounce(
    () => runs++,
    150,
    1000,
    () => Date.now(),
  );
  for (let tick = 0; tick < 300; tick++) {
    debounce.schedule();
    t.mock.timers.tick(10);
  }
  // 3 s of changes every 10 ms: one reload per second of the burst.
  assert.equal(runs, 3);
  t.mock.timers.tick(150);
  assert.equal(runs, 3, 'the reload at 3 s saw the last change (at 2.99 s): nothing more runs');
  debounce.dispose();
});

test('a single save reloads once, after the quiet period', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let runs = 0;
  const debounce = new BurstDebounce(
    () => runs++,
    150,
    1000,
    () => Date.now(),
  );
  debounce.schedule();
  debounce.schedule();
  t.mock.timers.tick(149);
  assert.equal(runs, 0);
  t.mock.timers.tick(1);
  assert.equal(runs, 1);
});
