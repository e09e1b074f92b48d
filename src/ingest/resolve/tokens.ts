import { COLOR_MATERIAL_WORDS, COLOR_WORDS, NOT_COLOR_BEFORE, PART_NOUNS } from './color-vocabulary.js';

/** Words too common in product titles to say anything about identity. */
const STOPWORDS = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'for',
  'with',
  'in',
  'on',
  'to',
  'by',
  'or',
  'at',
  'from',
  'as',
  'is',
  'new',
  'w',
  'x',
  'inc',
  'ltd',
  'llc',
  'co',
  'corp',
  'amp',
]);

/**
 * Spellings retailers use interchangeably in titles, mapped to one form so that TF-IDF and
 * edition checks see them as the same word.
 */
const SYNONYMS = new Map<string, string>([
  ['professional', 'pro'],
  ['prof', 'pro'],
  ['dlx', 'deluxe'],
  ['std', 'standard'],
  ['stnd', 'standard'],
  ['upg', 'upgrade'],
  ['upgrd', 'upgrade'],
  ['upgr', 'upgrade'],
  ['macintosh', 'mac'],
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
    // `v22` and `22` name the same version, as do `4.0` and `4`.
    let raw = match[0];
    // Most words have neither a leading `v` nor a dot; skip the rewrites for them.
    if (raw.charCodeAt(0) === 118 /* v */ || raw.includes('.'))
      raw = raw.replace(/^v\.?(?=\d)/, '').replace(/(\d)(\.0+)+$/, '$1');
    const token = SYNONYMS.get(raw) ?? raw;
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

/**
 * Color families named in the text (`'Pearl Gray dryer'` → white, gray). Used to tell color
 * variants apart when model numbers do not.
 */
export function colorFamilies(text: string): Set<string> {
  return colorFamiliesOf(tokenize(text));
}

/** {@link colorFamilies} of text already tokenized. */
export function colorFamiliesOf(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    if (!COLOR_WORDS.has(tokens[i]!)) continue;
    if (NOT_COLOR_BEFORE.get(tokens[i]!)?.has(tokens[i + 1] ?? '')) continue;
    // A color phrase (`stainless steel`, `black stainless`) ends where its words end; before
    // a part noun it names that part (`Stainless Steel Drum`, `Stainless Steel Tub`).
    let end = i;
    while (
      end + 1 < tokens.length &&
      (COLOR_WORDS.has(tokens[end + 1]!) || COLOR_MATERIAL_WORDS.has(tokens[end + 1]!))
    )
      end++;
    if (!PART_NOUNS.has(tokens[end + 1] ?? '')) {
      for (let j = i; j <= end; j++) {
        const family = COLOR_WORDS.get(tokens[j]!);
        if (family) out.add(family);
      }
    }
    i = end;
  }
  return out;
}
