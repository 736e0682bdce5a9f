/**
 * Collections for per-id bookkeeping that a peer can inflate (ids it makes up, requests it never lets finish):
 * past `capacity` entries the oldest is forgotten, so memory stays bounded however long a session runs. Forgetting
 * only weakens a courtesy (a late response is then reported as unknown, a late cancellation is not honoured).
 */
export class BoundedSet<T> extends Set<T> {
  constructor(readonly capacity: number) {
    super();
  }

  override add(value: T): this {
    super.add(value);
    if (this.size > this.capacity) this.delete(this.values().next().value as T);
    return this;
  }
}

export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.capacity) this.delete(this.keys().next().value as K);
    return this;
  }
}
