import type { SpecDef } from '../content/index.js';
import type { AttributeSchema, Category, ProductType } from '../schemas/index.js';
import type { PageInfo } from './cursor.js';
import { type Db, perConnection, stmt } from './database.js';
import { nameSortExpr } from './name-keys.js';
import { condition, containsPattern, readPage } from './page.js';
import { named, str } from './product-rows.js';

type Row = Record<string, unknown>;

function toCategory(row: Row): Category {
  return {
    ...named(row),
    description: str(row.description),
    icon: str(row.icon),
    is_featured: Boolean(row.is_featured),
    parent_id: str(row.parent_id),
    level: Number(row.level),
    path: String(row.path),
  };
}

/**
 * Categories (spec §4.13): the top-level categories, or the direct children of `parentId`
 * (an id or slug). With `includeChildren` each carries its direct subcategories.
 * Returns null when `parentId` names no category.
 */
export function listCategories(
  db: Db,
  params: { parentId?: string; includeChildren?: boolean },
): (Category & { children?: Category[] })[] | null {
  let parent: string | null = null;
  if (params.parentId) {
    const row = stmt(db, 'SELECT id FROM categories WHERE id = ? OR slug = ?').get(
      params.parentId,
      params.parentId,
    ) as { id: string } | undefined;
    if (!row) return null;
    parent = row.id;
  }
  const rows = stmt(db, 'SELECT * FROM categories WHERE parent_id IS ? ORDER BY sort_order, name').all(
    parent,
  ) as Row[];
  const categories = rows.map(toCategory) as (Category & { children?: Category[] })[];
  if (params.includeChildren) {
    const children = stmt(
      db,
      `SELECT * FROM categories WHERE parent_id IN (SELECT value FROM json_each(?)) ORDER BY sort_order, name`,
    ).all(JSON.stringify(categories.map((c) => c.id))) as Row[];
    for (const c of categories) c.children = children.filter((ch) => ch.parent_id === c.id).map(toCategory);
  }
  return categories;
}

function toProductType(row: Row): ProductType {
  return {
    ...named(row),
    subcategory_id: str(row.subcategory_id),
    is_active: Boolean(row.is_active),
    level: Number(row.level),
    path: String(row.path),
  };
}

export interface ProductTypeListParams {
  limit: number;
  cursor?: string;
  desc?: boolean;
  knowledgeStats?: boolean;
  q?: string;
}

/** Product types by name with keyset pagination (spec §4.17), optionally with knowledge statistics. */
export function listProductTypes(
  db: Db,
  params: ProductTypeListParams,
): { types: ProductType[]; page: PageInfo } {
  const like = params.q ? containsPattern(params.q) : null;
  const { rows, page } = readPage(db, {
    from: 'product_types pt',
    columns: 'pt.*',
    id: 'pt.id',
    where: like ? [condition("(pt.name LIKE ? ESCAPE '\\' OR pt.slug LIKE ? ESCAPE '\\')", like, like)] : [],
    order: { kind: 'sort', expr: nameSortExpr(db, 'product_types', 'pt'), desc: params.desc ?? false },
    limit: params.limit,
    cursor: params.cursor,
  });
  const types = rows.map(toProductType);
  if (params.knowledgeStats) {
    const stats = knowledgeStats(db);
    for (const t of types) {
      const s = stats.get(t.id);
      t.knowledge_entry_count = s?.count ?? 0;
      t.knowledge_types = s?.types ?? [];
      t.has_brand_overrides = s?.overrides ?? false;
    }
  }
  return { types, page };
}

function knowledgeStats(db: Db): Map<string, { count: number; types: string[]; overrides: boolean }> {
  const rows = stmt(
    db,
    `SELECT product_type_id AS id, count(*) AS n, group_concat(DISTINCT type) AS types,
       EXISTS (SELECT 1 FROM knowledge_overrides o WHERE o.product_type_id = k.product_type_id) AS overrides
     FROM knowledge_entries k GROUP BY product_type_id`,
  ).all() as { id: string; n: number; types: string; overrides: number }[];
  return new Map(
    rows.map((r) => [r.id, { count: r.n, types: r.types.split(',').sort(), overrides: r.overrides === 1 }]),
  );
}

/** A product type by slug (or id), or null. */
export function productTypeBySlug(db: Db, slug: string): (ProductType & { schema: Row }) | null {
  const row = stmt(db, 'SELECT * FROM product_types WHERE slug = ? OR id = ?').get(slug, slug) as
    | Row
    | undefined;
  if (!row) return null;
  let schema: Row = {};
  try {
    schema = JSON.parse(String(row.schema_json ?? '{}')) as Row;
  } catch {
    schema = {};
  }
  return {
    ...toProductType(row),
    schema: {
      ...schema,
      marketplace_category_id: row.marketplace_category_id,
      marketplace_category_path: row.marketplace_category_path,
    },
  };
}

/** A spec of a product type's attribute schema, as authored (content/schemas.ts is its one definition). */
export type { SpecDef };

/** The attribute schema of a product type (spec §2.15), from its authored taxonomy entry. */
export function attributeSchema(db: Db, slug: string): AttributeSchema | null {
  const type = productTypeBySlug(db, slug);
  if (!type) return null;
  const s = type.schema as {
    identity_dimensions?: string[];
    variant_dimensions?: string[];
    specs?: SpecDef[];
    controlled_values?: AttributeSchema['controlled_values'];
    marketplace_category_id?: string | null;
    marketplace_category_path?: string | null;
  };
  const specs = s.specs ?? [];
  return {
    product_type: {
      name: type.name,
      slug: type.slug,
      marketplace_category_id: s.marketplace_category_id ?? null,
      marketplace_category_path: s.marketplace_category_path ?? null,
    },
    identity_dimensions: s.identity_dimensions ?? [],
    variant_dimensions: s.variant_dimensions ?? [],
    valid_spec_keys: [...new Set([...specs.map((x) => x.key), ...(s.variant_dimensions ?? [])])],
    controlled_values: s.controlled_values ?? {},
    curated_attributes: specs.map((x) => ({
      key: x.key,
      label: x.label ?? x.key,
      type: x.type ?? 'string',
      unit: x.unit ?? null,
      values: x.values ?? null,
      headline: x.headline === true,
    })),
  };
}

const specCache = perConnection<Map<string, SpecDef[]>>();

/** Spec definitions of every product type by type id (labels, units, headline flags), parsed once per snapshot. */
export function typeSpecs(db: Db): Map<string, SpecDef[]> {
  return specCache(db, 'all', readTypeSpecs);
}

function readTypeSpecs(db: Db): Map<string, SpecDef[]> {
  const map = new Map<string, SpecDef[]>();
  for (const row of stmt(db, 'SELECT id, schema_json FROM product_types').all() as {
    id: string;
    schema_json: string;
  }[]) {
    try {
      map.set(row.id, (JSON.parse(row.schema_json) as { specs?: SpecDef[] }).specs ?? []);
    } catch {
      map.set(row.id, []);
    }
  }
  return map;
}
