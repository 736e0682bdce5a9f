/**
 * The lint of a server with thousands of tools runs in slices that give the event loop back between them
 * (src/workbench/lint/slices.ts, lintServerSteps), on fake timers and a fake clock: the extension host keeps
 * answering (the Servers view's first rows, issue 42) while the badges are computed, and the report is the same.
 */
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { mock } from 'node:test';
import { lintServer, lintServerSteps, type LintInput } from '../../../../src/workbench/lint/lintServer';
import { drainInSlices, SettleDelay } from '../../../../src/workbench/lint/slices';

afterEach(() => mock.timers.reset());

const schema = { type: 'object', properties: { text: { type: 'string', description: 'Any text' } } };
const manyTools: LintInput = {
  serverName: 'many',
  protocolVersion: '2025-11-25',
  tools: Array.from({ length: 1_000 }, (_, index) => ({
    name: `tool-${index}`,
    description: `Fixture tool number ${index}.`,
    inputSchema: schema,
  })),
};

/** One turn of the event loop: the timer between slices fires and the slice after it runs. */
async function nextTurn(): Promise<void> {
  mock.timers.tick(1);
  for (let microtask = 0; microtask < 5; microtask++) await Promise.resolve();
}

/** Steps that each cost `msPerStep` on a fake clock, counting how many ran. */
function countedSteps(count: number, clock: { now: number }, msPerStep: number) {
  const ran = { steps: 0 };
  function* steps(): Generator<void, string, void> {
    for (let index = 0; index < count; index++) {
      ran.steps++;
      clock.now += msPerStep;
      yield;
    }
    return 'done';
  }
  return { ran, steps: steps() };
}

test('a slice runs at most its time, and the next one only after a timer turn', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  const clock = { now: 0 };
  const { ran, steps } = countedSteps(20, clock, 2);
  const result = drainInSlices(steps, { sliceMs: 8, now: () => clock.now });
  assert.equal(ran.steps, 4, 'the first slice ran 8 ms of 2 ms steps, at once');
  await Promise.resolve();
  assert.equal(ran.steps, 4, 'the next slice ran without the event loop having had a turn');
  for (let slice = 2; slice <= 5; slice++) {
    await nextTurn();
    assert.equal(ran.steps, Math.min(20, slice * 4), `slice ${slice} ran its 8 ms of steps`);
  }
  await nextTurn(); // the generator's end (its last next()) comes in a slice of its own
  assert.equal(ran.steps, 20);
  assert.equal(await result, 'done');
});

test('a cancelled run stops at the next slice and resolves to undefined', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  const clock = { now: 0 };
  const { ran, steps } = countedSteps(20, clock, 4);
  let cancelled = false;
  const result = drainInSlices(steps, { sliceMs: 8, now: () => clock.now, cancelled: () => cancelled });
  assert.equal(ran.steps, 2);
  cancelled = true;
  await nextTurn();
  assert.equal(await result, undefined);
  assert.equal(ran.steps, 2, 'a step ran after the run was cancelled');
});

test('the lint in steps pauses every 25 tools and reports what the lint at once reports', () => {
  const steps = lintServerSteps(manyTools);
  let pauses = 0;
  let step = steps.next();
  while (!step.done) {
    pauses++;
    step = steps.next();
  }
  assert.equal(pauses, 39, '1,000 tools in steps of 25');
  assert.deepEqual(step.value, lintServer(manyTools));
});

test('what just appeared waits until it has been seen for the delay; each key on its own clock', () => {
  const clock = { now: 1_000 };
  const settle = new SettleDelay<object>(1_000, () => clock.now);
  const started = {};
  assert.equal(settle.wait(started), 1_000, 'a session seen for the first time waits the whole delay');
  clock.now += 600;
  assert.equal(settle.wait(started), 400);
  const later = {};
  assert.equal(settle.wait(later), 1_000, "another session's clock starts when it is first seen");
  clock.now += 400;
  assert.equal(settle.wait(started), 0, 'after the delay it is due');
  assert.equal(settle.wait(later), 600);
});
