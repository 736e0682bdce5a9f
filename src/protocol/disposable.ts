export interface Disposable {
  dispose(): void;
}

function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Owns a set of disposables and releases them in reverse order of acquisition. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch {
        // One failing disposer must not keep the rest alive.
      }
    }
  }
}

type Listener<T> = (value: T) => void;

/** A tiny typed event emitter, independent of vscode so the core can use it. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<Listener<T>>();

  /** `onListenersChanged` hears the count whenever a listener comes or goes (to open a source only while heard). */
  constructor(private readonly onListenersChanged?: (count: number) => void) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  readonly event = (listener: Listener<T>): Disposable => {
    // A function subscribed twice is still one listener; wrapping keeps each subscription its own.
    const own: Listener<T> = (value) => listener(value);
    this.listeners.add(own);
    this.onListenersChanged?.(this.listeners.size);
    return toDisposable(() => {
      if (this.listeners.delete(own)) this.onListenersChanged?.(this.listeners.size);
    });
  };

  fire(value: T): void {
    // Most emitters fire per message with no one listening: no copy of the (empty) set each time.
    if (this.listeners.size === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A listener's failure is its own business.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
