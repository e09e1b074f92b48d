/**
 * The one tokenizer of search-side text work (vocabulary, typo candidates, embeddings,
 * query understanding). It splits like FTS5's unicode61 tokenizer so that a word seen here
 * is a word the keyword index holds.
 */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** True for words that are numbers or model codes: they never get typo tolerance. */
export const hasDigit = (word: string): boolean => /\p{N}/u.test(word);

/**
 * A light plural folding for embeddings and query understanding ("nails" and "nail" are one
 * feature). The keyword index stems with Porter on its own.
 */
export function fold(word: string): string {
  if (word.length <= 3 || hasDigit(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** Words of at least this many letters may match a vocabulary word one edit away. */
export const TYPO_MIN_LENGTH = 5;

/** 32-bit FNV-1a hash with a seed, used to place features in fixed random positions. */
export function hash32(text: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // final avalanche so nearby seeds give independent positions
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}
