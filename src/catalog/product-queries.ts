import type { Product } from '../schemas/index.js';
// keyword ranking lives in search/; it imports catalog only inside functions, so this cycle is safe
import { FTS_WEIGHTS, keywordPlan } from '../search/index.js';
import { type Cursor, decodeCursor, type PageInfo, pageInfo } from './cursor.js';
import { type Db, hasTable, stmt } from './database.js';
import { offersFor } from './offer-rows.js';
import { signalsFor } from './price-queries.js';
import { PRODUCT_SELECT, type ProductRow, toProduct } from './product-rows.js';
import { productFromRow } from './ref-cache.js';

/** Sortable fields of GET /v2/products, with the SQL expression each sorts by. */
export const PRODUCT_SORTS = {
  name: { asc: 'p.name', desc: 'p.name' },
  price: { asc: 'COALESCE(p.current_best_price, 1e15)', desc: 'COALESCE(p.current_best_price, -1)' },
  quality_score: { asc: 'p.quality_score', desc: 'p.quality_score' },
  created_at: { asc: 'p.created_at', desc: 'p.created_at' },
  updated_at: { asc: 'p.updated_at', desc: 'p.updated_at' },
} as const;
export type ProductSortField = keyof typeof PRODUCT_SORTS;

export interface ProductListParams {
  q?: string;
  limit: number;
  cursor?: string;
  /** field name, `-` prefix for descending; default name, or relevance when q is given */
  sort?: { field: ProductSortField; desc: boolean };
  brandId?: string;
  categoryId?: string;
  productTypeId?: string;
  productGroupId?: string;
  modelNumber?: string;
  minPrice?: number;
  maxPrice?: number;
  includeLegacy?: boolean;
  dataTiers?: number[];
  includeOffers?: boolean;
  /** adds price and lifecycle signals to each product */
  includeSignals?: boolean;
  /** one product per product group (its cheapest matching member), with `_variant_count` */
  groupVariants?: boolean;
  /**
   * answer with each product's stored JSON (see product-documents.ts) instead of objects,
   * when the snapshot has them and nothing is added to the products (offers, signals, counts)
   */
  documents?: boolean;
}

/** A page of products: objects, or their stored JSON when `documents` was asked and possible. */
export interface ProductPage {
  products: Product[];
  documents: string[] | null;
  page: PageInfo;
}

/**
 * A product's id and stored JSON, in place of PRODUCT_SELECT's joins: only what a page of
 * documents needs, since the wide products row costs more to read than the document itself.
 */
const DOCUMENT_SELECT =
  'SELECT p.id, d.json AS _document FROM products p JOIN product_documents d ON d.id = p.id';

export class InvalidCursorError extends Error {
  constructor() {
    super('cursor is not a value returned by a previous page');
  }
}

/** How many ranked matches a keyword search reads at once (see listProducts). */
const RANK_WINDOW = 200;

