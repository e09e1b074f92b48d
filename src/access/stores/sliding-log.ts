/**
 * The times of the events of one rolling window, oldest first: an exact sliding log. An
 * event leaves the window `windowMs` after it happened, so no interval of `windowMs` ever
 * holds more than the limit (a fixed window lets twice the limit through at a boundary).
 */
export class SlidingLog {
  readonly #times: number[] = [];
  /** the window this log was last pruned with (for sweeps) */
  windowMs = 60_000;

  /** Drops events that left the window; the number left. */
  prune(now: number, windowMs: number = this.windowMs): number {
    this.windowMs = windowMs;
    const times = this.#times;
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= now - windowMs) drop++;
    if (drop > 0) times.splice(0, drop);
    return times.length;
  }

  get size(): number {
    return this.#times.length;
  }

  add(at: number): void {
    // events arrive in time order; a clock step back is kept in order all the same
    const times = this.#times;
    if (times.length === 0 || (times[times.length - 1] as number) <= at) times.push(at);
    else
      times.splice(
        times.findIndex((t) => t > at),
        0,
        at,
      );
  }

  /** ms from `now` until the oldest event leaves the window (the whole window when empty). */
  resetMs(now: number, windowMs: number): number {
    const oldest = this.#times[0];
    return oldest === undefined ? windowMs : Math.max(0, oldest + windowMs - now);
  }
}
