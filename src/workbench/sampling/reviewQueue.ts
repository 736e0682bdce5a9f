import { Emitter } from '../../protocol/disposable';
import { ErrorCodes, LocalError, McpError } from '../../protocol/errors';

/**
 * The one place where sampling and elicitation requests wait for a person, so concurrent requests line up
 * one review at a time instead of stacking dialogs. An entry whose request is cancelled (by its server, or
 * because the connection dropped) leaves the queue at once. Requests that need no review never enter it,
 * so a pending review never blocks other servers' pre-approved traffic.
 */

/** How many requests one server may have waiting for the person (in review included) before more are refused. */
const DEFAULT_MAX_PENDING_PER_SERVER = 8;

interface ReviewQueueOptions {
  maxPendingPerServer?: number;
}

interface QueueEntry<T> {
  readonly id: number;
  readonly serverName: string;
  /** The server's identity (see serverIdentity.ts); the per-server cap counts by it. */
  readonly serverKey: string;
  readonly payload: T;
  readonly state: 'waiting' | 'in-review';
}

interface InternalEntry<T> {
  id: number;
  serverName: string;
  serverKey: string;
  payload: T;
  state: 'waiting' | 'in-review';
  start: () => void;
}

export class ReviewQueue<T> {
  private readonly entries: InternalEntry<T>[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly maxPendingPerServer: number;

  constructor(options: ReviewQueueOptions = {}) {
    this.maxPendingPerServer = options.maxPendingPerServer ?? DEFAULT_MAX_PENDING_PER_SERVER;
  }

  list(): QueueEntry<T>[] {
    return this.entries.map(({ id, serverName, serverKey, payload, state }) => ({
      id,
      serverName,
      serverKey,
      payload,
      state,
    }));
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Waits for this entry's turn, runs `review`, and frees the slot; the signal withdraws it at any time. A server
   * that already has `maxPendingPerServer` requests waiting is refused at once (-32603): a flood from one server
   * must neither bury the person in dialogs nor grow without bound, and other servers' requests still line up.
   */
  async run<R>(
    serverName: string,
    payload: T,
    signal: AbortSignal,
    review: (signal: AbortSignal) => Promise<R>,
    serverKey: string = serverName,
  ): Promise<R> {
    if (signal.aborted) throw new LocalError('cancelled', `${serverName}: the request was cancelled before review`);
    this.assertRoomFor(serverName, serverKey);
    const id = this.nextId++;
    let start!: () => void;
    const turn = new Promise<void>((resolve) => (start = resolve));
    const entry: InternalEntry<T> = { id, serverName, serverKey, payload, state: 'waiting', start };
    this.entries.push(entry);
    this.changed.fire();
    const cancelled = new Promise<never>((_, reject) => {
      const onAbort = () => reject(new LocalError('cancelled', `${serverName} cancelled the request`));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    cancelled.catch(() => undefined);
    try {
      this.startNextIfIdle();
      await Promise.race([turn, cancelled]);
      return await Promise.race([review(signal), cancelled]);
    } finally {
      const index = this.entries.indexOf(entry);
      if (index !== -1) this.entries.splice(index, 1);
      this.changed.fire();
      this.startNextIfIdle();
    }
  }

  /** Throws the refusal `run` would throw, so a caller can refuse before doing any work for the request. */
  assertRoomFor(serverName: string, serverKey: string = serverName): void {
    const pending = this.entries.filter((entry) => entry.serverKey === serverKey).length;
    if (pending >= this.maxPendingPerServer) {
      throw new McpError(
        ErrorCodes.InternalError,
        `too many requests from ${serverName} are waiting for review (${pending}); this one was refused until the person answers those`,
      );
    }
  }

  private startNextIfIdle(): void {
    if (this.entries.some((entry) => entry.state === 'in-review')) return;
    const next = this.entries[0];
    if (!next) return;
    next.state = 'in-review';
    this.changed.fire();
    next.start();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
