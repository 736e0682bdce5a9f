/**
 * Turns a burst of file changes into one restart: the restart runs `delayMs` after the last change (a save that
 * writes ten files, a compiler emitting a folder, is one restart), never two at once, and changes that arrive while
 * a restart runs lead to exactly one more after it. The reason names what changed. No vscode import: unit-tested.
 */
export class RestartThrottle {
  private changed: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly delayMs: () => number,
    private readonly restart: (reason: string) => Promise<void>,
  ) {}

  /** A watched file changed (a path relative to the folder, for the log). */
  change(path: string): void {
    if (this.disposed) return;
    if (!this.changed.includes(path)) this.changed.push(path);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fire(), Math.max(0, this.delayMs()));
  }

  /** Resolves once no restart is due or running (for tests and for a clean dispose). */
  async settled(): Promise<void> {
    while (this.timer !== undefined || this.running !== undefined) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    if (this.running) {
      // Let the running restart finish; the changes wait for the next one.
      await this.running;
      if (this.timer !== undefined || this.running !== undefined) return;
    }
    if (this.changed.length === 0 || this.disposed) return;
    const reason = describeChanges(this.changed);
    this.changed = [];
    this.running = this.restart(reason)
      .catch(() => undefined)
      .finally(() => (this.running = undefined));
    await this.running;
    if (this.changed.length > 0 && this.timer === undefined && !this.disposed)
      this.timer = setTimeout(() => void this.fire(), Math.max(0, this.delayMs()));
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

const NAMED = 3;

export function describeChanges(paths: readonly string[]): string {
  const named = paths.slice(0, NAMED).join(', ');
  return paths.length > NAMED ? `${named} and ${paths.length - NAMED} more changed` : `${named} changed`;
}
