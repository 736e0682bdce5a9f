/**
 * The gateway's sweep of idle agent sessions, armed only while a session is open: a gateway no agent uses wakes
 * nothing (issue 42: an idle editor stays idle). With sessions open it wakes once per `periodMs`, which the gateway
 * keeps at most once a minute.
 */
export class IdleSweep {
  private timer: ReturnType<typeof setInterval> | undefined;
  private disposed = false;

  constructor(
    private readonly periodMs: number,
    private readonly sweep: () => void,
  ) {}

  /** Whether the sweep's timer is armed (for tests). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** Called whenever the number of open sessions changed: arms the timer for the first, clears it after the last. */
  sessionsOpen(count: number): void {
    if (count > 0 && this.timer === undefined && !this.disposed) {
      this.timer = setInterval(this.sweep, this.periodMs);
      // The sweep alone must not keep a process alive (Node); a browser's timer has no unref.
      (this.timer as { unref?: () => void }).unref?.();
    } else if (count === 0) {
      this.stop();
    }
  }

  /** The gateway closed: a session that finishes opening during its close arms nothing after this. */
  dispose(): void {
    this.disposed = true;
    this.stop();
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
