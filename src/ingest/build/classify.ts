import type { Listing } from '../listing.js';
import type { TypeInfo } from './reference.js';

export interface Classification {
  type: TypeInfo | null;
  confidence: number;
}

/**
 * Assigns a listing to a product type from its retailer category path, Google category and
 * title words: each type's name and synonyms are phrases; a phrase found in the category path
 * counts more than one in the title, and longer phrases beat shorter ones. A Google category
 * shared by sibling types (619 "Vacuums" is robot, upright, stick, canister and wet-dry) only
 * narrows the candidates: the words choose among them.
 */
export class Classifier {
  /** phrase → the types it names, with the phrase's length in words */
  readonly #phrases = new Map<string, { type: TypeInfo; words: number }[]>();
  readonly #maxWords: number;
  /** Google category id or normalized path → the types filed under it (several for siblings) */
  readonly #byGoogleId = new Map<string, TypeInfo[]>();
  readonly #byGooglePath = new Map<string, TypeInfo[]>();

  constructor(types: Iterable<TypeInfo>) {
    let maxWords = 1;
    const addPhrase = (phrase: string, type: TypeInfo) => {
      const words = phrase.split(' ').length;
      maxWords = Math.max(maxWords, words);
      const list = this.#phrases.get(phrase) ?? [];
      if (!list.some((e) => e.type === type)) list.push({ type, words });
      this.#phrases.set(phrase, list);
    };
    for (const type of types) {
      const phrases = new Set(
        [type.name, ...(type.def.synonyms ?? [])].map((p) => normalize(p)).filter(Boolean),
      );
      for (const phrase of phrases) {
        addPhrase(phrase, type);
        if (!phrase.endsWith('s')) addPhrase(`${phrase}s`, type);
      }
      const id = String(type.def.google_product_category.id);
      const path = normalize(type.def.google_product_category.path);
      this.#byGoogleId.set(id, [...(this.#byGoogleId.get(id) ?? []), type]);
      this.#byGooglePath.set(path, [...(this.#byGooglePath.get(path) ?? []), type]);
    }
    this.#maxWords = maxWords;
  }

  /**
   * The listing's product type and a confidence: a Google category id or path that names one
   * type is taken at 0.95. Otherwise phrases in the category path's last segment (weight 3),
   * the rest of the path (1) and the title (2) vote, longer phrases counting more. When the
   * Google category names several sibling types, only they compete and the confidence is
   * the winner's share of their votes (times 0.95); without a Google category it is the
   * winner's share of all votes, damped when the evidence is thin.
   */
  classify(listing: Pick<Listing, 'title' | 'categoryPath' | 'googleCategory'>): Classification {
    const google = listing.googleCategory?.trim();
    const candidates = google
      ? (this.#byGoogleId.get(google) ?? this.#byGooglePath.get(normalize(google)))
      : undefined;
    if (candidates?.length === 1) return { type: candidates[0]!, confidence: 0.95 };
    const scores = this.#votes(listing, google);
    if (candidates) {
      // the shared category is certain; which sibling is up to the words
      let best: TypeInfo = candidates[0]!;
      let bestScore = 0;
      let total = 0;
      for (const type of candidates) {
        const score = scores.get(type) ?? 0;
        total += score;
        if (score > bestScore) {
          best = type;
          bestScore = score;
        }
      }
      const share = total > 0 ? bestScore / total : 1 / candidates.length;
      return { type: best, confidence: Math.round(0.95 * share * 100) / 100 };
    }
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

  /** Each type's phrase votes from the category path, the title and a Google category path. */
  #votes(
    listing: Pick<Listing, 'title' | 'categoryPath'>,
    google: string | undefined,
  ): Map<TypeInfo, number> {
    const scores = new Map<TypeInfo, number>();
    const add = (text: string | null, weight: number) => {
      if (!text) return;
      const words = normalize(text).split(' ');
      // each type counts once per text, by its longest phrase found there
      const best = new Map<TypeInfo, number>();
      for (let i = 0; i < words.length; i++) {
        let phrase = '';
        for (let n = 1; n <= this.#maxWords && i + n <= words.length; n++) {
          phrase = n === 1 ? words[i]! : `${phrase} ${words[i + n - 1]}`;
          for (const { type, words: w } of this.#phrases.get(phrase) ?? [])
            best.set(type, Math.max(best.get(type) ?? 0, weight * (1 + 0.5 * (w - 1))));
        }
      }
      for (const [type, score] of best) scores.set(type, (scores.get(type) ?? 0) + score);
    };
    // the last segment of a category path is the most specific
    const segments = listing.categoryPath?.split(/[>/|]/) ?? [];
    add(segments.at(-1) ?? null, 3);
    add(segments.slice(0, -1).join(' '), 1);
    add(listing.title, 2);
    // a Google category path that is not a type's own still names words worth a vote
    if (google && !/^\d+$/.test(google)) add(google.split('>').at(-1) ?? null, 2);
    return scores;
  }
}

const normalize = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The classifications of a run's listings by slot, in two typed arrays (an object and a map
 * entry a listing were ≈ 100 bytes of heap each: 150 MB at 1.58 million listings).
 */
export class Classifications {
  readonly #types: (TypeInfo | null)[] = [];
  readonly #typeIndex = new Map<TypeInfo | null, number>();
  readonly #type: Int32Array;
  readonly #confidence: Float64Array;

  constructor(size: number) {
    this.#type = new Int32Array(size);
    this.#confidence = new Float64Array(size);
  }

  set(slot: number, c: Classification): void {
    let index = this.#typeIndex.get(c.type);
    if (index === undefined) {
      index = this.#types.length;
      this.#types.push(c.type);
      this.#typeIndex.set(c.type, index);
    }
    this.#type[slot] = index;
    this.#confidence[slot] = c.confidence;
  }

  at(slot: number): Classification {
    return { type: this.#types[this.#type[slot]!]!, confidence: this.#confidence[slot]! };
  }
}
