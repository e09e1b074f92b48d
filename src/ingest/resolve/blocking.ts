/**
 * Candidate generation. Comparing every pair of listings is quadratic; instead each record
 * probes the postings of its rarest keys (title words and model codes, weighted by IDF) and
 * keeps its best-sharing neighbours from other sources. Keys held by more than
 * `maxBlockSize` records are skipped, so work per record is bounded and the whole step is
 * near-linear in the number of records.
 */
import type { Corpus } from './features.js';

/** Options for {@link candidatePairs}; defaults come from ResolveOptions. */
export interface BlockingOptions {
  maxBlockSize: number;
  probesPerRecord: number;
  candidatesPerRecord: number;
}

/**
 * Cross-source candidate pairs as `[i, j]` with `i < j`, de-duplicated.
 */
export function candidatePairs(corpus: Corpus, options: BlockingOptions): Array<[number, number]> {
  const ends = candidateEnds(corpus, options);
  return Array.from({ length: ends.length / 2 }, (_, p) => [ends[2 * p]!, ends[2 * p + 1]!]);
}

/**
 * {@link candidatePairs} as one flat array, `[i0, j0, i1, j1, …]`: at a million records an
 * array of pairs and the set that de-duplicated them held ~100 bytes of heap a pair.
 */
export function candidateEnds(corpus: Corpus, options: BlockingOptions): Int32Array {
  const { features, keys, keyStart, df, size } = corpus;
  // the postings of every key held by 2 to maxBlockSize records, one after another (key `t`'s
  // records are `postings[postingStart[t]]` up to `postingStart[t + 1]`): a list per key held
  // ~100 bytes of heap a record at a million records
  const blocks = (key: number): boolean => df[key]! <= options.maxBlockSize && df[key]! >= 2;
  const postingStart = new Int32Array(df.length + 1);
  for (let at = 0; at < keys.length; at++) if (blocks(keys[at]!)) postingStart[keys[at]! + 1]!++;
  for (let t = 0; t < df.length; t++) postingStart[t + 1]! += postingStart[t]!;
  const postings = new Int32Array(postingStart[df.length]!);
  const filled = postingStart.slice(0, df.length);
  for (let i = 0; i < size; i++)
    for (let at = keyStart[i]!; at < keyStart[i + 1]!; at++) {
      const key = keys[at]!;
      if (blocks(key)) postings[filled[key]!++] = i;
    }
  const hasPostings = (key: number): boolean => postingStart[key + 1]! > postingStart[key]!;

  const idf = (key: number): number => Math.log((size + 1) / (df[key]! + 0.5));
  const sourceIds = new Map<string, number>();
  const sourceOf = Int32Array.from(features, (f) => {
    let id = sourceIds.get(f.source);
    if (id === undefined) {
      id = sourceIds.size;
      sourceIds.set(f.source, id);
    }
    return id;
  });
  const score = new Float64Array(size);
  const touched: number[] = [];
  const k = options.candidatesPerRecord;
  // each record's kept candidates: a pair (j, i) with j < i was already emitted when j was
  // probed iff i is among j's candidates (records are probed in index order)
  const kept = new Int32Array(size * k).fill(-1);
  let ends = new Int32Array(Math.max(16, size * 4));
  let used = 0;
  const keptBy = (j: number, i: number): boolean => {
    for (let slot = j * k; slot < j * k + k; slot++) if (kept[slot] === i) return true;
    return false;
  };
  const top = new TopK(k);

  for (const f of features) {
    const probes = Array.from(keys.subarray(keyStart[f.index]!, keyStart[f.index + 1]!))
      .filter(hasPostings)
      .sort((a, b) => df[a]! - df[b]!)
      .slice(0, options.probesPerRecord);
    for (const key of probes) {
      const w = idf(key);
      for (let at = postingStart[key]!; at < postingStart[key + 1]!; at++) {
        const j = postings[at]!;
        if (sourceOf[j] === sourceOf[f.index]) continue;
        if (score[j] === 0) touched.push(j);
        score[j]! += w;
      }
    }
    top.reset();
    for (const j of touched) top.offer(j, score[j]!);
    const i = f.index;
    const items = top.items();
    for (let slot = 0; slot < items.length; slot++) {
      const j = items[slot]!;
      kept[i * k + slot] = j;
      if (j < i && keptBy(j, i)) continue;
      if (used + 2 > ends.length) {
        const grown = new Int32Array(ends.length * 2);
        grown.set(ends);
        ends = grown;
      }
      ends[used++] = Math.min(i, j);
      ends[used++] = Math.max(i, j);
    }
    for (const j of touched) score[j] = 0;
    touched.length = 0;
  }
  return ends.slice(0, used);
}

/**
 * The k highest-scoring items seen, kept in a small array; most offers lose to the current
 * minimum and cost one comparison, so this beats sorting every touched record.
 */
class TopK {
  readonly #ids: number[] = [];
  readonly #scores: number[] = [];
  constructor(readonly k: number) {}

  reset(): void {
    this.#ids.length = 0;
    this.#scores.length = 0;
  }

  offer(id: number, score: number): void {
    const n = this.#ids.length;
    if (n === this.k && score <= this.#scores[n - 1]!) return;
    // Insertion into a descending array; ties keep the earlier item first (deterministic).
    let i = n === this.k ? n - 1 : n;
    while (i > 0 && this.#scores[i - 1]! < score) {
      this.#ids[i] = this.#ids[i - 1]!;
      this.#scores[i] = this.#scores[i - 1]!;
      i--;
    }
    this.#ids[i] = id;
    this.#scores[i] = score;
  }

  items(): readonly number[] {
    return this.#ids;
  }
}
