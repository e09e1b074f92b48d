import {
  attachOffers,
  type Db,
  InvalidCursorError,
  type PageInfo,
  pageInfo,
  productRowsByRowid,
  readCursor,
  toProduct,
} from '../catalog/index.js';
import type { Product } from '../schemas/index.js';
import type { SearchEngine, SearchMode } from './engine.js';
import { computeFacets, type FacetBucket } from './facets.js';
import { compileFilters, type SearchFilters } from './filters.js';
import { keywordPlan, type Ranked, rankKeyword } from './keyword.js';
import { productTable, specValues } from './product-table.js';
import { type Interpretation, understand } from './understand.js';

export const SEARCH_SORT_FIELDS = [
  'relevance',
  'name',
  'price',
  'quality_score',
  'created_at',
  'updated_at',
] as const;
export type SearchSortField = (typeof SEARCH_SORT_FIELDS)[number];

/** The body of POST /v2/products/search (DESIGN.md §4). */
export interface AdvancedSearchRequest {
  query?: string;
  mode?: SearchMode;
  filters?: SearchFilters;
  facets?: string[];
  sort?: { field: SearchSortField; order?: 'asc' | 'desc' };
  pagination?: { limit?: number; offset?: number; cursor?: string };
  include_offers?: boolean;
}

export interface SearchResult {
  products: Product[];
  facets: Record<string, FacetBucket[]>;
  page: PageInfo;
  interpretation:
    | (Omit<Interpretation, 'text'> & { mode: SearchMode; relaxed: string[]; embeddings: string })
    | KeywordMiss
    | null;
}

/** Semantic results are the nearest products within the constraints, at most this many. */
const SEMANTIC_DEPTH = 500;

/**
 * Advanced search: filters, a query in one of three modes, facet counts over the whole
 * filtered result set, sorting and offset/cursor pagination. Semantic and hybrid modes
 * first read the query into constraints (type, brand, price, specs); explicit filters win
 * over understood ones, and understood spec constraints are dropped again (and reported as
 * relaxed) when nothing satisfies them.
 */
