import type { Listing } from '../listing.js';
import type { TypeInfo } from './reference.js';

export interface Classification {
  type: TypeInfo | null;
  confidence: number;
}

/**
 * Assigns a listing to a product type from its retailer category path, Google category and
 * title words: each type's name and synonyms are phrases; a phrase found in the category path
 * counts more than one in the title, and longer phrases beat shorter ones.
 */
export class Classifier {
  /** phrases indexed by their first word, so a text is matched in one pass over its words */
  readonly #byFirstWord = new Map<string, { words: string[]; type: TypeInfo }[]>();
  readonly #byGoogleId = new Map<string, TypeInfo>();
  readonly #byGooglePath = new Map<string, TypeInfo>();

  constructor(types: Iterable<TypeInfo>) {
    for (const type of types) {
      const phrases = new Set(
        [type.name, ...(type.def.synonyms ?? [])].map((p) => normalize(p)).filter(Boolean),
      );
      for (const phrase of [...phrases]) if (!phrase.endsWith('s')) phrases.add(`${phrase}s`);
      for (const phrase of phrases) {
        const words = phrase.split(' ');
        const list = this.#byFirstWord.get(words[0]!) ?? [];
        list.push({ words, type });
        this.#byFirstWord.set(words[0]!, list);
      }
      this.#byGoogleId.set(String(type.def.google_product_category.id), type);
      this.#byGooglePath.set(normalize(type.def.google_product_category.path), type);
    }
  }

  classify(listing: Pick<Listing, 'title' | 'categoryPath' | 'googleCategory'>): Classification {
    const google = listing.googleCategory?.trim();
    if (google) {
      const hit = this.#byGoogleId.get(google) ?? this.#byGooglePath.get(normalize(google));
      if (hit) return { type: hit, confidence: 0.95 };
    }
    const scores = new Map<TypeInfo, number>();
    const add = (text: string | null, weight: number) => {
      if (!text) return;
      const words = normalize(text).split(' ');
      words.forEach((word, at) => {
        for (const phrase of this.#byFirstWord.get(word) ?? []) {
          if (phrase.words.every((w, k) => words[at + k] === w)) {
            scores.set(
              phrase.type,
              (scores.get(phrase.type) ?? 0) + weight * (1 + 0.5 * (phrase.words.length - 1)),
            );
          }
        }
      });
    };
    // the last segment of a category path is the most specific
    const segments = listing.categoryPath?.split(/[>/|]/) ?? [];
    add(segments.at(-1) ?? null, 3);
    add(segments.slice(0, -1).join(' '), 1);
    add(listing.title, 2);
    let best: TypeInfo | null = null;
    let bestScore = 0;
    let total = 0;
    for (const [type, score] of scores) {
      total += score;
      if (score > bestScore) {
        best = type;
        bestScore = score;
      }
    }
    if (!best) return { type: null, confidence: 0 };
    return {
      type: best,
      confidence: Math.round(Math.min(0.9, (bestScore / total) * Math.min(1, bestScore / 4)) * 100) / 100,
    };
  }
}

const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
