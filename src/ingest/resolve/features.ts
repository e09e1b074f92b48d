/**
 * Everything the resolver needs to know about each record, computed once: tokens, model
 * numbers, brand, edition facts and a TF-IDF title vector. Document frequencies come from
 * the batch being resolved, so rarity is judged against the retailers' own vocabulary.
 */
import { type Serves, servesClause } from './accessory.js';
import { type ModelParts, splitModel } from './base-model.js';
import { BrandLexicon, normalizeBrand } from './brand.js';
import { type Edition, extractEdition } from './editions.js';
import { extractMeasures, type Measures } from './measures.js';
import {
  type CodeRules,
  DEFAULT_CODE_RULES,
  extractModelNumbers,
  isModelNumberLike,
  isStatedModelNumber,
  normalizeModelNumber,
} from './model-number.js';
import { charNgrams, colorFamilies, colorFamiliesOf, tokenize } from './tokens.js';
import type { ResolveRecord } from './types.js';
import { type SparseVector, VectorPool } from './vector.js';

/** Pre-computed view of one record. */
export interface RecordFeatures {
  index: number;
  source: string;
  /** Title word tokens. */
  tokens: string[];
  /** Model numbers from the title and the feed's MPN: strong identity claims. */
  titleCodes: string[];
  /** Model numbers only found in the description: weaker claims. */
  descCodes: string[];
  /** The title's "for …" clause and the codes only it names (accessory.ts); null if none. */
  serves: Serves | null;
  /** The title codes outside that clause, and the MPN: the listing's own model numbers. */
  ownCodes: string[];
  /** The rare codes only the "for …" clause names: the products this listing serves. */
  servedCodes: ReadonlySet<string>;
  /**
   * The own codes rarer than {@link GENERIC_CODE_DF}, and each one split by `splitModel`. A
   * code the title only names as the product it serves is not compared as the listing's.
   */
  rareTitleCodes: string[];
  rareTitleParts: ModelParts[];
  /** The description codes rarer than {@link GENERIC_CODE_DF}. */
  rareDescCodes: ReadonlySet<string>;
  /**
   * Title + description + MPN, upper-case alphanumerics only, to find codes written with
   * spaces. Built on first use ({@link compactTextOf}): few pairs get that far, and
   * descriptions are long.
   */
  compactText: string | null;
  /** The record's best model number: a valid MPN, else its rarest title code. */
  primaryModel: string | null;
  /** {@link primaryModel} split by `splitModel` when it is rare, else null. */
  primaryParts: ModelParts | null;
  /** Normalized brand, stated or inferred from the title; '' when unknown. */
  brand: string;
  /** Whether {@link brand} came from the feed rather than from the title. */
  brandStated: boolean;
  edition: Edition;
  /** Quantities the title states with a unit (measures.ts). */
  measures: Measures;
  /** Color families from the color field, or else from the title. */
  colors: ReadonlySet<string>;
  /** The stated color and size, lower-case alphanumerics only; '' when not stated. */
  colorValue: string;
  sizeValue: string;
  /** Stated specs with values in the same comparison form; null when none are stated. */
  specValues: SpecValues | null;
  productType: string | null;
  /** The words of {@link brand}. */
  brandWords: string[];
  vector: SparseVector;
  gtin: string | null;
  price: number | null;
  /** The record itself. */
  record: ResolveRecord;
}

const NO_CODES: ReadonlySet<string> = new Set();
/** Shared by every record without any: most records' rare codes, parts and edition facts. */
const NO_STRINGS: string[] = [];
const NO_PARTS: ModelParts[] = [];
const NO_TERMS: number[] = [];
const NO_EDITION: Edition = extractEdition('');

/**
 * One instance per distinct value: the corpus holds a few of each per record, and at a million
 * records every copy of `black` or of an empty edition costs (issue 20: 2.7 KB of heap a record).
 * Values handed out are shared, so they are only read.
 */
class Interner<T> {
  readonly #seen = new Map<string, T>();
  of(key: string, value: T): T {
    const seen = this.#seen.get(key);
    if (seen !== undefined) return seen;
    this.#seen.set(key, value);
    return value;
  }
}

const isEmptyEdition = (e: Edition): boolean =>
  e.years.size === 0 &&
  e.numbers.size === 0 &&
  e.releaseCodes.size === 0 &&
  e.tiers.size === 0 &&
  e.platforms.size === 0 &&
  e.licenses.size === 0 &&
  e.counts.size === 0;

