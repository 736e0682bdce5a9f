/** How long one slice of background work may hold the host before it lets other work run. */
export const SLICE_MS = 8;

export interface SliceOptions {
  /** Milliseconds a slice may run (SLICE_MS). */
  sliceMs?: number;
  /** The clock slices are measured with (tests pass a fake one). */
  now?: () => number;
  /** Asked between slices: true drops the work (its result is no longer wanted). */
  cancelled?: () => boolean;
}

/**
 * Runs a generator's steps in slices of at most `sliceMs` and yields to the event loop between slices (a timer, so
 * the host's pending I/O, such as the view asking for its rows, is answered in between). Resolves to the generator's
 * result, or undefined when it was cancelled. The first slice runs at once.
 */
export async function drainInSlices<T>(
  steps: Iterator<void, T, void>,
  { sliceMs = SLICE_MS, now = () => performance.now(), cancelled = () => false }: SliceOptions = {},
): Promise<T | undefined> {
  for (;;) {
    const started = now();
    do {
      const step = steps.next();
      if (step.done) return step.value;
    } while (now() - started < sliceMs);
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (cancelled()) {
      steps.return?.(undefined as T);
      return undefined;
    }
  }
}

/**
 * Leaves what just appeared alone for a while: the first time a key is asked about starts its clock, and `wait`
 * says how many milliseconds are left until it has been seen for `ms`. The extension lints a server that just
 * started only after its first rows had the machine (issue 42); keys are held weakly (a session, a list).
 */
export class SettleDelay<K extends object> {
  private readonly seen = new WeakMap<K, number>();

  constructor(
    private readonly ms: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  wait(key: K): number {
    const now = this.now();
    let first = this.seen.get(key);
    if (first === undefined) {
      first = now;
      this.seen.set(key, now);
    }
    return Math.max(0, first + this.ms - now);
  }
}
