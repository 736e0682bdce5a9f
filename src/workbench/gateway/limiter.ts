/** Raised when an agent has more requests waiting than its queue holds. */
export class GatewayBusyError extends Error {
  /** A JSON-RPC error code of the implementation range: the agent may retry later. */
  readonly code = -32000;
  constructor(maxInFlight: number, maxQueued: number) {
    super(
      `the gateway is busy: this agent has ${maxInFlight} requests running and ${maxQueued} waiting; retry when one has answered`,
    );
  }
}

/**
 * One agent's admission: at most `maxInFlight` of its requests run upstream at once and at most `maxQueued` wait for
 * a turn, so an agent that floods the gateway gets errors instead of growing its memory, and cannot take every slot
 * of the server from the other agents.
 */
export class RequestLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxInFlight: number,
    private readonly maxQueued: number,
  ) {}

  /** Requests running or waiting. */
  get load(): number {
    return this.running + this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxInFlight) {
      if (this.waiting.length >= this.maxQueued) throw new GatewayBusyError(this.maxInFlight, this.maxQueued);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
    try {
      return await work();
    } finally {
      // The slot passes to the next waiter as it is (running stays the same), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
