/** URL-safe slug: lower case ASCII letters, digits and single dashes. */
export function slugify(text: string, maxLength = 80): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
}

/** Key for alias lookups: lower case, letters and digits only ("G.E. Appliances" → "geappliances"). */
export const aliasKey = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&|\+/g, 'and')
    .replace(/[^a-z0-9]/g, '');

/** What {@link cleanText} changes: control characters, whitespace other than single spaces, spaces at either end. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const NEEDS_CLEANING = /[\u0000-\u001f\u007f]|[^\S ]| {2}|^ | $/;

/** Collapses whitespace and strips control characters from feed text. */
export const cleanText = (text: string): string =>
  // most feed values are clean already: one test instead of two replaces and a trim (cleanText
  // runs on every field of every row)
  NEEDS_CLEANING.test(text)
    ? text
        // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
        .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : text;
