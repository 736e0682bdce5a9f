/**
 * A bounded sequence that drops its oldest items: at most `maxItems`, and at most `maxBytes` by the weight each item
 * was pushed with (at least one item is always kept, however heavy). Pushing and dropping are O(1) amortized.
 */
export class Ring<T> {
  private items: T[] = [];
  private weights: number[] = [];
  /** Index of the oldest kept item; the arrays are compacted once half of them is dropped items. */
  private head = 0;
  private bytes = 0;
  private droppedCount = 0;

  constructor(
    readonly maxItems: number,
    readonly maxBytes: number,
  ) {}

  get length(): number {
    return this.items.length - this.head;
  }

  /** How many items were dropped since the ring was created or cleared. */
  get dropped(): number {
    return this.droppedCount;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  push(item: T, weight: number): void {
    this.items.push(item);
    this.weights.push(weight);
    this.bytes += weight;
    while (this.length > 1 && (this.length > this.maxItems || this.bytes > this.maxBytes)) {
      this.bytes -= this.weights[this.head];
      this.items[this.head] = undefined as T;
      this.head++;
      this.droppedCount++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.weights = this.weights.slice(this.head);
      this.head = 0;
    }
  }

  toArray(): T[] {
    return this.items.slice(this.head);
  }

  /** The kept items for which `keep` holds, oldest first. */
  filter(keep: (item: T) => boolean): T[] {
    const result: T[] = [];
    for (let index = this.head; index < this.items.length; index++)
      if (keep(this.items[index])) result.push(this.items[index]);
    return result;
  }

  clear(): void {
    this.items = [];
    this.weights = [];
    this.head = 0;
    this.bytes = 0;
    this.droppedCount = 0;
  }
}
