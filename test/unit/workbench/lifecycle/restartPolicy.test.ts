import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, RestartPolicy } from '../../../../src/workbench/lifecycle/restartPolicy';

test('delays double from the base delay and are capped at the maximum', () => {
  const policy = new RestartPolicy({ baseDelayMs: 1000, maxDelayMs: 5000, maxCrashes: 10, windowMs: 600_000 });
  const delays = [0, 1, 2, 3, 4, 5].map((i) => policy.recordCrash(i * 10));
  assert.deepEqual(
    delays.map((d) => (d.kind === 'restart' ? d.delayMs : d.kind)),
    [1000, 2000, 4000, 5000, 5000, 5000],
  );
  assert.deepEqual(delays[2], { kind: 'restart', delayMs: 4000, attempt: 3 });
});

test('defaults: gives up at the fifth crash within two minutes and says how many in what time', () => {
  const policy = new RestartPolicy();
  for (let i = 0; i < 4; i++) assert.equal(policy.recordCrash(i * 10_000).kind, 'restart');
  const decision = policy.recordCrash(45_000);
  assert.equal(decision.kind, 'give-up');
  assert.equal(
    decision.kind === 'give-up' && decision.reason.startsWith('crashed 5 times in 45 s (limit: 5 within 2 min)'),
    true,
  );
  // The numbers the extension words the give-up from, in the person's language.
  assert.deepEqual(decision.kind === 'give-up' && decision.giveUp, {
    crashes: 5,
    spanMs: 45_000,
    limit: 5,
    windowMs: 120_000,
  });
  assert.ok(policy.hasGivenUp);
  // Stays given up, even much later, until a manual start.
  assert.equal(policy.recordCrash(10_000_000).kind, 'give-up');
  assert.equal(policy.recordHealthy(20_000_000), false);
});

test('crashes older than the window are forgotten', () => {
  const policy = new RestartPolicy({ maxCrashes: 3, windowMs: 60_000 });
  assert.equal(policy.recordCrash(0).kind, 'restart');
  assert.equal(policy.recordCrash(30_000).kind, 'restart');
  // The crash at 0 left the window; only 30 s and 70 s count.
  const third = policy.recordCrash(70_000);
  assert.deepEqual(third, { kind: 'restart', delayMs: 2000, attempt: 2 });
  assert.equal(policy.recentCrashes, 2);
  assert.equal(policy.recordCrash(80_000).kind, 'give-up');
});

test('reset() for a manual start clears crashes and a give-up', () => {
  const policy = new RestartPolicy({ maxCrashes: 2 });
  policy.recordCrash(0);
  assert.equal(policy.recordCrash(1).kind, 'give-up');
  policy.reset();
  assert.equal(policy.hasGivenUp, false);
  assert.deepEqual(policy.recordCrash(2), { kind: 'restart', delayMs: 1000, attempt: 1 });
});

test('a long healthy run forgets earlier crashes; a short one does not', () => {
  const policy = new RestartPolicy({ stableAfterMs: 60_000 });
  policy.recordCrash(0);
  policy.recordCrash(1000);
  policy.recordStarted(3000);
  assert.equal(policy.recordHealthy(30_000), false);
  assert.equal(policy.recentCrashes, 2);
  assert.equal(policy.recordHealthy(63_000), true);
  assert.equal(policy.recentCrashes, 0);
  assert.deepEqual(policy.recordCrash(64_000), { kind: 'restart', delayMs: 1000, attempt: 1 });
  // Without recordStarted, the run is measured from the last crash.
  assert.equal(policy.recordHealthy(64_000 + 59_999), false);
  assert.equal(policy.recordHealthy(64_000 + 60_000), true);
});

test('rejects nonsensical options', () => {
  assert.throws(() => new RestartPolicy({ baseDelayMs: 10, maxDelayMs: 5 }), RangeError);
  assert.throws(() => new RestartPolicy({ maxCrashes: 0 }), RangeError);
});

test('formatDuration', () => {
  assert.equal(formatDuration(250), '250 ms');
  assert.equal(formatDuration(45_000), '45 s');
  assert.equal(formatDuration(120_000), '2 min');
  assert.equal(formatDuration(125_000), '2 min 5 s');
});

test('a start that fails before any successful start is not restarted; after one successful run, failed restarts keep the backoff', () => {
  const policy = new RestartPolicy({ baseDelayMs: 100 });
  assert.equal(policy.recordStartFailure(0), undefined);
  assert.equal(policy.recordStartFailure(10), undefined);
  assert.equal(policy.recentCrashes, 0);
  policy.recordStarted(20);
  assert.deepEqual(policy.recordCrash(30), { kind: 'restart', delayMs: 100, attempt: 1 });
  // The restart fails during its handshake: still the crash loop, so the next delay doubles.
  assert.deepEqual(policy.recordStartFailure(140), { kind: 'restart', delayMs: 200, attempt: 2 });
  // A manual start hands control back to the person: a failure before the handshake is not retried again.
  policy.reset();
  assert.equal(policy.recordStartFailure(400), undefined);
});
