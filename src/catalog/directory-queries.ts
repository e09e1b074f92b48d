import { type Brand, BrandProfile, type Retailer, withNulls } from '../schemas/index.js';
import type { PageInfo } from './cursor.js';
import { type Db, stmt } from './database.js';
import { nameSortExpr } from './name-keys.js';
import { type Condition, condition, containsPattern, readPage } from './page.js';
import { named, str } from './product-rows.js';

const parse = (v: unknown): Record<string, unknown> | null => {
  if (typeof v !== 'string') return null;
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch {
    return null;
  }
};

function toBrand(row: Record<string, unknown>, withProfile: boolean): Brand {
  const brand: Brand = {
    ...named(row),
    logo_url: str(row.logo_url),
    website_url: str(row.website_url),
    created_at: String(row.created_at),
  };
  if (withProfile) {
    brand.description = str(row.description);
    const profile = parse(row.profile_json);
    brand.profile = profile ? withNulls<BrandProfile>(BrandProfile, profile) : null;
  }
  return brand;
}

export interface BrandListParams {
  q?: string;
  categoryId?: string;
  includeProfile?: boolean;
  limit: number;
  cursor?: string;
  desc?: boolean;
}

/** Brands by name, with an optional name filter and category filter. */
export function listBrands(db: Db, params: BrandListParams): { brands: Brand[]; page: PageInfo } {
  const where: Condition[] = [];
  if (params.q) {
    const like = containsPattern(params.q);
    where.push(condition("(b.name LIKE ? ESCAPE '\\' OR b.slug LIKE ? ESCAPE '\\')", like, like));
  }
  if (params.categoryId)
    where.push(
      condition(
        'b.id IN (SELECT bc.brand_id FROM brand_categories bc JOIN categories c ON c.id = bc.category_id WHERE c.id = ? OR c.parent_id = ?)',
        params.categoryId,
        params.categoryId,
      ),
    );
  const { rows, page } = readPage(db, {
    from: 'brands b',
    columns: 'b.*',
    id: 'b.id',
    where,
    order: { kind: 'sort', expr: nameSortExpr(db, 'brands', 'b'), desc: params.desc ?? false },
    limit: params.limit,
    cursor: params.cursor,
  });
  return { brands: rows.map((r) => toBrand(r, params.includeProfile ?? false)), page };
}

/** A brand by id or slug, with description and profile. */
export function getBrand(db: Db, identifier: string): Brand | null {
  const row = stmt(db, 'SELECT * FROM brands WHERE id = ? OR slug = ?').get(identifier, identifier) as
    | Record<string, unknown>
    | undefined;
  return row ? toBrand(row, true) : null;
}

function toRetailer(row: Record<string, unknown>): Retailer {
  return {
    ...named(row),
    domain: str(row.domain),
    logo_url: str(row.logo_url),
    is_active: Boolean(row.is_active),
    profile: parse(row.profile_json),
  };
}

/** Retailers by name; `isActive` defaults to true as in spec §4.16. */
export function listRetailers(db: Db, params: { q?: string; isActive?: boolean; limit: number }): Retailer[] {
  const like = params.q ? containsPattern(params.q) : '%';
  const rows = stmt(
    db,
    "SELECT * FROM retailers WHERE is_active = ? AND (name LIKE ? ESCAPE '\\' OR slug LIKE ? ESCAPE '\\') ORDER BY name LIMIT ?",
  ).all(params.isActive === false ? 0 : 1, like, like, params.limit) as Record<string, unknown>[];
  return rows.map(toRetailer);
}

/** A retailer by id or slug. */
export function getRetailer(db: Db, identifier: string): Retailer | null {
  const row = stmt(db, 'SELECT * FROM retailers WHERE id = ? OR slug = ?').get(identifier, identifier) as
    | Record<string, unknown>
    | undefined;
  return row ? toRetailer(row) : null;
}