export async function advancedSearch(
  db: Db,
  engine: SearchEngine,
  request: AdvancedSearchRequest,
): Promise<SearchResult> {
  const mode = request.mode ?? 'keyword';
  const limit = request.pagination?.limit ?? 20;
  let offset = request.pagination?.offset ?? 0;
  const cursor = readCursor(request.pagination?.cursor, 'pagination.cursor');
  if (cursor) {
    // search pages are cut by offset: a keyset cursor is some other list's
    if (cursor.kind !== 'offset') throw new InvalidCursorError('pagination.cursor');
    offset = cursor.offset;
  }
  const filters: SearchFilters = { ...(request.filters ?? {}) };
  const query = request.query?.trim() ?? '';

  let interpretation: SearchResult['interpretation'] = null;
  let understood: SearchFilters = {};
  /** product type id → confidence, when understanding considered several (ranks by it) */
  let typeBelief: Map<string, number> | null = null;
  /** numeric conditions that order the results instead of filtering them */
  const soft: SoftBound[] = [];
  if (query && mode !== 'keyword') {
    const i = understand(db, query);
    const considered = i.product_type ? [] : considerTypes(i.types);
    if (considered.length > 0) typeBelief = new Map(considered.map((t) => [t.id, t.confidence]));
    understood = {
      ...(i.product_type
        ? { product_type: [i.product_type.id] }
        : considered.length > 0
          ? { product_type: considered.map((t) => t.id) }
          : {}),
      ...(i.brand ? { brand: [i.brand.id] } : {}),
      ...(i.price && !i.price.soft ? { price: { min: i.price.min, max: i.price.max } } : {}),
      ...(i.specs.some((s) => !s.soft)
        ? {
            specs: Object.fromEntries(
              i.specs
                .filter((s) => !s.soft)
                .map((s) => [s.key, s.value !== undefined ? s.value : { min: s.min, max: s.max }]),
            ),
          }
        : {}),
    };
    // relative words rank, they do not filter (unless an explicit filter covers the same thing)
    if (i.price?.soft && !filters.price) soft.push({ key: null, min: i.price.min, max: i.price.max });
    for (const spec of i.specs)
      if (spec.soft && !(spec.key in (filters.specs ?? {})))
        soft.push({ key: spec.key, min: spec.min, max: spec.max });
    const { text: _text, ...shown } = i;
    interpretation = { ...shown, mode, relaxed: [], embeddings: engine.embeddingsFor(db) };
  }

  /** set when keyword mode finds no product with every word, filters aside */
  let miss = null as KeywordMiss | null;
  const rankWith = async (f: SearchFilters): Promise<Ranked[]> => {
    const allow = compileFilters(db, f);
    if (!query) {
      const t = productTable(db);
      const all: Ranked[] = [];
      for (const rowid of t.rowids) if (!allow || allow(rowid)) all.push({ rowid, score: 0 });
      return all;
    }
    if (mode === 'keyword') {
      const ranked = rankKeyword(db, query);
      if (ranked.length === 0) miss = keywordMiss(db, query);
      return allow ? ranked.filter((r) => allow(r.rowid)) : ranked;
    }
    return engine.rank(db, query, mode, { limit: SEMANTIC_DEPTH, allow });
  };

  const merged: SearchFilters = {
    ...understood,
    ...filters,
    specs: { ...(understood.specs ?? {}), ...(filters.specs ?? {}) },
  };
  let ranked = await rankWith(merged);
  if (ranked.length === 0 && interpretation?.brand && understood.brand && !filters.brand) {
    // a word that is also a brand name ("cafe", "google") must not empty the result
    delete merged.brand;
    interpretation.relaxed.push('brand');
    ranked = await rankWith(merged);
  }
  if (ranked.length === 0 && interpretation && Object.keys(understood.specs ?? {}).length > 0) {
    // Nothing meets every understood spec constraint: keep type, brand, price and explicit
    // filters, then add the understood specs back one by one (in the order the query gave
    // them), keeping each only if some product still qualifies.
    const kept: NonNullable<SearchFilters['specs']> = { ...(filters.specs ?? {}) };
    const relaxed: string[] = [];
    for (const [key, value] of Object.entries(understood.specs ?? {})) {
      if (key in (filters.specs ?? {})) continue;
      if (anyMatch(db, { ...merged, specs: { ...kept, [key]: value } })) kept[key] = value;
      else relaxed.push(key);
    }
    interpretation.relaxed.push(...relaxed);
    ranked = await rankWith({ ...merged, specs: kept });
    // a relaxed range still ranks: the nearest products first ("65 inch" with none at 65)
    for (const key of relaxed) {
      const value = understood.specs?.[key];
      if (value && typeof value === 'object' && !Array.isArray(value))
        soft.push({ key, min: value.min, max: value.max });
    }
  }
  if (typeBelief && ranked.length > 0) ranked = rankByBelief(db, ranked, typeBelief);
  if (soft.length > 0 && ranked.length > 0) {
    const unmet = new Set<string>();
    ranked = rankBySoft(db, ranked, soft, limit + offset, unmet);
    // say which relative conditions the page could not meet for every product
    for (const key of unmet) if (!interpretation?.relaxed.includes(key)) interpretation?.relaxed.push(key);
  }

  const sort = request.sort ?? { field: query ? 'relevance' : 'name', order: query ? 'desc' : 'asc' };
  if (sort.field !== 'relevance') sortRanked(db, ranked, sort.field, sort.order ?? 'asc');
  else if (sort.order === 'asc') ranked.reverse();

  const facets = request.facets?.length
    ? computeFacets(
        db,
        ranked.map((r) => r.rowid),
        request.facets,
      )
    : {};
  const pageRows = ranked.slice(offset, offset + limit);
  const products = fetchProducts(db, pageRows, Boolean(query));
  if (request.include_offers) attachOffers(db, products);
  const next = offset + limit < ranked.length ? { kind: 'offset' as const, offset: offset + limit } : null;
  return {
    products,
    facets,
    page: pageInfo({ total: ranked.length, limit, offset, cursor: request.pagination?.cursor ?? null, next }),
    interpretation: interpretation ?? miss,
  };
}

export type KeywordMiss = {
  mode: 'keyword';
  full_match: false;
  /** what happened and what to do, in words */
  note: string;
  /** the semantic reading: the product types semantic search would look within */
  suggestion: { mode: 'semantic'; types: Interpretation['types'] };
};

/**
 * What a keyword search whose query no product fully matches says about it (call it when
 * `rankKeyword` found nothing; null for a query without a searchable word). Keyword search keeps its total honest (only products with every word), so a
 * need phrased as people talk ("the kids' room is too dry at night") finds nothing there; the
 * answer then says so and offers the semantic reading: the types semantic search would look
 * within. GET /v2/products?q= and POST search in keyword mode both send it as
 * `meta.interpretation` (kept with the response in the cache, like semantic search's).
 */
export function keywordMiss(db: Db, query: string): KeywordMiss | null {
  if (!keywordPlan(db, query).all) return null;
  const types = considerTypes(understand(db, query).types);
  const likely = types.map((t) => `${t.name} ${t.confidence.toFixed(2)}`).join(', ');
  return {
    mode: 'keyword',
    full_match: false,
    note:
      'No product matches every word of the query, and keyword search lists only products that do. ' +
      `Semantic search reads it as a need${likely ? ` (likely product types: ${likely})` : ''}: ` +
      'POST /v2/products/semantic-search, or mode "semantic" of POST /v2/products/search.',
    suggestion: { mode: 'semantic', types },
  };
}

/**
 * The inferred types a search looks within when none is sure: those at least a quarter as
 * likely as the best one (at most 3). A clear favourite leaves the others out.
 */
