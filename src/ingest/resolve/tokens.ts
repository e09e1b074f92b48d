/** Words too common in product titles to say anything about identity. */
const STOPWORDS = new Set([
  'a', 'an', 'and', 'the', 'of', 'for', 'with', 'in', 'on', 'to', 'by', 'or', 'at', 'from', 'as', 'is',
  'new', 'w', 'x', 'inc', 'ltd', 'llc', 'co', 'corp', 'amp',
]);

/**
 * Lower-cases and strips diacritics so that `Café` and `cafe` tokenize alike.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * Splits text into lower-case alphanumeric word tokens, dropping stopwords.
 * Decimal numbers stay whole (`6.0`) because versions are identity-bearing.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of normalizeText(text).matchAll(/[a-z0-9]+(?:\.[0-9]+)*/g)) {
    const token = match[0];
    if (!STOPWORDS.has(token)) out.push(token);
  }
  return out;
}

/** Whether the token is a stopword (exported for tests and blocking). */
export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/**
 * Character n-grams of a code, padded so that prefixes and suffixes count:
 * `charNgrams('AB12', 3)` → `^AB`, `AB1`, `B12`, `12$`.
 */
export function charNgrams(code: string, n = 3): string[] {
  const padded = `^${code}$`;
  if (padded.length <= n) return [padded];
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(padded.slice(i, i + n));
  return out;
}
