import { type Db, stmt } from '../catalog/index.js';
import { looksLikeModelCode, modelKey, toGtin14 } from '../identifiers/index.js';
import { productTable } from './product-table.js';
import { vocabularyOf } from './snapshot-state.js';
import { words } from './text.js';
import { typeNamedBy } from './understand.js';

/** bm25 weights of products_fts columns: name, brand, product_type, model, specs, description */
export const FTS_WEIGHTS = 'bm25(products_fts, 10.0, 4.0, 3.0, 8.0, 1.0, 0.5)';
const MAX_WORDS = 32;

/** How a query was read for the keyword index. */
export interface KeywordPlan {
  /** FTS5 expression where every word (or its typo corrections) must match; null when nothing is searchable */
  all: string | null;
  /** the same groups ORed: the fallback when no product has every word */
  any: string | null;
  /** query words that were not in the catalog and the catalog words used in their place */
  corrections: Record<string, string[]>;
  /** rowids whose model number or GTIN is the whole query: they rank first */
  exact: number[];
  /** the product type the query names: its products rank first among full matches */
  typeId?: string | null;
}

/**
 * Turns free text into a safe keyword query. Every word is quoted, so quotes, operators,
 * column filters and FTS syntax in user input are plain text and never an error. Each word
 * becomes a group: the word itself, catalog words one edit away when the word is unknown
 * and 5+ letters without digits, and for the last word also a prefix (search as you type).
 */