/** A stated value in comparison form: lower-case alphanumerics only. */
export function comparable(v: string | null | undefined): string {
  return (v ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** {@link RecordFeatures.compactText}, built on first use. */
export function compactTextOf(f: RecordFeatures): string {
  if (f.compactText === null) {
    const r = f.record;
    f.compactText = `${r.title} ${r.description ?? ''} ${r.mpn ?? ''}`
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '');
  }
  return f.compactText;
}

/**
 * One record's stated specs in comparison form, read like a `ReadonlyMap`: names and values
 * alternate in one array, searched in order (a listing states a handful). Retailers state
 * different names in different orders, so nearly every record's set is its own; a `Map` per
 * record cost ~310 bytes of heap, this ~180 (issue 20).
 */
export class SpecValues implements Iterable<[string, string]> {
  readonly #pairs: readonly string[];

  /** `pairs`: name, value, name, value… with each name once. */
  constructor(pairs: readonly string[]) {
    this.#pairs = pairs;
  }

  get size(): number {
    return this.#pairs.length / 2;
  }

  get(name: string): string | undefined {
    const pairs = this.#pairs;
    for (let k = 0; k < pairs.length; k += 2) if (pairs[k] === name) return pairs[k + 1];
    return undefined;
  }

  *[Symbol.iterator](): IterableIterator<[string, string]> {
    const pairs = this.#pairs;
    for (let k = 0; k < pairs.length; k += 2) yield [pairs[k]!, pairs[k + 1]!];
  }
}

/** Corpus-level statistics shared by blocking and scoring. */
export interface Corpus {
  features: RecordFeatures[];
  /**
   * Every record's interned blocking keys (title words and codes), one after another: record
   * `i`'s are `keys[keyStart[i]]` up to `keys[keyStart[i + 1]]`. One pool rather than an
   * array per record: ~113 bytes of heap a record less (issue 20).
   */
  keys: Int32Array;
  keyStart: Int32Array;
  /** Document frequency per interned term id. */
  df: Int32Array;
  /** Document frequency of each normalized model code. */
  codeDf: Map<string, number>;
  size: number;
}

/** A code carried by this many records or more is a standard or feature name, not a model. */
export const GENERIC_CODE_DF = 12;

/** Weight of code n-grams relative to whole words; they back up, not replace, exact codes. */
const NGRAM_WEIGHT = 0.4;

/** The code-reading rules and the corpus's own: whether codes' stems are blocking keys too. */
export interface CorpusRules extends CodeRules {
  /** See `ResolveOptions.codeStemKeys`; off unless true. */
  codeStemKeys?: boolean;
}

const DEFAULT_CORPUS_RULES: CorpusRules = { ...DEFAULT_CODE_RULES, codeStemKeys: false };

/**
 * Extra blocking keys of a title: the stem of each of its codes that ends in letters (the code
 * cut after its last digit: `SRSA212BK` and `SRSA212/BLK` both give `SRSA212`, `CLI221BLK`
 * gives the `CLI221` another retailer writes bare), and the stem of a code joined to the
 * short word in capitals written before it (`MDR EX55/WHI` gives `MDREX55`, which
 * `MDREX55WH` also gives). Retailers append their own color, region and pack letters, or
 * split a maker's code at a space or slash, so two listings of one model may share no code
 * key. Keys only propose candidates; what a pair's codes say is still scored as before.
 */
export function codeStems(title: string, titleCodes: readonly string[]): string[] {
  const stems: string[] = [];
  const add = (code: string) => {
    const stem = code.replace(/[A-Z]+$/, '');
    if (stem !== code && stem.length >= 4 && isModelNumberLike(stem) && !stems.includes(stem))
      stems.push(stem);
  };
  for (const code of titleCodes) add(code);
  for (const m of title.matchAll(/(?:^|[\s(])([A-Z]{2,4})[\s-]+([A-Z]{0,4}\d[A-Z0-9]*)(?=[\s/,)]|$)/g)) {
    const joined = normalizeModelNumber(m[1]! + m[2]!);
    if (isModelNumberLike(joined)) {
      add(joined);
      if (/\d$/.test(joined) && !stems.includes(joined) && !titleCodes.includes(joined)) stems.push(joined);
    }
  }
  return stems;
}

/**
 * What one record's own fields say, read without the batch's statistics: the slow half of
 * building a record's features (the model-number patterns over a description above all). A
 * large run computes it for part of its records on another thread (ingest/facts-worker.ts)
 * while this one classifies, builds the records and reads the rest: see {@link FactSource}.
 * Plain data, so it crosses threads by structured clone. Codes are not yet filtered by the
 * batch's vocabulary (`isNameWithVersion`).
 */
export interface RecordFacts {
  /** `extractModelNumbers` of the title. */
  titleCodes: string[];
  /** The MPN as a model number, '' when none. */
  mpn: string;
  /** `extractModelNumbers` of the description. */
  descCodes: string[];
  serves: Serves | null;
  edition: Edition;
  measures: Measures;
  colors: ReadonlySet<string>;
  colorValue: string;
  sizeValue: string;
  /** The stated specs as name, comparable value, name, value…; null when none are stated. */
  specPairs: string[] | null;
}

/** The fields of a record {@link recordFacts} reads. */
export type FactInput = Pick<ResolveRecord, 'title' | 'description' | 'mpn' | 'color' | 'size' | 'specs'>;

type CodeFacts = Pick<RecordFacts, 'titleCodes' | 'mpn' | 'descCodes' | 'serves'>;
type TitleFacts = Omit<RecordFacts, keyof CodeFacts>;

/** The model numbers a record names, and the title's "for …" clause, read by `rules`. */
function codeFacts(r: FactInput, rules: CodeRules): CodeFacts {
  // read once: a record may fetch its description from outside the heap (ingest/run.ts)
  const description = r.description;
  return {
    titleCodes: extractModelNumbers(r.title, rules),
    mpn: r.mpn ? normalizeModelNumber(r.mpn) : '',
    descCodes: description ? extractModelNumbers(description, rules) : NO_STRINGS,
    serves: servesClause(r.title, rules),
  };
}

/** Edition, quantities, colors and the stated values of a record; `words`: its title's tokens. */
function titleFacts(r: FactInput, words: () => readonly string[]): TitleFacts {
  let specPairs: string[] | null = null;
  const specs = r.specs;
  if (specs) {
    const names = Object.keys(specs);
    // sized once: an array grown by push keeps spare room
    const pairs = new Array<string>(names.length * 2);
    names.forEach((name, k) => {
      pairs[2 * k] = name;
      pairs[2 * k + 1] = comparable(specs[name]);
    });
    specPairs = pairs;
  }
  return {
    edition: extractEdition(r.title),
    measures: extractMeasures(r.title),
    colors: r.color ? colorFamilies(r.color) : colorFamiliesOf(words()),
    colorValue: comparable(r.color),
    sizeValue: comparable(r.size),
    specPairs,
  };
}

/**
 * {@link RecordFacts} of one record under the default code rules (the only ones another
 * thread computes them with: {@link buildCorpus} ignores given facts under other rules).
 */
export function recordFacts(r: FactInput): RecordFacts {
  return { ...codeFacts(r, DEFAULT_CODE_RULES), ...titleFacts(r, () => tokenize(r.title)) };
}

/**
 * The facts of the last records of a batch, from `from` on, computed elsewhere (another
 * thread). `take` is called once, when {@link buildCorpus} reaches record `from` having read
 * the ones before it itself, and waits for them if need be: fact `k` is record `from + k`'s.
 */
export interface FactSource {
  from: number;
  take(): readonly RecordFacts[];
}

/**
 * Computes {@link RecordFeatures} for every record plus the batch's term statistics; `rules`
 * are the code-reading rules of the run (model-number.ts); `facts` gives the
 * {@link RecordFacts} of the last records, computed elsewhere (the same values), used only
 * under the default code rules they were computed with.
 */
export function buildCorpus(
  records: readonly ResolveRecord[],
  rules: CorpusRules = DEFAULT_CORPUS_RULES,
  facts?: FactSource,
): Corpus {
  const lexicon = new BrandLexicon();
  for (const r of records) lexicon.add(normalizeBrand(r.brand));

  const vocab = new Map<string, number>();
  const intern = (term: string): number => {
    let id = vocab.get(term);
    if (id === undefined) {
      id = vocab.size;
      vocab.set(term, id);
    }
    return id;
  };

  // Retailers split and join words differently (`print shop` / `printshop`); a joined pair
  // that some record writes as one word counts as that word too.
  // each distinct word is one string, however many titles have it
  const wordStrings = new Interner<string>();
  const titleTokens = records.map((r) => {
    const tokens = tokenize(r.title);
    for (let k = 0; k < tokens.length; k++) tokens[k] = wordStrings.of(tokens[k]!, tokens[k]!);
    return tokens;
  });
  const wordCount = new Map<string, number>();
  for (const tokens of titleTokens) for (const t of tokens) wordCount.set(t, (wordCount.get(t) ?? 0) + 1);
  const words = new Set(wordCount.keys());
  // A word the batch also uses on its own, plus a one- or two-digit number (`WIN32`,
  // `LEARN2`, `VEGAS7`), is a name and version rather than a part number.
  const isNameWithVersion = (code: string): boolean => {
    const m = /^([A-Z]{3,})\d{1,2}$/.exec(code);
    return m !== null && (wordCount.get(m[1]!.toLowerCase()) ?? 0) >= 2;
  };
  // Before joined words are added: what the title itself says (its colors).
  const wordsWritten = titleTokens.map((tokens) => tokens.length);
  for (const tokens of titleTokens) {
    const n = tokens.length;
    for (let k = 0; k + 1 < n; k++) {
      const joined = tokens[k]! + tokens[k + 1]!;
      if (joined.length >= 6 && /[a-z]/.test(joined) && words.has(joined)) tokens.push(joined);
    }
  }

  // Words and codes recur across records; intern each one's n-grams once.
  const gramCache = new Map<string, number[]>();
  const gramIds = (text: string): number[] => {
    let ids = gramCache.get(text);
    if (!ids) {
      ids = charNgrams(text).map((gram) => intern(`~${gram}`));
      gramCache.set(text, ids);
    }
    return ids;
  };

  const codeDf = new Map<string, number>();
  // each distinct code is one string, however many records name it
  const codeStrings = new Interner<string>();
  const codeString = (c: string): string => codeStrings.of(c, c);
  // the facts given for the last records, taken when the first of them is reached
  let given: readonly RecordFacts[] | null = null;
  const defaultRules = (Object.keys(DEFAULT_CODE_RULES) as (keyof CodeRules)[]).every(
    (k) => rules[k] === DEFAULT_CODE_RULES[k],
  );
  const factsOf = (index: number): RecordFacts | null => {
    if (!facts || !defaultRules || index < facts.from) return null;
    given ??= facts.take();
    return given[index - facts.from]!;
  };
  const raw = records.map((r, index) => {
    const tokens = titleTokens[index]!;
    const codes = factsOf(index) ?? codeFacts(r, rules);
    const titleCodes = codes.titleCodes.filter((c) => !isNameWithVersion(c)).map(codeString);
    const mpn = codes.mpn ? codeString(codes.mpn) : '';
    if (mpn && isStatedModelNumber(mpn, rules) && !titleCodes.includes(mpn)) titleCodes.push(mpn);
    const descCodes = codes.descCodes
      .filter((c) => !titleCodes.includes(c) && !isNameWithVersion(c))
      .map(codeString);
    for (const c of new Set([...titleCodes, ...descCodes])) codeDf.set(c, (codeDf.get(c) ?? 0) + 1);
    const terms: number[] = tokens.map(intern);
    const keys = new Set<number>(terms);
    for (const code of [...titleCodes, ...descCodes]) keys.add(intern(`#${code}`));
    // stem keys only propose candidates: they count in the blocking's df, not in the titles' IDF
    let stemKeys: number[] | null = null;
    if (rules.codeStemKeys === true)
      for (const stem of codeStems(r.title, titleCodes)) {
        const id = intern(`#${stem}`);
        if (keys.has(id) || terms.includes(id)) continue;
        keys.add(id);
        stemKeys ??= [];
        stemKeys.push(id);
      }
    // Character n-grams of words soften spelling differences (`bsendorfer` / `bosendorfer`).
    for (const t of tokens) if (t.length >= 5 && !/\d/.test(t)) for (const id of gramIds(t)) terms.push(id);
    for (const code of titleCodes) {
      terms.push(intern(`#${code}`));
      for (const id of gramIds(code)) terms.push(id);
    }
    const { serves } = codes;
    const ownCodes = serves ? titleCodes.filter((c) => c === mpn || !serves.codes.includes(c)) : titleCodes;
    return {
      r,
      tokens,
      titleCodes,
      ownCodes,
      serves,
      descCodes,
      mpn,
      terms,
      keys: [...keys] as number[] | null,
      stemKeys,
    };
  });

  const df = new Int32Array(vocab.size);
  // Count each term once per record without allocating a set per record.
  const lastSeen = new Int32Array(vocab.size).fill(-1);
  raw.forEach((x, index) => {
    for (const list of [x.terms, x.keys!]) {
      for (const id of list) {
        if (lastSeen[id] === index) continue;
        lastSeen[id] = index;
        df[id]!++;
      }
    }
  });
  // the records that hold a key through a code stem only, which the IDF does not count
  const stemDf = rules.codeStemKeys === true ? new Int32Array(vocab.size) : null;
  if (stemDf) for (const x of raw) for (const id of x.stemKeys ?? []) stemDf[id]!++;
  const n = records.length;
  const idfTable = new Float64Array(vocab.size);
  for (const [term, id] of vocab) {
    const termDf = df[id]! - (stemDf ? stemDf[id]! : 0);
    idfTable[id] = Math.log((n + 1) / (termDf + 0.5)) * (term.startsWith('~') ? NGRAM_WEIGHT : 1);
  }
  const idf = (id: number): number => idfTable[id]!;
  // every title vector in two shared arrays: one typed array per record cost ~520 bytes outside
  // the heap besides the record's own
  const vectors = new VectorPool(raw.reduce((total, x) => total + x.terms.length, 0));
  const colorSets = new Interner<ReadonlySet<string>>();
  const specText = new Interner<string>();
  const brandWords = new Interner<string[]>();
  // titles state the same few quantities ("65 in", "1.5 qt"): one map per distinct set
  const measureSets = new Interner<Measures>();
  const sharedMeasures = (m: Measures): Measures =>
    m === null
      ? null
      : measureSets.of([...m].map(([unit, values]) => `${unit}\u0000${values.join(',')}`).join('\u0001'), m);
  const shared = (codes: string[]): string[] => (codes.length === 0 ? NO_STRINGS : codes);

  // the blocking keys move to one pool, and each record's lists go as soon as they are copied:
  // the corpus of a million records must not hold them twice
  const keyStart = new Int32Array(n + 1);
  raw.forEach((x, index) => {
    keyStart[index + 1] = keyStart[index]! + x.keys!.length;
  });
  const keys = new Int32Array(keyStart[n]!);
  raw.forEach((x, index) => {
    keys.set(x.keys!, keyStart[index]!);
    x.keys = null;
  });
  const features = raw.map((x, index): RecordFeatures => {
    const { r } = x;
    let primaryModel: string | null = null;
    if (x.mpn && isStatedModelNumber(x.mpn, rules)) primaryModel = x.mpn;
    else {
      let best = Number.POSITIVE_INFINITY;
      for (const c of x.ownCodes) {
        const f = codeDf.get(c) ?? 0;
        if (f <= best) {
          best = f;
          primaryModel = c;
        }
      }
    }
    const stated = normalizeBrand(r.brand);
    const price = typeof r.price === 'number' && r.price > 0 ? r.price : null;
    const brand = stated || lexicon.infer(r.title);
    const rare = (c: string) => (codeDf.get(c) ?? 0) < GENERIC_CODE_DF;
    const allRare = x.ownCodes.every(rare);
    const rareTitleCodes = shared(allRare ? x.ownCodes : x.ownCodes.filter(rare));
    // A title's colors come from its own words (tokenized above), not from joined pairs.
    const title = factsOf(index) ?? titleFacts(r, () => x.tokens.slice(0, wordsWritten[index]!));
    const pairs = title.specPairs;
    // names and values alike: few distinct ones, and given facts are copies
    if (pairs) for (let k = 0; k < pairs.length; k++) pairs[k] = specText.of(pairs[k]!, pairs[k]!);
    const specValues = pairs ? new SpecValues(pairs) : null;
    const { edition, colors } = title;
    const vector = vectors.build(x.terms, idf);
    x.terms = NO_TERMS;
    return {
      index,
      source: r.source,
      tokens: x.tokens,
      titleCodes: shared(x.titleCodes),
      serves: x.serves,
      ownCodes: shared(x.ownCodes),
      servedCodes: x.serves?.codes.some(rare) ? new Set(x.serves.codes.filter(rare)) : NO_CODES,
      descCodes: shared(x.descCodes),
      rareTitleCodes,
      rareTitleParts:
        rareTitleCodes.length === 0 ? NO_PARTS : rareTitleCodes.map((c) => splitModel(c, brand)),
      rareDescCodes: x.descCodes.some(rare) ? new Set(x.descCodes.filter(rare)) : NO_CODES,
      record: r,
      compactText: null,
      primaryModel,
      primaryParts: primaryModel !== null && rare(primaryModel) ? splitModel(primaryModel, brand) : null,
      brand,
      brandStated: stated !== '',
      brandWords: brandWords.of(brand, brand.split(' ')),
      edition: isEmptyEdition(edition) ? NO_EDITION : edition,
      measures: sharedMeasures(title.measures),
      colors: colorSets.of([...colors].join(','), colors),
      colorValue: title.colorValue,
      sizeValue: title.sizeValue,
      specValues,
      productType: r.productType || null,
      vector,
      gtin: r.gtin ?? null,
      price,
    };
  });
  return { features, keys, keyStart, df, codeDf, size: n };
}
