/** Merchant Center attribute names as feeds write them → one canonical name. */
export function normalizeAttributeName(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/^g:/, '')
    .replace(/[\s-]+/g, '_');
}
