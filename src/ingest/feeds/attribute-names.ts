/** Other names feeds use for a Merchant Center attribute (Content API camelCase, plurals). */
const SYNONYMS: Record<string, string> = {
  offer_id: 'id',
  product_details: 'product_detail',
  product_types: 'product_type',
  google_category: 'google_product_category',
};

/** Merchant Center attribute names as feeds write them → one canonical name. */
export function normalizeAttributeName(name: string): string {
  const snake = name
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/^g:/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  // own keys only: a column named `constructor` or `toString` is that name, not Object's method
  return Object.hasOwn(SYNONYMS, snake) ? (SYNONYMS[snake] as string) : snake;
}
