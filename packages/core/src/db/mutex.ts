/** A FIFO async mutex: `await lock()` then `unlock()`. Waiters are served in arrival order. */
export class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }

  get locked(): boolean {
    return this.#locked;
  }

  get waiting(): number {
    return this.#waiters.length;
  }
}