export function keywordPlan(db: Db, text: string, options: { prefixLast?: boolean } = {}): KeywordPlan {
  const { prefixLast = true } = options;
  const corrections: Record<string, string[]> = {};
  const chunks = text.split(/\s+/).filter((c) => words(c).length > 0);
  const total = Math.min(
    MAX_WORDS,
    chunks.reduce((n, c) => n + words(c).length, 0),
  );
  if (total === 0) return { all: null, any: null, corrections, exact: [] };
  const vocabulary = vocabularyOf(db);
  let seen = 0;
  const wordGroup = (w: string) => {
    const last = ++seen === total;
    const alternatives = [`"${w}"`];
    if (prefixLast && last && w.length >= 2) alternatives.push(`"${w}"*`);
    const fixes = vocabulary.corrections(w);
    if (fixes.length > 0) {
      corrections[w] = fixes;
      for (const f of fixes) alternatives.push(`"${f}"`);
    }
    if (/^\d{8,13}$/.test(w)) alternatives.push(`"${toGtin14(w)}"`);
    return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`;
  };
  const groups: string[] = [];
  for (const chunk of chunks) {
    const list = words(chunk).slice(0, total - seen);
    if (list.length === 0) break;
    const inner = list.map(wordGroup);
    // a model code written with separators (SHPK-52Z95N-PR) also matches the code's key,
    // as a prefix, in the index's model column: the key ignores case and separators
    groups.push(
      list.length > 1 && looksLikeModelCode(chunk)
        ? `((${inner.join(' AND ')}) OR model:"${modelKey(chunk).toLowerCase()}"*)`
        : inner.length === 1
          ? inner[0]!
          : inner.join(' AND '),
    );
  }
  let all = groups.join(' AND ');
  // a code split by spaces (SHPK 52Z95NPR): the whole query's key as well
  if (chunks.length > 1 && chunks.length <= 3 && looksLikeModelCode(text))
    all = `(${all}) OR model:"${modelKey(text).toLowerCase()}"*`;
  return {
    all,
    any: groups.length > 1 ? groups.join(' OR ') : null,
    corrections,
    exact: exactMatches(db, text),
    typeId: typeNamedBy(db, text)?.id ?? null,
  };
}

/** Products whose model number, MPN or GTIN is exactly the query (separators and case ignored). */
export function exactMatches(db: Db, text: string): number[] {
  const key = modelKey(text.trim());
  if (key.length < 4 || key.length > 40 || !/\d/.test(key)) return [];
  const found = new Set<number>(
    stmt(db, 'SELECT rowid FROM products WHERE model_key = ? LIMIT 20').pluck().all(key) as number[],
  );
  // no model is exactly the code: the models it begins (SHPK52Z95N → SHPK52Z95NPR, its color
  // editions), when it is long enough to name one model family
  if (found.size === 0 && key.length >= 6 && looksLikeModelCode(key))
    for (const r of stmt(
      db,
      "SELECT rowid FROM products WHERE model_key > ? AND model_key < ? || '[' ORDER BY length(model_key), model_key LIMIT 20",
    )
      .pluck()
      .all(key, key) as number[])
      found.add(r);
  if (/^\d{8,14}$/.test(key)) {
    for (const r of stmt(
      db,
      'SELECT p.rowid FROM product_gtins g JOIN products p ON p.id = g.product_id WHERE g.gtin14 = ? LIMIT 20',
    )
      .pluck()
      .all(toGtin14(key)) as number[])
      found.add(r);
  }
  return [...found];
}

/** The score of a product whose model number, MPN or GTIN is the query: above any BM25 score. */
export const EXACT_SCORE = 1000;

export interface Ranked {
  rowid: number;
  score: number;
}

/**
 * Keyword ranking over the whole catalog: exact model/GTIN hits, then products with every
 * word by BM25, then (with `fill`) products with some of the words by BM25, up to `limit`.
 * `strict` counts the head of the list that matched every word (or the exact model/GTIN);
 * `relaxed` says no product did and the list holds partial matches only.
 */
export function keywordRanking(
  db: Db,
  plan: KeywordPlan,
  options: { limit: number; fill?: boolean; relax?: boolean },
): { ranked: Ranked[]; relaxed: boolean; strict: number } {
  const seen = new Set<number>();
  const ranked: Ranked[] = [];
  const push = (rowid: number, score: number) => {
    if (seen.has(rowid) || ranked.length >= options.limit) return;
    seen.add(rowid);
    ranked.push({ rowid, score });
  };
  for (const r of plan.exact) push(r, EXACT_SCORE);
  const query = (expr: string, limit: number) =>
    stmt(
      db,
      `SELECT rowid, -${FTS_WEIGHTS} AS s FROM products_fts WHERE products_fts MATCH ? ORDER BY s DESC LIMIT ?`,
    )
      .raw()
      .all(expr, limit) as [number, number][];
  if (plan.all && plan.typeId) {
    // "dishwasher" means dishwashers first, then other products that mention the word. One
    // pass over every match, split by type in memory: a second MATCH restricted to the type
    // (joined to products) cost as much again, half of a new keyword search's ranking.
    const matches = query(plan.all, Number.MAX_SAFE_INTEGER);
    const { type, rowOf } = productTable(db);
    const typed: [number, number][] = [];
    for (const m of matches) {
      if (typed.length >= options.limit) break;
      if (type[rowOf.get(m[0]) ?? -1] === plan.typeId) typed.push(m);
    }
    const top = typed.length > 0 ? Math.max(...typed.map(([, s]) => s)) : 0;
    for (const [r, s] of typed) push(r, s + Math.max(0, top) + 100);
    for (const [r, s] of matches) {
      if (ranked.length >= options.limit) break;
      push(r, s);
    }
  } else if (plan.all) for (const [r, s] of query(plan.all, options.limit)) push(r, s);
  let relaxed = false;
  const strict = ranked.length;
  if (
    plan.any &&
    options.relax !== false &&
    (ranked.length === 0 || (options.fill && ranked.length < options.limit))
  ) {
    relaxed = ranked.length === 0;
    // relaxed matches rank below every strict match
    const floor = ranked.length > 0 ? Math.min(...ranked.map((r) => r.score)) : 0;
    for (const [r, s] of query(plan.any, options.limit))
      push(r, relaxed ? s : floor - 1e-3 * (ranked.length + 1));
  }
  return { ranked, relaxed, strict };
}

/**
 * The keyword search of the API, GET /v2/products?q= and POST search in keyword mode alike:
 * every product that matches every query word (or is the exact model/GTIN), best first. No
 * fallback to products with only some of the words, so the count of the list is the number
 * of products that match the query.
 */
export function rankKeyword(db: Db, text: string): Ranked[] {
  return keywordRanking(db, keywordPlan(db, text), { limit: Number.MAX_SAFE_INTEGER, relax: false }).ranked;
}

/** BM25 scores of the given products only (reranking a known candidate set). */
export function keywordScores(db: Db, plan: KeywordPlan, rowids: number[]): Map<number, number> {
  const scores = new Map<number, number>();
  const expr = plan.any ?? plan.all;
  if (!expr) return scores;
  // one pass over the matches, kept by a set: FTS5 runs `rowid IN (…)` as one MATCH per rowid
  const wanted = new Set(rowids);
  for (const [r, s] of stmt(
    db,
    `SELECT rowid, -${FTS_WEIGHTS} AS s FROM products_fts WHERE products_fts MATCH ?`,
  )
    .raw()
    .iterate(expr) as IterableIterator<[number, number]>)
    if (wanted.has(r)) scores.set(r, s);
  for (const r of plan.exact) if (rowids.includes(r)) scores.set(r, EXACT_SCORE);
  return scores;
}
