/**
 * Request deadlines on one timer. A `setTimeout` per request (created, then cleared when the response arrives) was
 * a tenth of the client's CPU per call in the benchmark. Here scheduling allocates nothing (the target carries its
 * own due time) and costs O(1) in the usual case: requests of one connection share a timeout, so each new deadline
 * is the latest and lands at the end of the heap without sifting. Cancelling is O(1) too: the entry is only marked
 * (lazy deletion) and the heap is compacted once its dead entries outnumber the live ones (amortised O(1)), so it
 * never holds more than about twice the requests that are waiting.
 */

/** What a deadline calls; it carries its own scheduling state, so scheduling allocates no entry or closure. */
export interface DeadlineTarget {
  onDeadline(): void;
  /** Milliseconds since the epoch (Date.now()) at which `onDeadline` runs; meaningful while `deadlineArmed`. */
  deadlineAt: number;
  deadlineArmed: boolean;
}

/** Fields a new target starts with. */
export const UNARMED = { deadlineAt: 0, deadlineArmed: false } as const;

/** Dead entries tolerated beyond the live ones before the heap is compacted (small heaps are not rebuilt per call). */
const COMPACT_SLACK = 64;
/** Entries up to which an emptied heap keeps its arrays' storage for the next requests. */
const KEPT_ENTRIES = 1024;

export class DeadlineTimer {
  /** A min-heap on `ats`; `targets[i]` was scheduled for `ats[i]`. An entry is live while its target is armed for it. */
  private readonly ats: number[] = [];
  private readonly targets: DeadlineTarget[] = [];
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; it may be earlier than the earliest live deadline (that one was cancelled). */
  private armedAt = Infinity;

  /** How many deadlines are waiting (for tests of bounded bookkeeping). */
  get size(): number {
    return this.live;
  }

  /** Entries the heap holds, live or not yet swept (for tests that show it stays bounded). */
  get heapSize(): number {
    return this.ats.length;
  }

  /** `now` lets a caller that already read the clock for this request skip a second read. Re-arms an armed target. */
  schedule(delayMs: number, target: DeadlineTarget, now = Date.now()): void {
    if (target.deadlineArmed) this.cancel(target);
    const at = now + Math.max(0, delayMs);
    target.deadlineAt = at;
    target.deadlineArmed = true;
    this.live++;
    this.ats.push(at);
    this.targets.push(target);
    this.siftUp(this.ats.length - 1);
    if (at < this.armedAt) this.arm(at);
    else if (this.live === 1) setReferenced(this.timer, true); // kept, unreferenced, while nothing waited
  }

  cancel(target: DeadlineTarget): void {
    if (!target.deadlineArmed) return;
    target.deadlineArmed = false;
    this.live--;
    // The armed timer stays: it fires early at worst and re-arms for the earliest remaining deadline. Clearing
    // and re-creating it per response would cost what this class saves. It must not keep the process alive.
    if (this.live === 0) {
      setReferenced(this.timer, false);
      this.empty();
    } else if (this.ats.length - this.live > this.live + COMPACT_SLACK) {
      this.compact();
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
    for (const target of this.targets) target.deadlineArmed = false;
    this.ats.length = 0;
    this.targets.length = 0;
    this.live = 0;
  }

  /**
   * Drops every (dead) entry. A sequential caller empties the heap with each response: popping its entry keeps the
   * arrays' storage, where `length = 0` gave it up and the next request allocated it again (about 300 bytes and 70 ns
   * a call). The large arrays of a burst are given back.
   */
  private empty(): void {
    const ats = this.ats;
    const targets = this.targets;
    if (ats.length > KEPT_ENTRIES) {
      ats.length = 0;
      targets.length = 0;
      return;
    }
    while (ats.length > 0) {
      ats.pop();
      targets.pop();
    }
  }

  private isLive(index: number): boolean {
    const target = this.targets[index];
    return target.deadlineArmed && target.deadlineAt === this.ats[index];
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.armedAt = at;
    this.timer = setTimeout(() => this.onTimer(), Math.max(0, at - Date.now()));
  }

  private onTimer(): void {
    this.timer = undefined;
    this.armedAt = Infinity;
    const now = Date.now();
    while (this.ats.length > 0) {
      if (!this.isLive(0)) {
        this.pop();
        continue;
      }
      if (this.ats[0] > now) break;
      const target = this.targets[0];
      this.pop();
      target.deadlineArmed = false;
      this.live--;
      try {
        target.onDeadline();
      } catch {
        // A deadline's handler settles a promise; one that throws must not stop the others.
      }
    }
    if (this.ats.length > 0) this.arm(this.ats[0]);
  }

  /** Removes the root. */
  private pop(): void {
    const ats = this.ats;
    const targets = this.targets;
    const lastAt = ats.pop() as number;
    const lastTarget = targets.pop() as DeadlineTarget;
    if (ats.length === 0) return;
    ats[0] = lastAt;
    targets[0] = lastTarget;
    this.siftDown(0);
  }

  /** Keeps only the live entries (in place) and restores the heap order: O(n), paid for by the n/2 cancels before it. */
  private compact(): void {
    const ats = this.ats;
    const targets = this.targets;
    let kept = 0;
    for (let i = 0; i < ats.length; i++) {
      if (!this.isLive(i)) continue;
      ats[kept] = ats[i];
      targets[kept] = targets[i];
      kept++;
    }
    ats.length = kept;
    targets.length = kept;
    for (let i = (kept >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(index: number): void {
    const ats = this.ats;
    const targets = this.targets;
    const at = ats[index];
    const target = targets[index];
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (ats[parent] <= at) break;
      ats[index] = ats[parent];
      targets[index] = targets[parent];
      index = parent;
    }
    ats[index] = at;
    targets[index] = target;
  }

  private siftDown(index: number): void {
    const ats = this.ats;
    const targets = this.targets;
    const length = ats.length;
    const at = ats[index];
    const target = targets[index];
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && ats[right] < ats[left] ? right : left;
      if (ats[child] >= at) break;
      ats[index] = ats[child];
      targets[index] = targets[child];
      index = child;
    }
    ats[index] = at;
    targets[index] = target;
  }
}

/** Node's timers can stop keeping the process alive; other runtimes' plain numeric handles simply cannot. */
function setReferenced(timer: ReturnType<typeof setTimeout> | undefined, referenced: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (referenced) handle?.ref?.();
  else handle?.unref?.();
}
