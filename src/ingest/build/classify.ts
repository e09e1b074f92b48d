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
  readonly #phrases: { phrase: string; type: TypeInfo; words: number }[] = [];
  readonly #byGoogleId = new Map<string, TypeInfo>();
  readonly #byGooglePath = new Map<string, TypeInfo>();

  constructor(types: Iterable<TypeInfo>) {
    for (const type of types) {
      const phrases = new Set(
        [type.name, ...(type.def.synonyms ?? [])].map((p) => normalize(p)).filter(Boolean),
      );
      for (const phrase of phrases) {
        this.#phrases.push({ phrase, type, words: phrase.split(' ').length });
        if (!phrase.endsWith('s'))
          this.#phrases.push({ phrase: `${phrase}s`, type, words: phrase.split(' ').length });
      }
      this.#byGoogleId.set(String(type.def.google_product_category.id), type);
      this.#byGooglePath.set(normalize(type.def.google_product_category.path), type);
    }
    this.#phrases.sort((a, b) => b.phrase.length - a.phrase.length);
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
      const haystack = ` ${normalize(text)} `;
      for (const { phrase, type, words } of this.#phrases) {
        if (haystack.includes(` ${phrase} `))
          scores.set(type, (scores.get(type) ?? 0) + weight * (1 + 0.5 * (words - 1)));
      }
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
