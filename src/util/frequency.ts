/**
 * How often keys were asked for recently, approximately, in fixed memory: a count-min sketch
 * of 4-bit-range counters (saturating at 15) whose counts are all halved once `sampleSize`
 * increments have been recorded, so old popularity fades. This is the TinyLFU admission
 * filter (Einziger, Friedman and Manes, 2017): a cache admits a new entry only when it is
 * asked for more often than the entry it would evict, so a crawl over every product cannot
 * flush the searches people repeat.
 */
export class FrequencySketch {
  readonly #rows = 4;
  /** the blocks of the table, less one: a key's four counters share one 64-byte block */
  readonly #blockMask: number;
  readonly #counts: Uint8Array;
  readonly #sampleSize: number;
  #increments = 0;

  /**
   * `expectedKeys`: about how many distinct keys matter (the cache's entry count).
   *
   * The table is cut in 64-byte blocks of four rows of 16 counters; a key's block comes from
   * one hash, its counter in each row from the other. Its four counters are then in one or
   * two cache lines: with each row a table of its own (a counter anywhere in 128 KB per row
   * for the response cache), every request's count and check touched four lines out of
   * cache, measured at 1–3 µs of a product read under load. Caffeine's sketch is blocked the
   * same way; a key's estimate has about the error it had (see the tests).
   */
  constructor(expectedKeys: number) {
    let width = 1024;
    while (width < expectedKeys * 2) width *= 2;
    this.#counts = new Uint8Array(width * this.#rows);
    this.#blockMask = this.#counts.length / BLOCK - 1;
    this.#sampleSize = Math.max(1024, expectedKeys * 10);
  }

  /** Records one request for `key`. */
  increment(key: string): void {
    this.#hash(key);
    const counts = this.#counts;
    const block = (this.#h1 & this.#blockMask) * BLOCK;
    const h2 = this.#h2;
    for (let row = 0; row < this.#rows; row++) {
      const at = block + row * ROW + ((h2 >>> (8 * row)) & (ROW - 1));
      if ((counts[at] as number) < 15) counts[at] = (counts[at] as number) + 1;
    }
    if (++this.#increments >= this.#sampleSize) this.#age();
  }

  /** The estimated recent requests for `key` (never fewer than recorded since the last halving). */
  frequency(key: string): number {
    this.#hash(key);
    const counts = this.#counts;
    const block = (this.#h1 & this.#blockMask) * BLOCK;
    const h2 = this.#h2;
    let min = 15;
    for (let row = 0; row < this.#rows; row++) {
      const count = counts[block + row * ROW + ((h2 >>> (8 * row)) & (ROW - 1))] as number;
      if (count < min) min = count;
    }
    return min;
  }

  /**
   * Whether a cache that keeps entries in `lru` (least recently used first out, within
   * `maxSize` bytes and `maxEntries` entries) should take a new one of `size` bytes for
   * `key`: when there is room, or when `key` is asked for more often than the entry it would
   * push out. A scan over more keys than fit then leaves the cache as it was instead of
   * replacing every entry before it is asked for again.
   */
  admits(
    lru: { size: number; calculatedSize: number; rkeys(): Iterator<string> },
    limits: { maxSize: number; maxEntries: number },
    key: string,
    size: number,
  ): boolean {
    if (lru.size < limits.maxEntries && lru.calculatedSize + size <= limits.maxSize) return true;
    const victim = lru.rkeys().next().value;
    return victim === undefined || this.frequency(key) > this.frequency(victim);
  }

  #h1 = 0;
  #h2 = 0;

  /**
   * Two independent 32-bit FNV-1a style hashes of a string, each finished with murmur3's
   * mix (its low bits pick the block, each byte of the other a counter), left in #h1 and #h2:
   * no array per call on a path every request takes.
   */
  #hash(key: string): void {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.#h1 = mix(a);
    this.#h2 = mix(b);
  }

  #age(): void {
    for (let i = 0; i < this.#counts.length; i++) this.#counts[i] = (this.#counts[i] as number) >> 1;
    this.#increments = Math.floor(this.#increments / 2);
  }
}

/** Bytes of a block (a cache line) and counters of a row in it. */
const BLOCK = 64;
const ROW = 16;

/** murmur3's 32-bit finalizer: every bit of the result depends on every bit of `h`. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
