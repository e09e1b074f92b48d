import type { ProductGroup } from '../schemas/index.js';
import type { PageInfo } from './cursor.js';
import { type Db, stmt } from './database.js';
import { nameSortExpr } from './name-keys.js';
import { type Condition, condition, containsPattern, readPage } from './page.js';
import { attachOffers } from './product-queries.js';
import {
  brandRef,
  categoryRef,
  named,
  PRODUCT_SELECT,
  type ProductRow,
  str,
  toProduct,
  typeRef,
} from './product-rows.js';

type Row = Record<string, unknown>;

const GROUP_COLUMNS = `g.*,
  b.id AS b_id, b.name AS b_name, b.slug AS b_slug, b.logo_url AS b_logo_url, b.website_url AS b_website_url, b.created_at AS b_created_at,
  c.id AS c_id, c.name AS c_name, c.slug AS c_slug, c.description AS c_description, c.icon AS c_icon, c.is_featured AS c_is_featured,
  c.parent_id AS c_parent_id, c.level AS c_level, c.path AS c_path,
  t.id AS t_id, t.name AS t_name, t.slug AS t_slug, t.subcategory_id AS t_subcategory_id, t.is_active AS t_is_active, t.level AS t_level, t.path AS t_path`;
const GROUP_FROM = `product_groups g
LEFT JOIN brands b ON b.id = g.brand_id
LEFT JOIN categories c ON c.id = g.category_id
LEFT JOIN product_types t ON t.id = g.product_type_id`;
const GROUP_SELECT = `SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM}`;

/** Sortable fields of GET /v2/product-groups. */
export const GROUP_SORTS = {
  name: 'g.name',
  variant_count: 'g.variant_count',
  created_at: 'g.created_at',
} as const;
export type GroupSortField = keyof typeof GROUP_SORTS;

function toGroup(row: Row): ProductGroup {
  let dims: string[] = [];
  try {
    dims = JSON.parse(String(row.variant_dimensions_json ?? '[]')) as string[];
  } catch {
    dims = [];
  }
  return {
    ...named(row),
    description: str(row.description),
    base_model: str(row.base_model),
    series_name: str(row.series_name),
    variant_dimensions: dims,
    original_msrp: (row.original_msrp as number | null) ?? null,
    current_market_value: (row.current_market_value as number | null) ?? null,
    product_status: str(row.product_status),
    brand_id: str(row.brand_id),
    category_id: str(row.category_id),
    product_type_id: str(row.product_type_id),
    brand: brandRef(row),
    category: categoryRef(row),
    product_type: typeRef(row),
    variant_count: Number(row.variant_count ?? 0),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export interface GroupListParams {
  q?: string;
  brandId?: string;
  categoryId?: string;
  productTypeId?: string;
  limit: number;
  cursor?: string;
  sort?: { field: GroupSortField; desc: boolean };
  includeProducts?: boolean;
  /** list legacy products (tier 3–4) among a group's products too (default false) */
  includeLegacy?: boolean;
}

/** Product groups with filters and keyset pagination (spec §4.11). */
export function listGroups(db: Db, params: GroupListParams): { groups: ProductGroup[]; page: PageInfo } {
  const where: Condition[] = [];
  if (params.q) {
    const like = containsPattern(params.q);
    where.push(
      condition(
        "(g.name LIKE ? ESCAPE '\\' OR g.base_model LIKE ? ESCAPE '\\' OR g.series_name LIKE ? ESCAPE '\\')",
        like,
        like,
        like,
      ),
    );
  }
  if (params.brandId) where.push(condition('g.brand_id = ?', params.brandId));
  if (params.categoryId)
    where.push(
      condition(
        '(g.category_id = ? OR g.category_id IN (SELECT id FROM categories WHERE parent_id = ?))',
        params.categoryId,
        params.categoryId,
      ),
    );
  if (params.productTypeId) where.push(condition('g.product_type_id = ?', params.productTypeId));
  const sort = params.sort ?? { field: 'name', desc: false };
  const { rows, page } = readPage(db, {
    from: GROUP_FROM,
    columns: GROUP_COLUMNS,
    id: 'g.id',
    where,
    order: {
      kind: 'sort',
      expr: sort.field === 'name' ? nameSortExpr(db, 'product_groups', 'g') : GROUP_SORTS[sort.field],
      desc: sort.desc,
    },
    limit: params.limit,
    cursor: params.cursor,
  });
  const groups = rows.map(toGroup);
  if (params.includeProducts)
    for (const g of groups) g.products = groupProducts(db, g.id, false, params.includeLegacy ?? false);
  return { groups, page };
}

/** A group's products; legacy ones (tier 3–4) only when asked for, as in every product list. */
function groupProducts(db: Db, groupId: string, includeOffers: boolean, includeLegacy: boolean) {
  const rows = stmt(
    db,
    `${PRODUCT_SELECT} WHERE p.product_group_id = ? AND (? OR p.data_tier < 3) ORDER BY p.name, p.id`,
  ).all(groupId, includeLegacy ? 1 : 0) as ProductRow[];
  const products = rows.map(toProduct);
  if (includeOffers) attachOffers(db, products);
  return products;
}

/** One product group by id with its products (spec §4.12); null when unknown. */
export function getGroup(
  db: Db,
  id: string,
  options: { includeOffers?: boolean; includeLegacy?: boolean } = {},
): ProductGroup | null {
  const row = stmt(db, `${GROUP_SELECT} WHERE g.id = ?`).get(id) as Row | undefined;
  if (!row) return null;
  const group = toGroup(row);
  group.products = groupProducts(db, id, options.includeOffers ?? false, options.includeLegacy ?? false);
  return group;
}