/** Upper-cased model number without separators: the key exact model lookups compare. */
export const modelKey = (model: string): string => model.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Search and list products with filters, sorting and cursor pagination. */
export function listProducts(db: Db, params: ProductListParams): ProductPage {
  const documents =
    params.documents === true &&
    !params.includeOffers &&
    !params.includeSignals &&
    !params.groupVariants &&
    hasTable(db, 'product_documents');
  const select = documents ? DOCUMENT_SELECT : PRODUCT_SELECT;
  const where: string[] = [];
  const args: unknown[] = [];
  const filter = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    args.push(...values);
  };
  // q: typo-tolerant keyword match (src/search); every word must match, or when no product
  // has them all, any of them; exact model number / GTIN hits rank first
  const plan = params.q !== undefined && params.q.trim() !== '' ? keywordPlan(db, params.q) : null;
  let fts: string | null = null;
  let from = 'products p';
  if (plan) {
    fts = plan.all;
    if (!fts)
      return {
        products: [],
        documents: documents ? [] : null,
        page: pageInfo({ total: 0, limit: params.limit, offset: 0, cursor: null, next: null }),
      };
    from = 'products_fts f JOIN products p ON p.rowid = f.rowid';
    where.push('products_fts MATCH ?');
    args.push(fts);
  }
  if (params.brandId) filter('p.brand_id = ?', params.brandId);
  if (params.categoryId)
    filter(
      '(p.category_id = ? OR p.category_id IN (SELECT id FROM categories WHERE parent_id = ?))',
      params.categoryId,
      params.categoryId,
    );
  if (params.productTypeId) filter('p.product_type_id = ?', params.productTypeId);
  if (params.productGroupId) filter('p.product_group_id = ?', params.productGroupId);
  if (params.modelNumber) filter('p.model_key = ?', modelKey(params.modelNumber));
  if (params.minPrice !== undefined) filter('p.current_best_price >= ?', params.minPrice);
  if (params.maxPrice !== undefined) filter('p.current_best_price <= ?', params.maxPrice);
  if (params.dataTiers && params.dataTiers.length > 0) {
    where.push(`p.data_tier IN (${params.dataTiers.map(() => '?').join(',')})`);
    args.push(...params.dataTiers);
  } else if (!params.includeLegacy) {
    where.push('p.data_tier < 3');
  }

  if (params.groupVariants) {
    // the representative of a group is its cheapest member that passes the same filters
    const filters = where.filter((w) => !w.includes('products_fts'));
    const filterArgs = args.slice(where.length - filters.length === 0 ? 0 : 1);
    const inner = filters.map((w) => w.replace(/\bp\./g, 'p2.')).join(' AND ');
    where.push(`(p.product_group_id IS NULL OR p.id = (SELECT p2.id FROM products p2
      WHERE p2.product_group_id = p.product_group_id${inner ? ` AND ${inner}` : ''}
      ORDER BY p2.current_best_price IS NULL, p2.current_best_price, p2.id LIMIT 1))`);
    args.push(...filterArgs);
  }

  const cursor: Cursor | null = params.cursor ? decodeCursor(params.cursor) : null;
  if (params.cursor && !cursor) throw new InvalidCursorError();

  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const countAll = () =>
    (stmt(db, `SELECT count(*) AS n FROM ${from} ${whereSql}`).get(...args) as { n: number }).n;
  const anyWords = () => {
    fts = plan?.any ?? null;
    args[0] = fts;
  };

  const relevance = fts !== null && !params.sort;
  const limit = params.limit;
  let rows: ProductRow[];
  let offset = 0;
  let next: Cursor | null = null;
  let total: number;

  if (relevance || cursor?.kind === 'offset') {
    offset = cursor?.offset ?? 0;
    const exact = plan?.exact.length
      ? `CASE WHEN p.rowid IN (${plan.exact.join(',')}) THEN 0 ELSE 1 END, `
      : '';
    // products of the type the query names come first (the id is the catalog's own UUID)
    const typed =
      plan?.typeId && /^[0-9a-f-]{36}$/.test(plan.typeId)
        ? `CASE WHEN p.product_type_id = '${plan.typeId}' THEN 0 ELSE 1 END, `
        : '';
    const order = relevance
      ? `${exact}${typed}${FTS_WEIGHTS}, p.id`
      : orderSql(params.sort ?? { field: 'name', desc: false });
    // rank on the narrow rows first, then read the full rows of the page only. Ranking
    // scores every match anyway, so it returns up to RANK_WINDOW of them: when fewer match,
    // their number is the total and the count query is not needed
    const window = Math.max(limit + 1, RANK_WINDOW);
    const ranked = () =>
      stmt(db, `SELECT p.rowid FROM ${from} ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .pluck()
        .all(...args, window, offset) as number[];
    let rowids = ranked();
    // no product has every word: any of them (on later pages too, when every word matches nothing)
    if (rowids.length === 0 && plan?.any && fts === plan.all && (offset === 0 || countAll() === 0)) {
      anyWords();
      rowids = ranked();
    }
    total =
      rowids.length < window && (rowids.length > 0 || offset === 0) ? offset + rowids.length : countAll();
    rowids = rowids.slice(0, limit + 1);
    const byRowid = new Map(
      (
        stmt(
          db,
          `${select.replace('SELECT ', 'SELECT p.rowid AS _rowid, ')} WHERE p.rowid IN (SELECT value FROM json_each(?))`,
        ).all(JSON.stringify(rowids)) as ProductRow[]
      ).map((r) => [Number(r._rowid), r]),
    );
    rows = rowids.map((r) => byRowid.get(r)).filter((r): r is ProductRow => r !== undefined);
    if (rows.length > limit) next = { kind: 'offset', offset: offset + limit };
  } else {
    total = countAll();
    if (total === 0 && plan?.any) {
      anyWords();
      total = countAll();
    }
    const sort = params.sort ?? { field: 'name', desc: false };
    const expr = PRODUCT_SORTS[sort.field][sort.desc ? 'desc' : 'asc'];
    const keysetWhere = [...where];
    const keysetArgs = [...args];
    if (cursor?.kind === 'keyset') {
      const op = sort.desc ? '<' : '>';
      keysetWhere.push(`(${expr} ${op} ? OR (${expr} = ? AND p.id ${op} ?))`);
      keysetArgs.push(cursor.value, cursor.value, cursor.id);
      offset = cursor.offset;
    }
    const sql = `${select.replace('FROM products p', `FROM ${from}`).replace('SELECT ', `SELECT ${expr} AS _sort, `)}
      ${keysetWhere.length ? `WHERE ${keysetWhere.join(' AND ')}` : ''} ORDER BY ${orderSql(sort)} LIMIT ?`;
    rows = stmt(db, sql).all(...keysetArgs, limit + 1) as ProductRow[];
    if (rows.length > limit) {
      const last = rows[limit - 1] as ProductRow;
      next = {
        kind: 'keyset',
        value: last._sort as string | number,
        id: String(last.id),
        offset: offset + limit,
      };
    }
  }

  const page = pageInfo({ total, limit, offset, cursor: params.cursor ?? null, next });
  if (documents)
    return { products: [], documents: rows.slice(0, limit).map((r) => String(r._document)), page };
  const products = rows.slice(0, limit).map(toProduct);
  if (params.includeOffers) attachOffers(db, products);
  if (params.includeSignals) attachSignals(db, products);
  if (params.groupVariants) attachVariantCounts(db, products);
  return { products, documents: null, page };
}

function orderSql(sort: { field: ProductSortField; desc: boolean }): string {
  const dir = sort.desc ? 'DESC' : 'ASC';
  return `${PRODUCT_SORTS[sort.field][sort.desc ? 'desc' : 'asc']} ${dir}, p.id ${dir}`;
}

export function attachSignals(db: Db, products: Product[]): void {
  const signals = signalsFor(db, products);
  for (const p of products) p.signals = signals.get(p.id);
}

function attachVariantCounts(db: Db, products: Product[]): void {
  const counts = stmt(
    db,
    `SELECT product_group_id AS id, count(*) AS n FROM products
     WHERE product_group_id IN (SELECT value FROM json_each(?)) GROUP BY product_group_id`,
  ).all(JSON.stringify(products.map((p) => p.product_group_id).filter(Boolean))) as {
    id: string;
    n: number;
  }[];
  const byGroup = new Map(counts.map((c) => [c.id, c.n]));
  for (const p of products)
    p._variant_count = p.product_group_id ? (byGroup.get(p.product_group_id) ?? 1) : 1;
}

export function attachOffers(db: Db, products: Product[]): void {
  const offers = offersFor(
    db,
    products.map((p) => p.id),
  );
  for (const p of products) p.offers = offers.get(p.id) ?? [];
}

/** One product by id, or null. */
export function getProduct(db: Db, id: string): Product | null {
  const row = stmt(db, 'SELECT * FROM products WHERE id = ?').get(id) as ProductRow | undefined;
  return row ? productFromRow(db, row) : null;
}
