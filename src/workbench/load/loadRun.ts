/**
 * The load generator: a mix of tool calls sent to one server through this project's client, either as a closed loop
 * (N calls outstanding, each answer sends the next) or as an open loop (calls sent on a schedule whatever the answers,
 * so a slow server shows as latency, not as a lower rate). It keeps no per-call sample: latencies go into a
 * fixed-size histogram and a per-second timeline, so a long run costs the client no more memory than a short one.
 *
 * Host-neutral: the clock, the timers and the client's CPU reading come from the caller (the CLI and the extension
 * pass Node's), so tests drive it with fake ones.
 */
import { LocalError, McpError } from '../../protocol/errors';
import { LatencyHistogram, type HistogramBucket } from './histogram';

/** One call of the mix. */
export interface LoadCall {
  tool: string;
  args: Record<string, unknown>;
}

/** What a call answered, as far as the load run counts it. */
export interface LoadCallOutcome {
  /** The tool's own error (`isError: true`): the server answered, the call failed. */
  isError?: boolean;
  /** The result's structuredContent did not match the tool's outputSchema. */
  outputInvalid?: boolean;
}

/** What the run calls: the client's callTool, narrowed (tests pass a fake). */
export type LoadCaller = (call: LoadCall, signal: AbortSignal) => Promise<LoadCallOutcome>;

export type LoadShape =
  /** Closed loop: `concurrency` calls outstanding at all times. */
  | { kind: 'closed'; concurrency: number }
  /**
   * Open loop: `ratePerS` calls a second on schedule. At most `maxOutstanding` wait for their answer: a scheduled call
   * past it is not sent (and counted), so a server slower than the rate cannot make the client hold ever more calls.
   */
  | { kind: 'open'; ratePerS: number; maxOutstanding: number };

export interface LoadClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** The client process's CPU time so far in microseconds (user + system), or undefined where it cannot be read. */
  cpuMicros?(): number;
}

export interface LoadOptions {
  calls: readonly LoadCall[];
  shape: LoadShape;
  /** Stop after this many calls were sent (and answered). */
  requests?: number;
  /** Stop sending after this long; the calls outstanding then are awaited. */
  durationMs?: number;
  /** Stops the run at once: outstanding calls are cancelled and not counted; the report says so. */
  signal?: AbortSignal;
  /** Each second of the run as it completes. */
  onSecond?(second: LoadSecond): void;
  /**
   * A snapshot every `snapshotEveryMs` (default 500 ms) and one at the end: the editor's live chart draws latency
   * percentiles and throughput from them. The percentiles are of the calls answered since the previous snapshot (a
   * histogram of its own, emptied at each), so a server slowing down shows at once, not diluted by the run so far.
   */
  onSnapshot?(snapshot: LoadSnapshot): void;
  snapshotEveryMs?: number;
  clock?: LoadClock;
}

export interface LoadSecond {
  /** Seconds since the start: 0 is the first second. */
  second: number;
  /** Calls sent in this second. */
  sent: number;
  /** Calls answered in this second (successes and errors). */
  completed: number;
  errors: number;
  meanMs: number;
  maxMs: number;
}

export interface LoadSnapshot {
  /** Milliseconds since the start of the run. */
  atMs: number;
  /** Since the start: calls answered (successes and errors), errors, calls waiting for their answer now. */
  requests: number;
  errors: number;
  outstanding: number;
  /** The interval since the previous snapshot: its length, the calls answered in it and their rate. */
  intervalMs: number;
  completed: number;
  throughputPerS: number;
  /** Latency percentiles of the calls answered in the interval; null when none was. */
  p50Ms: number | null;
  p99Ms: number | null;
  /** The run's last snapshot (it ended, or was stopped). */
  final: boolean;
}

/** How often a snapshot is taken when the caller asks for them and says no interval. */
const DEFAULT_SNAPSHOT_MS = 500;

export interface LoadReport {
  /** Calls answered (successes and errors); calls cancelled by a stop are not in it. */
  requests: number;
  errors: number;
  /** Errors by kind: `tool-error`, `output-invalid`, `server-error <code>`, or the client's own kind (`timeout`, …). */
  errorsByKind: Record<string, number>;
  elapsedMs: number;
  throughputPerS: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; min: number; mean: number };
  histogram: HistogramBucket[];
  /** CPU time of the client process over wall time, in percent of one core; null where it cannot be read. */
  clientCpuPercent: number | null;
  timeline: LoadSecond[];
  /** The run was stopped (Ctrl+C, Cancel) before it ended on its own. */
  interrupted: boolean;
  /** Calls outstanding when the run was stopped: cancelled, not counted. */
  abandoned: number;
  /** Open loop only: scheduled calls not sent because `maxOutstanding` calls were waiting (the client saturated). */
  notSent: number;
  /** What the numbers need to be read with (client saturated, client busy). */
  notes: string[];
}

