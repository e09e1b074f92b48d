import { type Db, perConnection, stmt } from '../catalog/index.js';
import { inferTypes, type TypeCandidate } from './needs/index.js';
import { productTable, specValues } from './product-table.js';
import { words } from './text.js';

/** A spec condition understood from the query, in the shape of an advanced-search spec filter. */
export interface SpecConstraint {
  key: string;
  label: string;
  /** exact value(s), or a numeric range */
  value?: string | boolean;
  min?: number;
  max?: number;
  /** the spec's unit for a numeric range ("dBA", "in"), so a reader can show "≤ 44 dBA" */
  unit?: string | null;
  /** the words of the query it came from */
  from: string;
  /** a relative word ("quiet", "large"): ranks products by it instead of filtering */
  soft?: boolean;
}

export interface Interpretation {
  /** the one product type the constraints are read against: named, or inferred with confidence */
  product_type: { id: string; slug: string; name: string } | null;
  /**
   * the product types considered, most likely first, with confidence (0–1) and why: a type
   * the query names has confidence 1; otherwise the types whose need text the query matches
   */
  types: TypeCandidate[];
  brand: { id: string; slug: string; name: string } | null;
  /** soft: from a relative word ("cheap"), so it ranks instead of filtering */
  price: { min?: number; max?: number; soft?: boolean } | null;
  specs: SpecConstraint[];
  /** query words that set no constraint (they still count for similarity) */
  leftover: string[];
  /** the text that is embedded: the query without price phrases */
  text: string;
}

interface SpecDef {
  key: string;
  label: string;
  type: string;
  unit?: string | null;
  values?: string[];
  aliases?: string[];
}
interface TypeInfo {
  id: string;
  slug: string;
  name: string;
  phrases: string[];
  specs: SpecDef[];
}

const STOPWORDS = new Set(
  'a an the for with and or of in on to my our your that this is are be by from at as it its which who than under below over above between less more most cheaper cheapest best good great nice new i me we want need looking some any'.split(
    ' ',
  ),
);

/** Words that shoppers use for "a lot" or "a little" of a measurable quality. General, not per query. */
const QUALITIES: { words: string[]; hints: string[]; direction: 'low' | 'high' }[] = [
  {
    words: ['quiet', 'quietest', 'silent', 'quieter'],
    hints: ['dba', 'db', 'sone', 'noise'],
    direction: 'low',
  },
  { words: ['bright', 'brightest', 'brighter'], hints: ['nits', 'lumens', 'brightness'], direction: 'high' },
  { words: ['lightweight', 'light-weight'], hints: ['lb', 'weight'], direction: 'low' },
  { words: ['powerful', 'strong'], hints: ['w', 'watts', 'hp', 'cfm', 'power', 'btu'], direction: 'high' },
  {
    words: ['big', 'large', 'huge', 'spacious', 'roomy'],
    hints: ['capacity', 'screen_size', 'size'],
    direction: 'high',
  },
  {
    words: ['small', 'compact', 'mini', 'tiny'],
    hints: ['capacity', 'screen_size', 'size', 'width'],
    direction: 'low',
  },
  { words: ['fast', 'quick', 'speedy'], hints: ['hz', 'speed', 'rpm'], direction: 'high' },
  {
    words: ['battery life', 'long lasting', 'long-lasting', 'runtime', 'run time'],
    hints: ['hr', 'runtime', 'battery_life', 'mah', 'wh', 'ah'],
    direction: 'high',
  },
];
const CHEAP = new Set(['cheap', 'budget', 'affordable', 'inexpensive', 'cheapest', 'bargain', 'value']);
const PREMIUM = new Set(['premium', 'luxury', 'high-end', 'flagship', 'highend']);

