import { Emitter, type Disposable } from '../disposable';

/**
 * Marks the time during which a person is acting for a connection: reviewing a sampling request, filling an
 * elicitation form, signing in at an authorization server. Request deadlines measure the server's slowness, not the
 * person's: while any wait is open they do not expire, and each deadline is pushed back by the time the waits lasted
 * (see RpcConnection). A wait is opened by whoever hands work to a person and closed (disposed) when the person
 * answered or gave up; closing twice is harmless.
 */
export class PersonWaits implements Disposable {
  private open = 0;
  private openedAt = 0;
  /** Total milliseconds during which at least one wait was open, up to the last close. */
  private closedTotal = 0;
  private readonly changed = new Emitter<boolean>();
  /** Fires true when the first wait opens and false when the last one closes. */
  readonly onDidChange = this.changed.event;

  get waiting(): boolean {
    return this.open > 0;
  }

  /** Milliseconds during which a person was acting, the current wait included; deadlines add it to their end. */
  pausedMs(now = Date.now()): number {
    return this.closedTotal + (this.open > 0 ? now - this.openedAt : 0);
  }

  /** Opens a wait; dispose the result when the person is done. */
  begin(): Disposable {
    if (this.open++ === 0) {
      this.openedAt = Date.now();
      this.changed.fire(true);
    }
    let closed = false;
    return {
      dispose: () => {
        if (closed) return;
        closed = true;
        if (--this.open === 0) {
          this.closedTotal += Date.now() - this.openedAt;
          this.changed.fire(false);
        }
      },
    };
  }

  /** Runs `work` inside a wait. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const wait = this.begin();
    try {
      return await work();
    } finally {
      wait.dispose();
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