/** Above this share of one core, the client may have been the bottleneck: the report says so. */
const BUSY_CLIENT_PERCENT = 80;
/** 7 calls due at 140 ms at 50/s: 0.14 * 50 is 6.999… in floating point, which would leave the seventh unsent. */
const DUE_EPSILON = 1e-9;
/** The report's histogram: 8 buckets per doubling (12 % wide) is enough to draw; the percentiles use the fine ones. */
const HISTOGRAM_STEPS_PER_DOUBLING = 8;

const nodeLikeClock: LoadClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The kind an error counts under. */
export function errorKind(error: unknown): string {
  if (error instanceof McpError) return `server-error ${error.code}`;
  if (error instanceof LocalError) return error.kind;
  return 'other';
}

interface SignalGroup {
  controller: AbortController;
  users: number;
}

/**
 * The signals calls are cancelled with. One signal for every call of the run would carry thousands of listeners (each
 * call listens to its signal), which Node reports as a leak past 10; a fresh signal per call cost ~5 µs a call in the
 * bench (the first listener on a new AbortSignal is the expensive one). So calls share a signal, at most SHARERS at a
 * time, and a signal is reused as its calls end: a closed loop of one call uses one signal for the whole run.
 */
class SignalPool {
  private static readonly SHARERS = 8;
  private readonly all: SignalGroup[] = [];
  private readonly notFull: SignalGroup[] = [];

  acquire(): SignalGroup {
    let group = this.notFull.at(-1);
    if (!group) {
      group = { controller: new AbortController(), users: 0 };
      this.all.push(group);
      this.notFull.push(group);
    }
    group.users++;
    if (group.users === SignalPool.SHARERS) this.notFull.pop();
    return group;
  }

  release(group: SignalGroup): void {
    group.users--;
    if (group.users === SignalPool.SHARERS - 1) this.notFull.push(group);
  }

  abortAll(reason: unknown): void {
    for (const group of this.all) group.controller.abort(reason);
  }
}

class Timeline {
  private readonly seconds: LoadSecond[] = [];
  private sums: number[] = [];

  constructor(private readonly onSecond: ((second: LoadSecond) => void) | undefined) {}

  private at(second: number): LoadSecond {
    while (this.seconds.length <= second) {
      // A second is final once a later one begins: hand it to the live view then.
      const previous = this.seconds.at(-1);
      if (previous) this.finish(previous);
      this.seconds.push({ second: this.seconds.length, sent: 0, completed: 0, errors: 0, meanMs: 0, maxMs: 0 });
      this.sums.push(0);
    }
    return this.seconds[second];
  }

  private finish(entry: LoadSecond): void {
    entry.meanMs = entry.completed === 0 ? 0 : this.sums[entry.second] / entry.completed;
    this.onSecond?.({ ...entry });
  }

  sent(second: number): void {
    this.at(second).sent++;
  }

  completed(second: number, ms: number, failed: boolean): void {
    const entry = this.at(second);
    entry.completed++;
    if (failed) entry.errors++;
    this.sums[second] += ms;
    if (ms > entry.maxMs) entry.maxMs = ms;
  }

  end(): LoadSecond[] {
    const last = this.seconds.at(-1);
    if (last) this.finish(last);
    return this.seconds.map((entry) => ({ ...entry }));
  }
}

interface Counts {
  answered: number;
  errors: number;
  outstanding: number;
}

/** The live view's snapshots: a timer on the run's clock and a histogram of the calls answered since the last one. */
class Snapshots {
  private readonly interval = new LatencyHistogram();
  private intervalStart: number;
  private timer: unknown;

  constructor(
    private readonly onSnapshot: (snapshot: LoadSnapshot) => void,
    private readonly clock: LoadClock,
    private readonly started: number,
  ) {
    this.intervalStart = started;
  }

  schedule(everyMs: number, counts: () => Counts): void {
    this.timer = this.clock.setTimeout(() => {
      this.take(counts(), false);
      this.schedule(everyMs, counts);
    }, everyMs);
  }

  record(ms: number): void {
    this.interval.record(ms);
  }

