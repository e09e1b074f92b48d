import { readFileSync } from 'node:fs';
import type { ColorVocabulary } from '../../content/index.js';

/**
 * The color vocabulary of `data/resolve/colors.json`, read once: the color words of titles
 * (tokens.ts) and the color suffix codes of model numbers (base-model.ts). Read as plain JSON
 * (the resolver runs in worker threads too, and the schema library costs each a start-up);
 * `test/data-files.test.ts` checks the file against its schema (`loadColorVocabulary`).
 */
const vocabulary = JSON.parse(
  readFileSync(new URL('../../../data/resolve/colors.json', import.meta.url), 'utf8'),
) as ColorVocabulary;

/** Color word → the color family it belongs to; finishes count as colors. */
export const COLOR_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries(vocabulary.words).flatMap(([family, words]) =>
    words.map((w): [string, string] => [w, family]),
  ),
);

/** Words that may follow a color word inside one color phrase (`stainless steel`). */
export const COLOR_MATERIAL_WORDS: ReadonlySet<string> = new Set(vocabulary.material_words);

/**
 * Nouns of a product's parts: a color phrase right before one names that part's color or
 * material (`NeveRust Stainless Steel Drum`, `Stainless Steel Tub`), not the product's.
 */
export const PART_NOUNS: ReadonlySet<string> = new Set(vocabulary.part_nouns);

/**
 * Color word → the nouns before which it names what the product burns or holds, not its color
 * (`Charcoal Grill`, `Charcoal Filter`; a `Charcoal Gray Grill` still is gray).
 */
export const NOT_COLOR_BEFORE: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(vocabulary.not_color_before).map(([word, nouns]) => [word, new Set(nouns)]),
);

/**
 * Color suffix codes by the color they stand for, so `BK` and `BLK` compare equal. A code
 * listed under two colors is ambiguous between makers (`BL` is black at Yamaha, blue
 * elsewhere) and agrees with either. Stainless steel is a finish of its own, sold beside
 * silver (`…SS` and `…SL` are two products); `S` may stand for either.
 */
export const COLOR_CODES: Readonly<Record<string, readonly string[]>> = vocabulary.suffix_codes;
