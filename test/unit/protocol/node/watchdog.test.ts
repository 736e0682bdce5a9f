/**
 * The watchdog's own timers while the client lives (issue 42: no timer of ours wakes more than once a minute while
 * servers sit idle). Its program runs here in a VM context with a fake `process` and recorded timers, so no process
 * is started; the real watchdog is exercised end to end in test/component/protocol/node/processes.test.ts.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import * as vm from 'node:vm';
import { watchdogSource } from '../../../../src/protocol/node/watchdog';

interface Armed {
  callback: () => void;
  ms: number;
}

function runWatchdog(): { intervals: Armed[]; process: { ppid: number; exited: number | undefined } } {
  const intervals: Armed[] = [];
  const fakeProcess = {
    ppid: 4242,
    exited: undefined as number | undefined,
    on: () => fakeProcess,
    exit: (code: number) => void (fakeProcess.exited = code),
    stdin: { setEncoding: () => undefined, on: () => undefined },
  };
  vm.runInNewContext(watchdogSource('linux'), {
    process: fakeProcess,
    require: (name: string) => (name === 'fs' ? fs : { spawnSync: () => ({}) }),
    setInterval: (callback: () => void, ms: number) => intervals.push({ callback, ms }),
    clearInterval: () => undefined,
  });
  return { intervals, process: fakeProcess };
}

test('while its client lives, the watchdog wakes at most once a minute', () => {
  const { intervals } = runWatchdog();
  assert.ok(intervals.length > 0, 'it still checks its parent pid as a fallback to the end of its stdin');
  for (const { ms } of intervals) assert.ok(ms >= 60_000, `an interval of ${ms} ms wakes it more than once a minute`);
});

test('the parent-pid fallback still ends the watchdog once the client is gone', () => {
  const { intervals, process } = runWatchdog();
  intervals[0].callback();
  assert.equal(process.exited, undefined, 'the same parent: nothing happens');
  process.ppid = 1;
  intervals[0].callback();
  assert.equal(process.exited, 0, 'a new parent (the client died): it ends what it guards and exits');
});
