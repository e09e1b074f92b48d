import { modelKey } from '../identifiers/index.js';
import type { Product } from '../schemas/index.js';
import type { PageInfo } from './cursor.js';
import { type Db, stmt } from './database.js';
import type { DocumentCache } from './document-cache.js';
import { nameSortExpr } from './name-keys.js';
import { offersFor } from './offer-rows.js';
import { type Condition, condition, readPage } from './page.js';
import { signalsFor } from './price-queries.js';
import { documentReader, listDocuments } from './product-documents.js';
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
  /**
   * rowids of the products that match a search, best first (search/ ranks them): the list
   * keeps only these, in this order unless `sort` is given
   */
  ranked?: readonly number[];
  limit: number;
  cursor?: string;
  /** field name and direction; default name, or the ranked order when `ranked` is given */
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
  /** this snapshot's documents kept in memory, read and filled by `documents` pages */
  documentCache?: DocumentCache;
}

/** A page of products: objects, or their stored JSON when `documents` was asked and possible. */
export interface ProductPage {
  products: Product[];
  documents: string[] | null;
  page: PageInfo;
}

/** The filters of a product list on the products table under `alias` (p, or p2 in a subquery). */
function productFilters(params: ProductListParams, p: 'p' | 'p2'): Condition[] {
  const where: Condition[] = [];
  if (params.brandId) where.push(condition(`${p}.brand_id = ?`, params.brandId));
  if (params.categoryId)
    where.push(
      condition(
        `(${p}.category_id = ? OR ${p}.category_id IN (SELECT id FROM categories WHERE parent_id = ?))`,
        params.categoryId,
        params.categoryId,
      ),
    );
  if (params.productTypeId) where.push(condition(`${p}.product_type_id = ?`, params.productTypeId));
  if (params.productGroupId) where.push(condition(`${p}.product_group_id = ?`, params.productGroupId));
  if (params.modelNumber) where.push(condition(`${p}.model_key = ?`, modelKey(params.modelNumber)));
  if (params.minPrice !== undefined) where.push(condition(`${p}.current_best_price >= ?`, params.minPrice));
  if (params.maxPrice !== undefined) where.push(condition(`${p}.current_best_price <= ?`, params.maxPrice));
  if (params.dataTiers && params.dataTiers.length > 0)
    where.push(
      condition(`${p}.data_tier IN (SELECT value FROM json_each(?))`, JSON.stringify(params.dataTiers)),
    );
  else if (!params.includeLegacy) where.push(condition(`${p}.data_tier < 3`));
  return where;
}

/** List products with filters, sorting and cursor pagination; a search's matches when `ranked` is given. */
export function listProducts(db: Db, params: ProductListParams): ProductPage {
  const documents =
    params.documents === true &&
    !params.includeOffers &&
    !params.includeSignals &&
    !params.groupVariants &&
    documentReader(db) !== null;
  const where = productFilters(params, 'p');
  if (params.groupVariants) {
    // the representative of a group is its cheapest member that passes the same filters
    const inner = productFilters(params, 'p2');
    where.push(
      condition(
        `(p.product_group_id IS NULL OR p.id = (SELECT p2.id FROM products p2
      WHERE p2.product_group_id = p.product_group_id${inner.map((w) => ` AND ${w.sql}`).join('')}
      ORDER BY p2.current_best_price IS NULL, p2.current_best_price, p2.id LIMIT 1))`,
        ...inner.flatMap((w) => w.args),
      ),
    );
  }
  const sort = params.sort ?? (params.ranked ? null : { field: 'name' as const, desc: false });
  // the page is cut on the narrow rows; only its own rows are then read in full
  const { rows, page } = readPage(db, {
    from: 'products p',
    columns: 'p.rowid AS _rowid, p.id AS _pid',
    id: 'p.id',
    rowid: 'p.rowid',
    where,
    order: sort
      ? {
          kind: 'sort',
          expr:
            sort.field === 'name'
              ? nameSortExpr(db, 'products', 'p')
              : PRODUCT_SORTS[sort.field][sort.desc ? 'desc' : 'asc'],
          desc: sort.desc,
        }
      : { kind: 'ranked', rowids: params.ranked ?? [] },
    limit: params.limit,
    cursor: params.cursor,
  });
  if (documents)
    return {
      products: [],
      documents: listDocuments(
        db,
        rows.map((r) => String(r._pid)),
        params.documentCache,
      ),
      page,
    };
  const rowids = rows.map((r) => Number(r._rowid));
  const products = productRowsByRowid(db, rowids).map(toProduct);
  if (params.includeOffers) attachOffers(db, products);
  if (params.includeSignals) attachSignals(db, products);
  if (params.groupVariants) attachVariantCounts(db, products);
  return { products, documents: null, page };
}

const BY_ROWID = 'WHERE p.rowid IN (SELECT value FROM json_each(?))';

/** Full product rows of the given rowids, in that order (unknown rowids are left out). */
export function productRowsByRowid(db: Db, rowids: readonly number[]): ProductRow[] {
  if (rowids.length === 0) return [];
  const rowidOf = new Map(
    (
      stmt(db, `SELECT p.rowid, p.id FROM products p ${BY_ROWID}`).raw().all(JSON.stringify(rowids)) as [
        number,
        string,
      ][]
    ).map(([rowid, id]) => [id, rowid]),
  );
  const byRowid = new Map<number, ProductRow>();
  for (const row of stmt(db, `${PRODUCT_SELECT} ${BY_ROWID}`).all(JSON.stringify(rowids)) as ProductRow[])
    byRowid.set(rowidOf.get(String(row.id)) as number, row);
  return rowids.map((r) => byRowid.get(r)).filter((r): r is ProductRow => r !== undefined);
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
