/**
 * Decides whether a crashed server is restarted, and after how long. Backoff doubles per crash inside a sliding
 * window so a server that dies at start-up does not spin, and the policy gives up after too many crashes so the
 * user sees a clear error instead of an endless restart loop. A long healthy run forgets old crashes.
 */

export interface RestartPolicyOptions {
  /** Delay before the first automatic restart. */
  baseDelayMs?: number;
  /** Upper bound for the doubled delay. */
  maxDelayMs?: number;
  /** Crashes inside `windowMs` after which the policy gives up. */
  maxCrashes?: number;
  /** Sliding window in which crashes are counted. */
  windowMs?: number;
  /** How long a run must last before `recordHealthy` forgets earlier crashes; defaults to `windowMs / 2`. */
  stableAfterMs?: number;
}

/** Why automatic restarts stopped: the crashes counted, in how long, against which limit. */
export interface GiveUp {
  crashes: number;
  spanMs: number;
  limit: number;
  windowMs: number;
}

export type RestartDecision =
  { kind: 'restart'; delayMs: number; attempt: number } | { kind: 'give-up'; giveUp: GiveUp; reason: string };

/** A give-up in English, for logs and the CLI (the extension words it from the numbers, in the person's language). */
export function describeGiveUp({ crashes, spanMs, limit, windowMs }: GiveUp): string {
  return (
    `crashed ${crashes} times in ${formatDuration(spanMs)} (limit: ${limit} within ${formatDuration(windowMs)}); ` +
    'not restarting automatically. Fix the cause and start it again.'
  );
}

export class RestartPolicy {
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly maxCrashes: number;
  private readonly windowMs: number;
  private readonly stableAfterMs: number;
  private crashes: number[] = [];
  private runStartedAt: number | undefined;
  private gaveUp: GiveUp | undefined;
  /** Whether a start completed its handshake since the last manual start: only then is a failure a crash. */
  private startedSinceReset = false;

  constructor(options: RestartPolicyOptions = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 1000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxCrashes = options.maxCrashes ?? 5;
    this.windowMs = options.windowMs ?? 120_000;
    this.stableAfterMs = options.stableAfterMs ?? this.windowMs / 2;
    if (this.baseDelayMs < 0 || this.maxDelayMs < this.baseDelayMs)
      throw new RangeError('restart policy: need 0 <= baseDelayMs <= maxDelayMs');
    if (this.maxCrashes < 1 || this.windowMs <= 0)
      throw new RangeError('restart policy: maxCrashes must be >= 1 and windowMs > 0');
  }

  /** Crashes currently counted against the limit. */
  get recentCrashes(): number {
    return this.crashes.length;
  }

  /** True once the policy has given up; only `reset()` (a manual start) clears it. */
  get hasGivenUp(): boolean {
    return this.gaveUp !== undefined;
  }

  recordCrash(now: number): RestartDecision {
    if (this.gaveUp !== undefined) return this.giveUpDecision(this.gaveUp);
    this.runStartedAt = undefined;
    this.crashes = this.crashes.filter((at) => now - at < this.windowMs);
    this.crashes.push(now);
    const count = this.crashes.length;
    if (count >= this.maxCrashes) {
      this.gaveUp = { crashes: count, spanMs: now - this.crashes[0], limit: this.maxCrashes, windowMs: this.windowMs };
      return this.giveUpDecision(this.gaveUp);
    }
    const delayMs = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (count - 1));
    return { kind: 'restart', delayMs, attempt: count };
  }

  private giveUpDecision(giveUp: GiveUp): RestartDecision {
    return { kind: 'give-up', giveUp, reason: describeGiveUp(giveUp) };
  }

  /** Marks the start of a run, so `recordHealthy` can measure how long the server has stayed up. */
  recordStarted(now: number): void {
    this.runStartedAt = now;
    this.startedSinceReset = true;
  }

  /**
   * A launch failed before its handshake completed. A server that has run since the last manual start is in a
   * crash loop and gets the crash backoff; one that never got through the handshake (a wrong command, a missing
   * token, an HTTP endpoint that refuses connections) would fail the same way again, so it is not restarted:
   * undefined means "leave it failed, the person has to act".
   */
  recordStartFailure(now: number): RestartDecision | undefined {
    return this.startedSinceReset ? this.recordCrash(now) : undefined;
  }

  /**
   * Called while the server is up (e.g. on each successful ping or periodically). After a long enough run, earlier
   * crashes no longer count, so a server that crashes once a day always restarts quickly. Returns true when it forgot.
   */
  recordHealthy(now: number): boolean {
    if (this.gaveUp !== undefined || this.crashes.length === 0) return false;
    const since = this.runStartedAt ?? this.crashes[this.crashes.length - 1];
    if (now - since < this.stableAfterMs) return false;
    this.crashes = [];
    return true;
  }

  /** A manual start: the user has taken over, so forget crashes and any earlier give-up. */
  reset(): void {
    this.crashes = [];
    this.gaveUp = undefined;
    this.runStartedAt = undefined;
    this.startedSinceReset = false;
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
