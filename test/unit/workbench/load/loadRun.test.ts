import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LocalError, McpError } from '../../../../src/protocol/errors';
import {
  runLoad,
  type LoadCall,
  type LoadClock,
  type LoadSecond,
  type LoadSnapshot,
} from '../../../../src/workbench/load/loadRun';

/** A clock the test moves: timers fire when `advance` passes their time. */
class FakeClock implements LoadClock {
  time = 0;
  cpu = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.time;
  cpuMicros = () => this.cpu;
  setTimeout = (callback: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.time + ms, callback, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.timers = this.timers.filter((timer) => timer.id !== id);
  };
  /** Moves time forward in steps of `stepMs`, firing due timers and letting promises settle in between. */
  async advance(ms: number, stepMs = 1): Promise<void> {
    const end = this.time + ms;
    while (this.time < end) {
      this.time = Math.min(end, this.time + stepMs);
      for (;;) {
        const due = this.timers.filter((timer) => timer.at <= this.time);
        if (due.length === 0) break;
        this.timers = this.timers.filter((timer) => timer.at > this.time);
        for (const timer of due) timer.callback();
      }
      // Every promise the fired timers settled runs its reactions before time moves on.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const ECHO: LoadCall[] = [{ tool: 'echo', args: { text: 'x' } }];

describe('runLoad', () => {
  test('closed loop: exactly --requests calls, never more than --concurrency at once, every answer counted', async () => {
    let outstanding = 0;
    let most = 0;
    const report = await runLoad(
      async () => {
        outstanding++;
        most = Math.max(most, outstanding);
        await new Promise((resolve) => setImmediate(resolve));
        outstanding--;
        return {};
      },
      { calls: ECHO, shape: { kind: 'closed', concurrency: 5 }, requests: 103 },
    );
    assert.equal(report.requests, 103);
    assert.equal(most, 5);
    assert.equal(report.errors, 0);
    assert.equal(
      report.histogram.reduce((sum, bucket) => sum + bucket.count, 0),
      103,
    );
    assert.equal(report.interrupted, false);
  });

  test('errors are counted by kind: the tool’s own, the server’s JSON-RPC code, the client’s kind', async () => {
    let index = 0;
    const report = await runLoad(
      async () => {
        switch (index++ % 4) {
          case 0:
            return { isError: true };
          case 1:
            throw new McpError(-32602, 'bad arguments');
          case 2:
            throw new LocalError('timeout', 'timed out');
          default:
            return { outputInvalid: true };
        }
      },
      { calls: ECHO, shape: { kind: 'closed', concurrency: 2 }, requests: 8 },
    );
    assert.equal(report.requests, 8);
    assert.equal(report.errors, 8);
    assert.deepEqual(report.errorsByKind, {
      'tool-error': 2,
      'server-error -32602': 2,
      timeout: 2,
      'output-invalid': 2,
    });
  });

  test('the call mix is sent in turn', async () => {
    const seen: string[] = [];
    await runLoad(
      async (call) => {
        seen.push(call.tool);
        return {};
      },
      {
        calls: [
          { tool: 'a', args: {} },
          { tool: 'b', args: {} },
        ],
        shape: { kind: 'closed', concurrency: 1 },
        requests: 5,
      },
    );
    assert.deepEqual(seen, ['a', 'b', 'a', 'b', 'a']);
  });

  test(
    'open loop: sends on schedule whatever the answers, and a slow server shows as latency',
    { timeout: 10_000 },
    async () => {
      const clock = new FakeClock();
      const answers: (() => void)[] = [];
      const seconds: LoadSecond[] = [];
      const run = runLoad(
        () =>
          new Promise((resolve) => {
            const sentAt = clock.time;
            clock.cpu += 2500; // 2.5 ms of the client's CPU per call
            // The server takes 300 ms for every call.
            clock.setTimeout(() => resolve({}), 300);
            answers.push(() => sentAt);
          }),
        {
          calls: ECHO,
          shape: { kind: 'open', ratePerS: 50, maxOutstanding: 1000 },
          durationMs: 2000,
          clock,
          onSecond: (second) => seconds.push(second),
        },
      );
      await clock.advance(2500);
      const report = await run;
      assert.equal(answers.length, 100, 'two seconds at 50/s, though no answer came for 300 ms');
      assert.equal(report.requests, 100);
      assert.ok(report.latencyMs.p50 >= 299 && report.latencyMs.p50 <= 302, `p50 ${report.latencyMs.p50}`);
      assert.deepEqual(
        report.timeline.map((second) => second.sent),
        [50, 50, 0],
      );
      assert.deepEqual(
        seconds.map((second) => second.second),
        [0, 1, 2],
        'each second reached the live view once',
      );
      assert.equal(report.notSent, 0);
      assert.equal(report.elapsedMs, 2280, 'from the first call to the last answer (sent at 1980 ms)');
      assert.equal(report.clientCpuPercent, 11, '250 ms of CPU in 2280 ms');
    },
  );

  test(
    'open loop: past --max-outstanding the client does not send, counts it and says it saturated',
    { timeout: 10_000 },
    async () => {
      const clock = new FakeClock();
      const run = runLoad(() => new Promise((resolve) => clock.setTimeout(() => resolve({}), 1000)), {
        calls: ECHO,
        shape: { kind: 'open', ratePerS: 100, maxOutstanding: 10 },
        durationMs: 500,
        clock,
      });
      await clock.advance(2000);
      const report = await run;
      assert.equal(report.requests, 10);
      assert.equal(report.notSent, 40);
      assert.match(report.notes.join('\n'), /client saturated: 40 scheduled calls were not sent because 10 calls/);
    },
  );

  test('a stop ends the run at once: outstanding calls are cancelled, not counted, and reported', async () => {
    const stop = new AbortController();
    const cancelled: string[] = [];
    let calls = 0;
    const run = runLoad(
      (_call, signal) =>
        new Promise((resolve, reject) => {
          calls++;
          if (calls <= 6) {
            setImmediate(() => resolve({}));
            return;
          }
          // Later calls never answer: only the stop ends them.
          signal.addEventListener('abort', () => {
            cancelled.push('x');
            reject(new LocalError('cancelled', 'cancelled'));
          });
          if (calls === 9) stop.abort('SIGINT');
        }),
      { calls: ECHO, shape: { kind: 'closed', concurrency: 3 }, durationMs: 60_000, signal: stop.signal },
    );
    const report = await run;
    assert.equal(report.interrupted, true);
    assert.equal(report.requests, 6);
    assert.equal(report.abandoned, 3);
    assert.equal(cancelled.length, 3);
    assert.equal(report.errors, 0, 'a cancelled call is not an error of the server');
    assert.match(report.notes.join('\n'), /stopped before the end: 3 calls outstanding were cancelled/);
  });

  test('calls share their cancellation signals: one for a loop of one call, never more than 8 calls on one', async () => {
    const seen = new Set<AbortSignal>();
    await runLoad(
      async (_call, signal) => {
        seen.add(signal);
        return {};
      },
      { calls: ECHO, shape: { kind: 'closed', concurrency: 1 }, requests: 50 },
    );
    assert.equal(seen.size, 1, 'a fresh signal per call cost more than the rest of the generator');
    const users = new Map<AbortSignal, number>();
    let most = 0;
    const signals = new Set<AbortSignal>();
    await runLoad(
      async (_call, signal) => {
        signals.add(signal);
        users.set(signal, (users.get(signal) ?? 0) + 1);
        most = Math.max(most, users.get(signal)!);
        await new Promise((resolve) => setImmediate(resolve));
        users.set(signal, users.get(signal)! - 1);
        return {};
      },
      { calls: ECHO, shape: { kind: 'closed', concurrency: 64 }, requests: 1000 },
    );
    assert.equal(most, 8, 'Node warns past 10 listeners on one signal');
    assert.equal(signals.size, 8, '64 calls at a time: 8 signals, reused');
  });

  test('a busy client is called out', async () => {
    const clock = new FakeClock();
    const run = runLoad(
      () =>
        new Promise((resolve) => {
          clock.cpu += 9_000; // 9 ms of CPU per 10 ms call
          clock.setTimeout(() => resolve({}), 10);
        }),
      { calls: ECHO, shape: { kind: 'closed', concurrency: 1 }, requests: 20, clock },
    );
    await clock.advance(400);
    const report = await run;
    assert.ok(report.clientCpuPercent !== null && report.clientCpuPercent >= 80);
    assert.match(report.notes.join('\n'), /may have been the bottleneck/);
  });

  test('options without an end or with a bad number are refused before any call', async () => {
    const never = async () => assert.fail('no call');
    await assert.rejects(runLoad(never, { calls: ECHO, shape: { kind: 'closed', concurrency: 1 } }), /needs an end/);
    await assert.rejects(
      runLoad(never, { calls: ECHO, shape: { kind: 'closed', concurrency: 0 }, requests: 1 }),
      /--concurrency/,
    );
    await assert.rejects(
      runLoad(never, { calls: [], shape: { kind: 'closed', concurrency: 1 }, requests: 1 }),
      /at least one call/,
    );
  });
});

describe('runLoad snapshots (the live chart)', () => {
  test(
    'a snapshot every interval with the percentiles of the calls answered in it, and one final at the end',
    { timeout: 10_000 },
    async () => {
      const clock = new FakeClock();
      const snapshots: LoadSnapshot[] = [];
      const run = runLoad(
        () =>
          new Promise((resolve) => {
            // The server answers in 20 ms during the first second, then slows down to 200 ms.
            clock.setTimeout(() => resolve({}), clock.time < 1000 ? 20 : 200);
          }),
        {
          calls: ECHO,
          shape: { kind: 'open', ratePerS: 100, maxOutstanding: 1000 },
          durationMs: 2000,
          clock,
          snapshotEveryMs: 500,
          onSnapshot: (snapshot) => snapshots.push(snapshot),
        },
      );
      await clock.advance(2500);
      const report = await run;
      assert.deepEqual(
        snapshots.filter((snapshot) => !snapshot.final).map((snapshot) => snapshot.atMs),
        [500, 1000, 1500, 2000],
      );
      const [first, , third] = snapshots;
      assert.ok(first.p50Ms !== null && first.p50Ms >= 19.5 && first.p50Ms <= 20.5, `first p50 ${first.p50Ms}`);
      assert.ok(first.throughputPerS >= 90 && first.throughputPerS <= 110, `first rate ${first.throughputPerS}`);
      // The interval's own histogram: the slow-down shows at once, not averaged with the fast first second.
      assert.ok(third.p50Ms !== null && third.p50Ms >= 195 && third.p50Ms <= 205, `third p50 ${third.p50Ms}`);
      assert.ok(third.p99Ms !== null && third.p99Ms >= 195 && third.p99Ms <= 205, `third p99 ${third.p99Ms}`);
      const last = snapshots[snapshots.length - 1];
      assert.equal(last.final, true);
      assert.equal(snapshots.filter((snapshot) => snapshot.final).length, 1);
      assert.equal(last.requests, report.requests, 'the final snapshot has the run’s totals');
      assert.equal(last.outstanding, 0);
      assert.equal(
        snapshots.reduce((sum, snapshot) => sum + snapshot.completed, 0),
        report.requests,
        'every answered call is in exactly one interval',
      );
      const count = snapshots.length;
      await clock.advance(5000);
      assert.equal(snapshots.length, count, 'no snapshot after the run ended (its timer is cleared)');
    },
  );

  test('a stop takes the final snapshot at once; an interval without answers has no percentiles', async () => {
    const clock = new FakeClock();
    const stop = new AbortController();
    const snapshots: LoadSnapshot[] = [];
    const run = runLoad(
      (_call, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled')))),
      {
        calls: ECHO,
        shape: { kind: 'closed', concurrency: 4 },
        durationMs: 60_000,
        clock,
        signal: stop.signal,
        snapshotEveryMs: 250,
        onSnapshot: (snapshot) => snapshots.push(snapshot),
      },
    );
    await clock.advance(600);
    assert.equal(snapshots.length, 2);
    assert.deepEqual(
      snapshots.map((snapshot) => [snapshot.p50Ms, snapshot.p99Ms, snapshot.outstanding, snapshot.final]),
      [
        [null, null, 4, false],
        [null, null, 4, false],
      ],
    );
    stop.abort('cancel');
    const report = await run;
    assert.equal(report.interrupted, true);
    assert.equal(snapshots.length, 3);
    assert.equal(snapshots[2].final, true);
    assert.equal(snapshots[2].outstanding, 0, 'the cancelled calls are not waiting any more');
    await clock.advance(1000);
    assert.equal(snapshots.length, 3, 'no snapshot after the stop');
  });

  test('a snapshot interval that is not positive is refused', async () => {
    await assert.rejects(
      runLoad(async () => ({}), {
        calls: ECHO,
        shape: { kind: 'closed', concurrency: 1 },
        requests: 1,
        snapshotEveryMs: 0,
        onSnapshot: () => undefined,
      }),
      /snapshot interval/,
    );
  });
});
