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
  readonly #mask: number;
  readonly #counts: Uint8Array;
  readonly #sampleSize: number;
  #increments = 0;

  /** `expectedKeys`: about how many distinct keys matter (the cache's entry count). */
  constructor(expectedKeys: number) {
    let width = 1024;
    while (width < expectedKeys * 2) width *= 2;
    this.#mask = width - 1;
    this.#counts = new Uint8Array(width * this.#rows);
    this.#sampleSize = Math.max(1024, expectedKeys * 10);
  }

  /** Records one request for `key`. */
  increment(key: string): void {
    const [h1, h2] = hashes(key);
    const width = this.#mask + 1;
    for (let row = 0; row < this.#rows; row++) {
      const at = row * width + ((h1 + row * h2) & this.#mask);
      if ((this.#counts[at] as number) < 15) this.#counts[at] = (this.#counts[at] as number) + 1;
    }
    if (++this.#increments >= this.#sampleSize) this.#age();
  }

  /** The estimated recent requests for `key` (never fewer than recorded since the last halving). */
  frequency(key: string): number {
    const [h1, h2] = hashes(key);
    const width = this.#mask + 1;
    let min = 15;
    for (let row = 0; row < this.#rows; row++) {
      const count = this.#counts[row * width + ((h1 + row * h2) & this.#mask)] as number;
      if (count < min) min = count;
    }
    return min;
  }

  #age(): void {
    for (let i = 0; i < this.#counts.length; i++) this.#counts[i] = (this.#counts[i] as number) >> 1;
    this.#increments = Math.floor(this.#increments / 2);
  }
}

/** Two independent 32-bit FNV-1a style hashes of a string (double hashing gives the rows). */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  // an odd step visits every column of a power-of-two row
  return [a >>> 0, (b >>> 0) | 1];
}
