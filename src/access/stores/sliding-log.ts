/**
 * The times of the events of one rolling window, oldest first: an exact sliding log. An
 * event leaves the window `windowMs` after it happened, so no interval of `windowMs` ever
 * holds more than the limit (a fixed window lets twice the limit through at a boundary).
 *
 * The times live in an array read from `#head` on: an event leaving the window moves the
 * head instead of shifting every later time down, and the array is compacted only once most
 * of it has left, so each event costs O(1) however long the window's list (an Enterprise
 * key's window holds up to 1,000).
 */
export class SlidingLog {
  #times: number[] = [];
  #head = 0;
  /** the window this log was last pruned with (for sweeps) */
  windowMs = 60_000;

  /** Drops events that left the window; the number left. */
  prune(now: number, windowMs: number = this.windowMs): number {
    this.windowMs = windowMs;
    const times = this.#times;
    const edge = now - windowMs;
    let head = this.#head;
    while (head < times.length && (times[head] as number) <= edge) head++;
    if (head === times.length) {
      // all gone: start over (no memory kept for a key that went quiet)
      if (times.length > 0) this.#times = [];
      head = 0;
    } else if (head >= 64 && head * 2 >= times.length) {
      times.splice(0, head);
      head = 0;
    }
    this.#head = head;
    return this.#times.length - head;
  }

  get size(): number {
    return this.#times.length - this.#head;
  }

  add(at: number): void {
    // events arrive in time order; a clock step back is kept in order all the same
    const times = this.#times;
    if (times.length === this.#head || (times[times.length - 1] as number) <= at) times.push(at);
    else {
      let i = this.#head;
      while ((times[i] as number) <= at) i++;
      times.splice(i, 0, at);
    }
  }

  /** ms from `now` until the oldest event leaves the window (the whole window when empty). */
  resetMs(now: number, windowMs: number): number {
    const oldest = this.#head < this.#times.length ? this.#times[this.#head] : undefined;
    return oldest === undefined ? windowMs : Math.max(0, oldest + windowMs - now);
  }
}