/** Unit words in queries → the units the taxonomy writes. */
const UNITS: [RegExp, string][] = [
  [/^(in|inch|inches|"|”)$/, 'in'],
  [/^(cu ?ft|cubic feet|cubic foot)$/, 'cu ft'],
  [/^(lb|lbs|pound|pounds)$/, 'lb'],
  [/^(w|watt|watts)$/, 'w'],
  [/^(hz|hertz)$/, 'hz'],
  [/^(nit|nits)$/, 'nits'],
  [/^(db|dba|decibels?)$/, 'dba'],
  [/^(gal|gallon|gallons)$/, 'gal'],
  [/^(btu|btus)$/, 'btu'],
  [/^(mah)$/, 'mah'],
  [/^(gb)$/, 'gb'],
  [/^(tb)$/, 'tb'],
  [/^(mp|megapixels?)$/, 'mp'],
  [/^(qt|quarts?)$/, 'qt'],
  [/^(v|volts?)$/, 'v'],
  [/^(mm)$/, 'mm'],
  [/^(cfm)$/, 'cfm'],
  [/^(hp)$/, 'hp'],
];

/**
 * An inferred type this sure becomes the type constraints are read against ("quiet" looks at
 * its noise spec). Less sure types still rank (see advanced.ts); they never filter alone.
 */
export const SURE_TYPE = 0.5;

const norm = (s: string) => words(s).join(' ');
const num = (s: string) => {
  const k = /k$/i.test(s);
  const n = Number(s.replace(/[,$k]/gi, ''));
  return k ? n * 1000 : n;
};

interface Vocab {
  types: TypeInfo[];
  phrases: { phrase: string; type: TypeInfo }[];
  /** each phrase's first place in `phrases` (longest first), for lookups by word run */
  phraseAt: Map<string, number>;
  /** the most words a phrase has */
  phraseWords: number;
  brands: Map<string, { id: string; slug: string; name: string }>;
}
const vocabs = perConnection<Vocab>();
const vocab = (db: Db): Vocab => vocabs(db, '', buildVocab);

function buildVocab(db: Db): Vocab {
  const types = (
    stmt(db, 'SELECT id, slug, name, schema_json FROM product_types').all() as {
      id: string;
      slug: string;
      name: string;
      schema_json: string;
    }[]
  ).map((t) => {
    const schema = JSON.parse(t.schema_json || '{}') as { synonyms?: string[]; specs?: SpecDef[] };
    const phrases = [...new Set([t.name, t.slug.replace(/-/g, ' '), ...(schema.synonyms ?? [])].map(norm))];
    return { id: t.id, slug: t.slug, name: t.name, phrases, specs: schema.specs ?? [] };
  });
  const phrases: Vocab['phrases'] = [];
  for (const type of types)
    for (const p of type.phrases) {
      if (!p) continue;
      phrases.push({ phrase: p, type });
      if (!p.endsWith('s')) phrases.push({ phrase: `${p}s`, type });
    }
  phrases.sort((a, b) => b.phrase.length - a.phrase.length);
  const phraseAt = new Map<string, number>();
  let phraseWords = 0;
  for (const [i, { phrase }] of phrases.entries()) {
    if (!phraseAt.has(phrase)) phraseAt.set(phrase, i);
    phraseWords = Math.max(phraseWords, phrase.split(' ').length);
  }
  const brands = new Map<string, { id: string; slug: string; name: string }>();
  const byId = new Map<string, { id: string; slug: string; name: string }>();
  for (const b of stmt(db, 'SELECT id, slug, name FROM brands').all() as {
    id: string;
    slug: string;
    name: string;
  }[]) {
    byId.set(b.id, b);
    brands.set(b.name.toLowerCase().replace(/[^a-z0-9]/g, ''), b);
  }
  for (const a of stmt(db, 'SELECT alias, brand_id FROM brand_aliases').all() as {
    alias: string;
    brand_id: string;
  }[]) {
    const b = byId.get(a.brand_id);
    if (b && a.alias.length >= 2) brands.set(a.alias, b);
  }
  return { types, phrases, phraseAt, phraseWords, brands };
}

/** Percentile of a type's numeric values of a spec (or of prices when key is null). */
const percentiles = perConnection<number | null>();
function percentile(db: Db, typeId: string | null, key: string | null, q: number): number | null {
  return percentiles(db, `${typeId}|${key}|${q}`, () => computePercentile(db, typeId, key, q));
}

function computePercentile(db: Db, typeId: string | null, key: string | null, q: number): number | null {
  const t = productTable(db);
  const values: number[] = [];
  const spec = key ? specValues(db, key) : null;
  for (let i = 0; i < t.rowids.length; i++) {
    if (typeId && t.type[i] !== typeId) continue;
    const v = spec ? spec.numeric.get(t.rowids[i]!) : t.price[i];
    if (v !== undefined && Number.isFinite(v)) values.push(v);
  }
  if (values.length < 3) return null;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.floor(q * values.length))]!;
}

/**
 * The product type a query names by its longest type name or synonym ("dishwasher
 * detergent" names detergent, not dishwashers), or null.
 */
export function typeNamedBy(db: Db, text: string): { id: string; slug: string } | null {
  // every run of the query's words that could be a phrase, looked up; the first phrase in
  // `phrases` order wins, as a scan of them all would find (a scan cost ~50 µs a search)
  const v = vocab(db);
  const list = words(text);
  let best = -1;
  for (let i = 0; i < list.length; i++) {
    let run = '';
    for (let n = 0; n < v.phraseWords && i + n < list.length; n++) {
      run = n === 0 ? (list[i] as string) : `${run} ${list[i + n]}`;
      const at = v.phraseAt.get(run);
      if (at !== undefined && (best < 0 || at < best)) best = at;
    }
  }
  const type = v.phrases[best]?.type;
  return type ? { id: type.id, slug: type.slug } : null;
}

