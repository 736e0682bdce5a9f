/**
 * Runs `run` once a burst of changes is quiet for `quietMs`, and at least every `maxWaitMs` while the burst lasts: a
 * file rewritten 100 times a second costs one reload per `maxWaitMs`, and is never starved of reloads altogether
 * (a plain debounce would wait for a quiet moment that never comes).
 */
export class BurstDebounce {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private burstStart: number | undefined;

  constructor(
    private readonly run: () => void,
    private readonly quietMs: number,
    private readonly maxWaitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  schedule(): void {
    const now = this.now();
    this.burstStart ??= now;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(this.quietMs, this.burstStart + this.maxWaitMs - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.burstStart = undefined;
      this.run();
    }, delay);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