  end(counts: Counts): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.take(counts, true);
  }

  private take(counts: Counts, final: boolean): void {
    const now = this.clock.now();
    const intervalMs = now - this.intervalStart;
    const completed = this.interval.count;
    const snapshot: LoadSnapshot = {
      atMs: round(now - this.started, 3),
      requests: counts.answered,
      errors: counts.errors,
      outstanding: counts.outstanding,
      intervalMs: round(intervalMs, 3),
      completed,
      throughputPerS: intervalMs > 0 ? round((completed / intervalMs) * 1000, 1) : 0,
      p50Ms: completed === 0 ? null : round(this.interval.percentileMs(50), 3),
      p99Ms: completed === 0 ? null : round(this.interval.percentileMs(99), 3),
      final,
    };
    this.interval.reset();
    this.intervalStart = now;
    this.onSnapshot(snapshot);
  }
}

export function validateLoadOptions(options: LoadOptions): string | undefined {
  if (options.calls.length === 0)
    return 'the load needs at least one call (--tool NAME, or --recording F.mcptest.json)';
  if (options.requests === undefined && options.durationMs === undefined)
    return 'the load needs an end: --requests N or --duration S';
  if (options.requests !== undefined && (!Number.isInteger(options.requests) || options.requests <= 0))
    return '--requests needs a positive whole number';
  if (options.durationMs !== undefined && !(options.durationMs > 0)) return '--duration needs a positive number';
  if (options.snapshotEveryMs !== undefined && !(options.snapshotEveryMs > 0))
    return 'the snapshot interval needs a positive number of milliseconds';
  const shape = options.shape;
  switch (shape.kind) {
    case 'closed':
      return Number.isInteger(shape.concurrency) && shape.concurrency > 0
        ? undefined
        : '--concurrency needs a positive whole number';
    case 'open':
      if (!(shape.ratePerS > 0)) return '--rate needs a positive number of calls per second';
      return Number.isInteger(shape.maxOutstanding) && shape.maxOutstanding > 0
        ? undefined
        : '--max-outstanding needs a positive whole number';
  }
}

