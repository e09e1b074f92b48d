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
import { type Ranked, rankKeyword } from './keyword.js';
import { productTable } from './product-table.js';
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
  if (query && mode !== 'keyword') {
    const i = understand(db, query);
    understood = {
      ...(i.product_type ? { product_type: [i.product_type.id] } : {}),
      ...(i.brand ? { brand: [i.brand.id] } : {}),
      ...(i.price ? { price: i.price } : {}),
      ...(i.specs.length
        ? {
            specs: Object.fromEntries(
              i.specs.map((s) => [s.key, s.value !== undefined ? s.value : { min: s.min, max: s.max }]),
            ),
          }
        : {}),
    };
    const { text: _text, ...shown } = i;
    interpretation = { ...shown, mode, relaxed: [], embeddings: engine.embeddingsFor(db) };
  }

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
    interpretation.relaxed = relaxed;
    ranked = await rankWith({ ...merged, specs: kept });
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
    interpretation,
  };
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
