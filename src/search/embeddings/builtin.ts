import { fold, hasDigit, hash32, words } from '../text.js';

/** Dimensions of the built-in vectors. 256 keeps 35k products at 35 MB and a scan under 10 ms. */
export const BUILTIN_DIMS = 256;
/** positions each hashed feature touches (a sparse random index vector) */
const FEATURE_SPREAD = 6;
/** share of a word's own spelling in its vector; the rest is the company it keeps */
export const SELF_WEIGHT = 0.75;
/** weight of the whole word next to each of its letter trigrams in the spelling vector */
const WORD_WEIGHT = 2;

export interface TermModelOptions {
  selfWeight?: number;
  wordWeight?: number;
}

/**
 * The spelling vector of a word: hashed character trigrams of `<word>` plus the whole word,
 * each a fixed sparse random ±1 vector (random indexing). Words that share most of their
 * letters ("dishwasher", "dishwashers", "dishwaser") get nearby vectors with no training.
 * Numbers and model codes use only the whole word: "36" must not look like "365".
 */
export function spellingVector(
  word: string,
  wordWeight = WORD_WEIGHT,
  out = new Float32Array(BUILTIN_DIMS),
): Float32Array {
  const add = (feature: string, weight: number) => {
    for (let k = 0; k < FEATURE_SPREAD; k++) {
      const h = hash32(feature, k + 1);
      out[h % BUILTIN_DIMS]! += (h & 0x80000000 ? -1 : 1) * weight;
    }
  };
  add(`w:${word}`, wordWeight);
  if (!hasDigit(word) && word.length > 2) {
    const padded = `<${word}>`;
    for (let i = 0; i + 3 <= padded.length; i++) add(padded.slice(i, i + 3), 1);
  }
  return normalize(out);
}

export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  if (n > 0) {
    const inv = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

/** The words of one product or query as the embeddings see them (plurals folded). */
export const embeddingTerms = (text: string): string[] => words(text).map(fold);

export const idf = (df: number, docs: number): number => Math.log(1 + docs / Math.max(1, df));

/**
 * Embeds a bag of words with a term model: the idf-weighted sum of the word vectors.
 * Unknown words fall back to their spelling vector (typos and new words still land near
 * the words they resemble). Returns null when there is nothing to embed.
 */
export function embedTerms(
  terms: string[],
  lookup: (term: string) => { df: number; vector: Float32Array } | undefined,
  docs: number,
): Float32Array | null {
  if (terms.length === 0) return null;
  const out = new Float32Array(BUILTIN_DIMS);
  for (const t of terms) {
    const known = lookup(t);
    const w = idf(known?.df ?? 1, docs);
    const v = known?.vector ?? spellingVector(t);
    for (let i = 0; i < BUILTIN_DIMS; i++) out[i]! += w * v[i]!;
  }
  return normalize(out);
}
