import { hasDigit, TYPO_MIN_LENGTH } from './text.js';

/**
 * Typo tolerance over the catalog's vocabulary: a word of 5+ letters that the catalog does
 * not contain may match catalog words one edit away (insert, delete, substitute or swap of
 * neighbours). Numbers and model codes never do: "WF45R6100AW" must not find "WF45R6100AP".
 * Lookups use a deletion index (SymSpell): every word is filed under itself and each
 * one-letter deletion, so candidates are found without scanning the vocabulary.
 */
export class Vocabulary {
  readonly #df: Map<string, number>;
  readonly #deletes = new Map<string, string[]>();

  constructor(entries: Iterable<[string, number]>) {
    this.#df = new Map(entries);
    for (const term of this.#df.keys()) {
      if (term.length < TYPO_MIN_LENGTH - 1 || hasDigit(term)) continue;
      for (const key of [term, ...deletions(term)]) {
        const list = this.#deletes.get(key);
        if (list) {
          if (list.at(-1) !== term) list.push(term);
        } else this.#deletes.set(key, [term]);
      }
    }
  }

  /** documents containing the word (0 when the catalog does not know it) */
  df(word: string): number {
    return this.#df.get(word) ?? 0;
  }

  /** True when typo tolerance may apply to this query word at all. */
  static eligible(word: string): boolean {
    return word.length >= TYPO_MIN_LENGTH && !hasDigit(word);
  }

  /**
   * Catalog words one edit away from an unknown word, most frequent first (at most `max`).
   * Known words and ineligible words get none: a correctly spelled word means what it says.
   */
  corrections(word: string, max = 3): string[] {
    if (!Vocabulary.eligible(word) || this.df(word) > 0) return [];
    const found = new Set<string>();
    for (const key of [word, ...deletions(word)]) {
      for (const term of this.#deletes.get(key) ?? []) {
        if (term !== word && withinOneEdit(word, term)) found.add(term);
      }
    }
    return [...found].sort((a, b) => this.df(b) - this.df(a) || (a < b ? -1 : 1)).slice(0, max);
  }
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Damerau distance ≤ 1 (a swap of neighbouring letters counts as one edit). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
