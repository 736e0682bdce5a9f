/**
 * Request deadlines on one timer. A `setTimeout` per request (created, then cleared when the response arrives) was
 * a tenth of the client's CPU per call in the benchmark; here a request costs one small object and a heap push,
 * and the only timer is re-armed when the earliest deadline passes or an earlier one arrives. Entries are removed
 * from the heap when cancelled, so it holds exactly the requests that are waiting: nothing accumulates.
 */

export interface Deadline {
  /** Milliseconds since the epoch (Date.now()) at which the target's `onDeadline` runs unless cancelled first. */
  readonly at: number;
}

/** An object rather than a callback, so scheduling allocates no closure. */
export interface DeadlineTarget {
  onDeadline(): void;
}

interface Entry extends Deadline {
  at: number;
  target: DeadlineTarget;
  /** Position in the heap; -1 once fired or cancelled. */
  index: number;
}

export class DeadlineTimer {
  private readonly heap: Entry[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; it may be earlier than the earliest deadline (that one was cancelled). */
  private armedAt = Infinity;

  /** How many deadlines are waiting (for tests of bounded bookkeeping). */
  get size(): number {
    return this.heap.length;
  }

  /** `now` lets a caller that already read the clock for this request skip a second read. */
  schedule(delayMs: number, target: DeadlineTarget, now = Date.now()): Deadline {
    const entry: Entry = { at: now + Math.max(0, delayMs), target, index: this.heap.length };
    this.heap.push(entry);
    this.siftUp(entry.index);
    if (entry.at < this.armedAt) this.arm(entry.at);
    else if (this.heap.length === 1) setReferenced(this.timer, true); // kept, unreferenced, while nothing waited
    return entry;
  }

  cancel(deadline: Deadline): void {
    const entry = deadline as Entry;
    if (entry.index < 0) return;
    this.removeAt(entry.index);
    // The armed timer stays: it fires early at worst and re-arms for the earliest remaining deadline. Clearing
    // and re-creating it per response would cost what this class saves. It must not keep the process alive.
    if (this.heap.length === 0) setReferenced(this.timer, false);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = Infinity;
    for (const entry of this.heap) entry.index = -1;
    this.heap.length = 0;
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
    while (this.heap.length > 0 && this.heap[0].at <= now) {
      const entry = this.heap[0];
      this.removeAt(0);
      try {
        entry.target.onDeadline();
      } catch {
        // A deadline's handler settles a promise; one that throws must not stop the others.
      }
    }
    if (this.heap.length > 0) this.arm(this.heap[0].at);
  }

  private removeAt(index: number): void {
    const heap = this.heap;
    const removed = heap[index];
    removed.index = -1;
    const last = heap.pop() as Entry;
    if (index === heap.length) return;
    heap[index] = last;
    last.index = index;
    this.siftDown(index);
    this.siftUp(last.index);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const entry = heap[index];
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex];
      if (parent.at <= entry.at) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const entry = heap[index];
    const length = heap.length;
    for (;;) {
      let smallest = index;
      let smallestAt = entry.at;
      const left = 2 * index + 1;
      const right = left + 1;
      if (left < length && heap[left].at < smallestAt) {
        smallest = left;
        smallestAt = heap[left].at;
      }
      if (right < length && heap[right].at < smallestAt) smallest = right;
      if (smallest === index) break;
      const child = heap[smallest];
      heap[index] = child;
      child.index = index;
      index = smallest;
    }
    heap[index] = entry;
    entry.index = index;
  }
}

/** Node's timers can stop keeping the process alive; other runtimes' plain numeric handles simply cannot. */
function setReferenced(timer: ReturnType<typeof setTimeout> | undefined, referenced: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (referenced) handle?.ref?.();
  else handle?.unref?.();
}
