/**
 * query/engine/cache: a bounded least-recently-used map, counting hits and misses.
 *
 * Input: string keys and values. Output: the value stored under a key, the least recently used
 * entry evicted once `capacity` is exceeded. A `Map` keeps insertion order, so a hit moves its
 * entry to the end (delete + set) and the first key is always the one to evict. A hit on the
 * entry already at the end moves nothing: a server answering one query over and over would
 * otherwise churn the map's table (a delete leaves a hole, refilled by a rehash) on every request.
 */
export class LruCache<V> {
  readonly #entries = new Map<string, V>();
  /** The key at the end of `#entries` (the most recent), when known. */
  #newest: string | undefined;
  #hits = 0;
  #misses = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`cache capacity must be a positive integer, got ${capacity}`);
  }

  /** The value under `key` (counted as a hit, and now the most recent) or undefined (a miss). */
  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    if (key !== this.#newest) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
      this.#newest = key;
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = undefined;
  }

  get size(): number {
    return this.#entries.size;
  }

  get hits(): number {
    return this.#hits;
  }

  get misses(): number {
    return this.#misses;
  }
}
