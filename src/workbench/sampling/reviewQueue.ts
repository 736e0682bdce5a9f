import { Emitter } from '../../protocol/disposable';
import { LocalError } from '../../protocol/errors';

/**
 * The one place where sampling and elicitation requests wait for a person, so concurrent requests line up
 * one review at a time instead of stacking dialogs. An entry whose request is cancelled (by its server, or
 * because the connection dropped) leaves the queue at once. Requests that need no review never enter it,
 * so a pending review never blocks other servers' pre-approved traffic.
 */

export interface QueueEntry<T> {
  readonly id: number;
  readonly serverName: string;
  readonly payload: T;
  readonly state: 'waiting' | 'in-review';
}

interface InternalEntry<T> {
  id: number;
  serverName: string;
  payload: T;
  state: 'waiting' | 'in-review';
  start: () => void;
}

export class ReviewQueue<T> {
  private readonly entries: InternalEntry<T>[] = [];
  private nextId = 1;
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  list(): QueueEntry<T>[] {
    return this.entries.map(({ id, serverName, payload, state }) => ({ id, serverName, payload, state }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Waits for this entry's turn, runs `review`, and frees the slot; the signal withdraws it at any time. */
  async run<R>(serverName: string, payload: T, signal: AbortSignal, review: (signal: AbortSignal) => Promise<R>): Promise<R> {
    if (signal.aborted) throw new LocalError('cancelled', `${serverName}: the request was cancelled before review`);
    const id = this.nextId++;
    let start!: () => void;
    const turn = new Promise<void>((resolve) => (start = resolve));
    const entry: InternalEntry<T> = { id, serverName, payload, state: 'waiting', start };
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
