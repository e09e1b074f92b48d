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
 * Where a title may name its brand: its opening, and the opening of each part after a dash,
 * bar or "by" (`24" Dishwasher in Stainless - GE GDT225`, `Air Fryer | Ninja AF101`,
 * `Stand Mixer by KitchenAid`). Brands named later inside a part are left alone because
 * titles mention other brands there (`case for Apple iPod`).
 */
export function titleBrandOpenings(title: string): string[] {
  const parts = title.split(/\s+[-–—|]\s+|\s+by\s+/i).map((p) => p.trim());
  return [title, ...parts.slice(1)].filter(Boolean);
}

/**
 * Brands known from records that state one, used to find the brand a title opens with.
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
   * The known brand named within the first two words of the title or of a part of it after a
   * dash, bar or "by" ({@link titleBrandOpenings}), longest first, or ''.
   */
  infer(title: string): string {
    for (const opening of titleBrandOpenings(title)) {
      const tokens = tokenize(opening).slice(0, 4);
      for (let start = 0; start < Math.min(tokens.length, 2); start++) {
        for (let len = Math.min(this.#longest, tokens.length - start); len >= 1; len--) {
          const candidate = tokens.slice(start, start + len).join(' ');
          if (this.#brands.has(candidate)) return candidate;
        }
      }
    }
    return '';
  }
}