export async function runLoad(caller: LoadCaller, options: LoadOptions): Promise<LoadReport> {
  const problem = validateLoadOptions(options);
  if (problem) throw new RangeError(problem);
  const clock = options.clock ?? nodeLikeClock;
  const histogram = new LatencyHistogram();
  const timeline = new Timeline(options.onSecond);
  const errorsByKind: Record<string, number> = {};
  const stop = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => stop.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  if (outer?.aborted) onOuterAbort();

  const started = clock.now();
  const cpuAtStart = clock.cpuMicros?.();
  const deadline = options.durationMs === undefined ? Number.POSITIVE_INFINITY : started + options.durationMs;
  let sent = 0;
  let answered = 0;
  let errors = 0;
  let outstanding = 0;
  let notSent = 0;
  let lastAnswerAt = started;
  const secondOf = (time: number) => Math.max(0, Math.floor((time - started) / 1000));
  const maySend = () => !stop.signal.aborted && (options.requests === undefined || sent < options.requests);

  const snapshots = options.onSnapshot ? new Snapshots(options.onSnapshot, clock, started) : undefined;
  snapshots?.schedule(options.snapshotEveryMs ?? DEFAULT_SNAPSHOT_MS, () => ({ answered, errors, outstanding }));

  const signals = new SignalPool();
  stop.signal.addEventListener('abort', () => signals.abortAll(stop.signal.reason));
  let wake: (() => void) | undefined;
  const settledAll = () => outstanding === 0;

  const send = (): Promise<void> => {
    const call = options.calls[sent % options.calls.length];
    sent++;
    outstanding++;
    const at = clock.now();
    timeline.sent(secondOf(at));
    const finish = (failure: string | undefined) => {
      outstanding--;
      if (!stop.signal.aborted) {
        const end = clock.now();
        lastAnswerAt = end;
        const ms = end - at;
        answered++;
        histogram.record(ms);
        snapshots?.record(ms);
        if (failure !== undefined) {
          errors++;
          errorsByKind[failure] = (errorsByKind[failure] ?? 0) + 1;
        }
        timeline.completed(secondOf(end), ms, failure !== undefined);
      }
      wake?.();
    };
    const group = signals.acquire();
    return caller(call, group.controller.signal)
      .finally(() => signals.release(group))
      .then(
        (outcome) => finish(outcome.isError ? 'tool-error' : outcome.outputInvalid ? 'output-invalid' : undefined),
        (error: unknown) => finish(errorKind(error)),
      );
  };

  const stopped = new Promise<void>((resolve) => {
    if (stop.signal.aborted) resolve();
    else stop.signal.addEventListener('abort', () => resolve(), { once: true });
  });

  if (options.shape.kind === 'closed') {
    const worker = async (): Promise<void> => {
      while (maySend() && clock.now() < deadline) await send();
    };
    const workers = Promise.all(Array.from({ length: options.shape.concurrency }, worker));
    // A stop ends the run at once: the workers' calls are being cancelled, their answers are not waited for.
    await Promise.race([workers, stopped]);
  } else {
    const { ratePerS, maxOutstanding } = options.shape;
    let scheduled = 0;
    await new Promise<void>((resolve) => {
      let timer: unknown;
      const done = () => {
        if (timer !== undefined) clock.clearTimeout(timer);
        stop.signal.removeEventListener('abort', done);
        resolve();
      };
      stop.signal.addEventListener('abort', done, { once: true });
      const tick = () => {
        timer = undefined;
        const now = clock.now();
        // How many calls the schedule had due by now (one at the start, then one every 1/rate s, none at or after the
        // deadline): the rate holds over the run, however late the timer fires.
        let due =
          now >= deadline
            ? Math.ceil(((deadline - started) / 1000) * ratePerS)
            : Math.floor(((now - started) / 1000) * ratePerS + DUE_EPSILON) + 1;
        if (options.requests !== undefined) due = Math.min(due, options.requests);
        while (scheduled < due && maySend()) {
          scheduled++;
          if (outstanding >= maxOutstanding) notSent++;
          else void send();
        }
        const finished = now >= deadline || (options.requests !== undefined && scheduled >= options.requests);
        if (finished || stop.signal.aborted) {
          done();
          return;
        }
        const nextDue = started + (scheduled / ratePerS) * 1000;
        // At least a millisecond: a timer for "now" would find nothing due and spin (Node waits 1 ms anyway).
        timer = clock.setTimeout(tick, Math.max(1, Math.min(nextDue, deadline) - now));
      };
      tick();
    });
    // The calls still outstanding are answered (or time out) before the report: each one is part of the measure.
    await Promise.race([
      new Promise<void>((resolve) => {
        wake = () => {
          if (settledAll()) resolve();
        };
        wake();
      }),
      stopped,
    ]);
  }
  outer?.removeEventListener('abort', onOuterAbort);
  const interrupted = stop.signal.aborted;
  const abandoned = interrupted ? outstanding : 0;
  snapshots?.end({ answered, errors, outstanding: interrupted ? 0 : outstanding });
  // After an interrupt the outstanding calls are being cancelled: stop aborts them all now.
  if (!interrupted) stop.abort();
  const endedAt = interrupted ? clock.now() : Math.max(lastAnswerAt, started);
  const elapsedMs = endedAt - started;
  const cpuAtEnd = clock.cpuMicros?.();
  const clientCpuPercent =
    cpuAtStart === undefined || cpuAtEnd === undefined || elapsedMs <= 0
      ? null
      : round(((cpuAtEnd - cpuAtStart) / 1000 / elapsedMs) * 100, 1);
  const notes: string[] = [];
  if (notSent > 0 && options.shape.kind === 'open')
    notes.push(
      `client saturated: ${notSent} scheduled calls were not sent because ${options.shape.maxOutstanding} calls were already waiting for an answer; the server answers slower than ${options.shape.ratePerS}/s (raise --max-outstanding to hold more)`,
    );
  if (clientCpuPercent !== null && clientCpuPercent >= BUSY_CLIENT_PERCENT)
    notes.push(
      `the client used ${clientCpuPercent}% of a core: it may have been the bottleneck, so the server may hold more than this run shows`,
    );
  if (interrupted) notes.push(`stopped before the end: ${abandoned} calls outstanding were cancelled and not counted`);
  return {
    requests: answered,
    errors,
    errorsByKind,
    elapsedMs: round(elapsedMs, 3),
    throughputPerS: elapsedMs > 0 ? round((answered / elapsedMs) * 1000, 1) : 0,
    latencyMs: {
      p50: round(histogram.percentileMs(50), 3),
      p90: round(histogram.percentileMs(90), 3),
      p99: round(histogram.percentileMs(99), 3),
      max: round(histogram.maxMs, 3),
      min: round(histogram.minMs, 3),
      mean: round(histogram.meanMs, 3),
    },
    histogram: histogram.buckets(HISTOGRAM_STEPS_PER_DOUBLING),
    clientCpuPercent,
    timeline: timeline.end(),
    interrupted,
    abandoned,
    notSent,
    notes,
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