/**
 * Reads a natural-language query into constraints: product type (names and synonyms of the
 * taxonomy), brand (names and aliases), price bounds ("under $800", "between 500 and 900",
 * "cheap"), and spec constraints through the type's attribute schema: booleans by label or
 * alias ("third rack"), enum values ("4k" → 4K UHD), numbers with units ("65 inch"), and
 * measurable qualities ("quiet" → the type's noise-level spec in its quietest third).
 */
export function understand(db: Db, text: string): Interpretation {
  const v = vocab(db);
  let rest = ` ${text.toLowerCase().normalize('NFKC')} `;
  const consumed = new Set<string>();
  const take = (phrase: string) => {
    for (const w of phrase.split(' ')) consumed.add(w);
  };

  // price bounds
  let price: Interpretation['price'] = null;
  const money = '\\$?\\s*(\\d[\\d,]*(?:\\.\\d+)?k?)';
  const between = new RegExp(`(?:between|from)\\s+${money}\\s*(?:and|to|-)\\s*${money}`, 'i');
  const range = /\$\s*(\d[\d,]*(?:\.\d+)?k?)\s*(?:-|to)\s*\$?\s*(\d[\d,]*(?:\.\d+)?k?)/i;
  const upper = new RegExp(
    `(?:under|below|less than|cheaper than|up to|no more than|at most|max(?:imum)?|<)\\s*${money}(?!\\s*(?:in|inch|"|lb|w|hz|cu|gal|qt|mm|ft)\\b)`,
    'i',
  );
  const lower = new RegExp(
    `(?:over|above|more than|at least|min(?:imum)?|>)\\s*${money}(?!\\s*(?:in|inch|"|lb|w|hz|cu|gal|qt|mm|ft)\\b)`,
    'i',
  );
  const strip = (m: RegExpMatchArray) => {
    rest = rest.replace(m[0], ' ');
  };
  let m = rest.match(between) ?? rest.match(range);
  if (m) {
    const [a, b] = [num(m[1]!), num(m[2]!)].sort((x, y) => x - y);
    price = { min: a!, max: b! };
    strip(m);
  } else {
    m = rest.match(upper);
    if (m) {
      price = { max: num(m[1]!) };
      strip(m);
    }
    m = rest.match(lower);
    if (m) {
      price = { ...(price ?? {}), min: num(m[1]!) };
      strip(m);
    }
  }
  const embedText = rest.replace(/\s+/g, ' ').trim();
  const q = ` ${norm(rest)} `;
  const qWords = q.trim().split(' ').filter(Boolean);

  // product type: the longest name or synonym found, else the types the need describes
  let type: TypeInfo | null = null;
  let types: TypeCandidate[] = [];
  for (const { phrase, type: t } of v.phrases) {
    if (q.includes(` ${phrase} `)) {
      type = t;
      take(phrase);
      types = [
        { id: t.id, slug: t.slug, name: t.name, confidence: 1, matched: [`names the type: ${phrase}`] },
      ];
      break;
    }
  }
  // A named type can be the context rather than the thing wanted ("hang the television on
  // the wall" names a TV and wants a mount): the need text of every type is scored too, and
  // a sure type that is not the named one wins when the named one is far less likely.
  const inferred = inferTypes(db, embedText);
  const top = inferred[0];
  if (!type || (top && top.id !== type.id && top.confidence >= SURE_TYPE)) {
    const named = type ? (inferred.find((t) => t.id === type!.id)?.confidence ?? 0) : 0;
    if (!type || named < top!.confidence / 4) {
      if (type)
        for (const w of type.phrases.find((p) => q.includes(` ${p} `))?.split(' ') ?? []) consumed.delete(w);
      types = inferred;
      type = top && top.confidence >= SURE_TYPE ? (v.types.find((t) => t.id === top.id) ?? null) : null;
    }
  }

  // brand: 1- to 3-word runs looked up by name or alias
  let brand: Interpretation['brand'] = null;
  for (let n = 3; n >= 1 && !brand; n--) {
    for (let i = 0; i + n <= qWords.length; i++) {
      const run = qWords.slice(i, i + n);
      const hit = v.brands.get(run.join(''));
      if (hit && !run.every((w) => consumed.has(w))) {
        brand = hit;
        take(run.join(' '));
        break;
      }
    }
  }

  const specs: SpecConstraint[] = [];
  if (type) {
    const has = (phrase: string) => phrase.length > 0 && q.includes(` ${phrase} `);
    for (const spec of type.specs) {
      const names = [spec.label, ...(spec.aliases ?? [])].map(norm).filter((n) => n.length > 2);
      if (spec.type === 'boolean') {
        const hit = names.find(has);
        if (hit) {
          specs.push({ key: spec.key, label: spec.label, value: true, from: hit });
          take(hit);
        }
      } else if (spec.type === 'enum' && spec.values) {
        const values = spec.values.map((val) => ({ val, words: norm(val).split(' ').filter(Boolean) }));
        const whole = values.filter((x) => x.words.length > 0 && has(x.words.join(' ')));
        let hit = whole.sort((a, b) => b.words.length - a.words.length)[0];
        let from = hit?.words.join(' ');
        if (!hit) {
          // a word that belongs to exactly one value of this spec ("4k" → "4K UHD")
          for (const w of qWords) {
            // words of the type phrase count too: "4k tv" names the type and the resolution
            if (STOPWORDS.has(w) || w.length < 2) continue;
            const owners = values.filter((x) => x.words.includes(w));
            if (owners.length === 1) {
              hit = owners[0];
              from = w;
              break;
            }
          }
        }
        if (hit) {
          specs.push({ key: spec.key, label: spec.label, value: hit.val, from: from ?? hit.val });
          take(from ?? '');
        }
      }
    }
    // numbers with a unit or followed by a spec's name: "65 inch", "12 place settings"
    const numbered = /(\d+(?:\.\d+)?(?:\/\d+)?)\s*(?:-\s*)?([a-z"”]+(?:\s[a-z]+)?)/g;
    for (const match of rest.matchAll(numbered)) {
      // "1/2 in chuck": a fraction is its quotient
      const [whole, over] = match[1]!.split('/');
      const value = over ? Number(whole) / Number(over) : Number(whole);
      if (!Number.isFinite(value)) continue;
      const after = match[2]!.trim();
      const unit = UNITS.find(([re]) => re.test(after) || re.test(after.split(' ')[0]!))?.[1];
      const spec = type.specs.find(
        (s) =>
          s.type === 'number' &&
          ((unit && (s.unit ?? '').toLowerCase() === unit) ||
            [s.label, ...(s.aliases ?? [])].some((n) => norm(n).startsWith(norm(after)))),
      );
      if (!spec || specs.some((s) => s.key === spec.key)) continue;
      // a quoted size means that size: 3 % either way, and never more than a tenth of it
      const tolerance = Math.min(value / 10, Math.max(0.5, value * 0.03));
      specs.push({
        key: spec.key,
        label: spec.label,
        min: value - tolerance,
        max: value + tolerance,
        unit: spec.unit ?? null,
        from: match[0].trim(),
      });
      take(norm(match[0]));
    }
    // measurable qualities, placed on the type's matching numeric spec
    for (const quality of QUALITIES) {
      // one word ("quiet") or a phrase ("battery life")
      const word = quality.words.find((w) => q.includes(` ${norm(w)} `));
      if (!word) continue;
      const spec = type.specs.find(
        (s) =>
          s.type === 'number' &&
          quality.hints.some((h) => (s.unit ?? '').toLowerCase() === h || s.key.includes(h)),
      );
      if (!spec || specs.some((s) => s.key === spec.key)) continue;
      const bound = percentile(db, type.id, spec.key, quality.direction === 'low' ? 1 / 3 : 2 / 3);
      if (bound === null) continue;
      specs.push({
        key: spec.key,
        label: spec.label,
        ...(quality.direction === 'low' ? { max: bound } : { min: bound }),
        unit: spec.unit ?? null,
        from: word,
        soft: true,
      });
      for (const w of norm(word).split(' ')) consumed.add(w);
    }
  }

  // "cheap" / "premium": the lower or upper third of prices (of the type when known)
  const cheap = qWords.find((w) => CHEAP.has(w));
  const premium = qWords.find((w) => PREMIUM.has(w));
  if ((cheap || premium) && price?.max === undefined && price?.min === undefined) {
    const bound = percentile(db, type?.id ?? null, null, cheap ? 1 / 3 : 2 / 3);
    if (bound !== null) {
      price = cheap ? { max: bound, soft: true } : { min: bound, soft: true };
      consumed.add((cheap ?? premium)!);
    }
  }

  return {
    product_type: type ? { id: type.id, slug: type.slug, name: type.name } : null,
    types,
    brand,
    price,
    specs,
    leftover: qWords.filter((w) => !consumed.has(w) && !STOPWORDS.has(w)),
    text: embedText,
  };
}
