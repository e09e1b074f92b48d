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
  const { features, df, size } = corpus;
  const postings = new Map<number, number[]>();
  for (const f of features) {
    for (const key of f.keys) {
      if (df[key]! > options.maxBlockSize || df[key]! < 2) continue;
      let list = postings.get(key);
      if (!list) {
        list = [];
        postings.set(key, list);
      }
      list.push(f.index);
    }
  }

  const idf = (key: number): number => Math.log((size + 1) / (df[key]! + 0.5));
  const score = new Float64Array(size);
  const touched: number[] = [];
  const seen = new Set<number>();
  const pairs: Array<[number, number]> = [];

  for (const f of features) {
    const probes = f.keys
      .filter((k) => postings.has(k))
      .sort((a, b) => df[a]! - df[b]!)
      .slice(0, options.probesPerRecord);
    for (const key of probes) {
      const w = idf(key);
      for (const j of postings.get(key)!) {
        if (j === f.index || features[j]!.source === f.source) continue;
        if (score[j] === 0) touched.push(j);
        score[j]! += w;
      }
    }
    touched.sort((a, b) => score[b]! - score[a]!);
    for (const j of touched.slice(0, options.candidatesPerRecord)) {
      const lo = Math.min(f.index, j);
      const hi = Math.max(f.index, j);
      // Pairs are keyed as lo * size + hi; fine up to ~9e7 records before losing precision.
      const id = lo * size + hi;
      if (!seen.has(id)) {
        seen.add(id);
        pairs.push([lo, hi]);
      }
    }
    for (const j of touched) score[j] = 0;
    touched.length = 0;
  }
  return pairs;
}
