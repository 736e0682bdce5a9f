/**
 * At most one refresh of a list in flight, and at most one more after it: a server that sends 50,000
 * `notifications/tools/list_changed` causes two `tools/list`, not 50,000. A change announced while a refresh runs may
 * not be in that refresh's answer, so exactly one more runs once it settles; every change announced meanwhile is
 * covered by that one. Host-neutral: the extension's refresh paths (tools, resources, prompts) each own one.
 */
export class CoalescedRefresh {
  private running: Promise<void> | undefined;
  /** Callers waiting for the refresh that starts after the running one settles. */
  private again: { promise: Promise<void>; resolve(): void } | undefined;
  private disposed = false;

  /** `refresh` reports its own failures; a rejection only ends that run. */
  constructor(private readonly refresh: () => Promise<void>) {}

  /** Asks for a refresh; resolves once a refresh that started after this call has settled. */
  request(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.running) return this.start();
    if (!this.again) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.again = { promise, resolve };
    }
    return this.again.promise;
  }

  /** Whether a refresh runs now (for diagnostics and tests). */
  get inFlight(): boolean {
    return this.running !== undefined;
  }

  /** No refresh starts after this; one in flight runs to its end, and every waiting caller is released. */
  dispose(): void {
    this.disposed = true;
    this.again?.resolve();
    this.again = undefined;
  }

  private start(): Promise<void> {
    // A refresh that throws synchronously ends its run like one that rejects.
    const running = new Promise<void>((resolve) => resolve(this.refresh()))
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        const again = this.again;
        this.again = undefined;
        if (!again) return;
        if (this.disposed) again.resolve();
        else void this.start().then(again.resolve);
      });
    this.running = running;
    return running;
  }
}