function considerTypes(types: Interpretation['types']): Interpretation['types'] {
  const top = types[0]?.confidence ?? 0;
  if (top < MIN_TYPE_CONFIDENCE) return [];
  return types.filter((t) => t.confidence >= top / 4).slice(0, 3);
}
/** Below this, the inferred types are guesses and the search is not narrowed by them. */
const MIN_TYPE_CONFIDENCE = 0.15;

/**
 * Ranking across several likely types: each product's score (scaled to the best) plus the
 * confidence of its type, so the likelier type leads unless its products match far worse.
 */
function rankByBelief(db: Db, ranked: Ranked[], belief: Map<string, number>): Ranked[] {
  const t = productTable(db);
  const best = Math.max(...ranked.map((r) => r.score)) || 1;
  return ranked
    .map((r) => {
      const type = t.type[t.rowOf.get(r.rowid)!];
      return { rowid: r.rowid, score: r.score / best + (type ? (belief.get(type) ?? 0) : 0) };
    })
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}

/** A numeric condition that ranks: `key` a spec key, null for the price. */
interface SoftBound {
  key: string | null;
  min?: number | undefined;
  max?: number | undefined;
}

/**
 * Orders products by how far they fall outside soft bounds (relative distance, summed over
 * the bounds; a product without the value counts as one whole bound away), keeping the
 * ranking's order among equals: every product within the bounds first, then the nearest.
 * Adds to `unmet` the bounds that some product of the first `depth` misses.
 */
function rankBySoft(
  db: Db,
  ranked: Ranked[],
  bounds: SoftBound[],
  depth: number,
  unmet: Set<string>,
): Ranked[] {
  const t = productTable(db);
  const values = bounds.map((b) => (b.key ? specValues(db, b.key).numeric : null));
  const miss = (rowid: number, j: number): number => {
    const b = bounds[j]!;
    const map = values[j];
    const x = map ? map.get(rowid) : t.price[t.rowOf.get(rowid)!];
    if (x === undefined || Number.isNaN(x)) return 1;
    if (b.max !== undefined && x > b.max) return (x - b.max) / (Math.abs(b.max) || 1);
    if (b.min !== undefined && x < b.min) return (b.min - x) / (Math.abs(b.min) || 1);
    return 0;
  };
  const scored = ranked.map((r, i) => ({ r, i, miss: bounds.reduce((s, _, j) => s + miss(r.rowid, j), 0) }));
  scored.sort((a, b) => a.miss - b.miss || a.i - b.i);
  for (const { r } of scored.slice(0, depth))
    bounds.forEach((b, j) => {
      if (miss(r.rowid, j) > 0) unmet.add(b.key ?? 'price');
    });
  return scored.map((x) => x.r);
}

/** True when at least one product passes the filters. */
function anyMatch(db: Db, filters: SearchFilters): boolean {
  const allow = compileFilters(db, filters);
  if (!allow) return productTable(db).rowids.length > 0;
  for (const rowid of productTable(db).rowids) if (allow(rowid)) return true;
  return false;
}

function sortRanked(
  db: Db,
  ranked: Ranked[],
  field: Exclude<SearchSortField, 'relevance'>,
  order: 'asc' | 'desc',
) {
  const t = productTable(db);
  const dir = order === 'desc' ? -1 : 1;
  const key = (rowid: number): string | number => {
    const r = t.rowOf.get(rowid)!;
    if (field === 'name') return t.name[r]!;
    if (field === 'price') return Number.isNaN(t.price[r]!) ? Number.POSITIVE_INFINITY * dir : t.price[r]!;
    if (field === 'quality_score') return t.quality[r]!;
    return field === 'created_at' ? t.created[r]! : t.updated[r]!;
  };
  const keys = new Map(ranked.map((r) => [r.rowid, key(r.rowid)]));
  ranked.sort((a, b) => {
    const ka = keys.get(a.rowid)!;
    const kb = keys.get(b.rowid)!;
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || a.rowid - b.rowid;
  });
}

/** The products of a page, in the page's order, with `_score` when a query ranked them. */
export function fetchProducts(db: Db, page: Ranked[], withScore: boolean): Product[] {
  const rows = productRowsByRowid(
    db,
    page.map((r) => r.rowid),
  );
  return rows.map((row, i) => {
    const p = toProduct(row);
    if (withScore) p._score = Math.round((page[i] as Ranked).score * 10000) / 10000;
    return p;
  });
}

/** The body of POST /v2/products/semantic-search (DESIGN.md §4). */
export interface SemanticSearchRequest {
  query: string;
  limit?: number;
  filters?: SearchFilters;
  include_offers?: boolean;
}

/** Natural-language search: understood constraints, ranked by vector similarity within them. */
export function semanticSearch(
  db: Db,
  engine: SearchEngine,
  request: SemanticSearchRequest,
): Promise<SearchResult> {
  return advancedSearch(db, engine, {
    query: request.query,
    mode: 'semantic',
    ...(request.filters ? { filters: request.filters } : {}),
    pagination: { limit: request.limit ?? 20 },
    ...(request.include_offers ? { include_offers: true } : {}),
  });
}
