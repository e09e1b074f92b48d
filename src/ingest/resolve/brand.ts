/**
 * Brand names as retailers write them differ in case and corporate suffixes
 * (`LINKSYS`, `Linksys Inc.`, `sage software`); compare them in a normalized form, and
 * infer a missing brand from the title using the brands other records state.
 */
import { tokenize } from './tokens.js';

const CORPORATE_WORDS = new Set([
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'llc',
  'gmbh',
  'plc',
  'the',
  'software',
  'international',
  'intl',
  'systems',
  'technologies',
  'technology',
  'electronics',
  'usa',
  'america',
  'north',
  'group',
  'products',
  'entertainment',
  'interactive',
  'media',
  'communications',
  'development',
  'publishing',
  'digital',
  'consumer',
]);

/** Normalized brand: lower-case tokens without corporate words, space-joined; '' if none. */
export function normalizeBrand(brand: string | null | undefined): string {
  if (!brand) return '';
  const tokens = tokenize(brand);
  const kept = tokens.filter((t) => !CORPORATE_WORDS.has(t));
  return (kept.length > 0 ? kept : tokens).join(' ');
}

/** Whether two normalized brands name the same maker (one is a word-prefix of the other). */
export function brandsAgree(a: string, b: string): boolean {
  if (!a || !b) return false;
  return a === b || a.startsWith(`${b} `) || b.startsWith(`${a} `);
}

/**
 * Brands known from records that state one, used to find the brand at the start of a title.
 */
export class BrandLexicon {
  readonly #brands = new Set<string>();
  #longest = 1;

  /** Adds a normalized brand. */
  add(brand: string): void {
    if (!brand) return;
    this.#brands.add(brand);
    this.#longest = Math.max(this.#longest, brand.split(' ').length);
  }

  /**
   * The known brand named within the first few words of the title, longest first, or ''.
   * Only the opening words count because titles mention other brands later
   * (`case for Apple iPod`).
   */
  infer(title: string): string {
    const tokens = tokenize(title).slice(0, 4);
    for (let start = 0; start < Math.min(tokens.length, 2); start++) {
      for (let len = Math.min(this.#longest, tokens.length - start); len >= 1; len--) {
        const candidate = tokens.slice(start, start + len).join(' ');
        if (this.#brands.has(candidate)) return candidate;
      }
    }
    return '';
  }
}
