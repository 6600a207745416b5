interface Entry<V> {
  value: V;
  /** Monotonic milliseconds after which the entry is gone; Infinity for an answer that cannot change. */
  until: number;
}

/**
 * A small map whose entries expire and whose size is capped: past the cap the least recently used entry goes. Time
 * is passed in, so it is tested without waiting. One per socket (the ownership answers of the gateway), which is
 * why it must never grow with what a client sends: at most `max` entries, whatever the client does.
 */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly max: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= now) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is always the least recently used.
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, until: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, until });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Sets when `key` expires, if it still holds `value` (a newer answer for the key is left alone). */
  expire(key: string, value: V, until: number): void {
    const entry = this.entries.get(key);
    if (entry?.value === value) entry.until = until;
  }

  /** Drops `key` only if it still holds `value` (a newer answer for the key stays). */
  delete(key: string, value?: V): void {
    if (value === undefined || this.entries.get(key)?.value === value) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
