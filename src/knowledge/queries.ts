import type { Static } from 'typebox';
import {
  condition,
  containsPattern,
  type Db,
  type PageInfo,
  perConnection,
  readPage,
  stmt,
  str,
} from '../catalog/index.js';
import { KNOWLEDGE_CONTEXTS, KNOWLEDGE_TYPES } from '../content/index.js';
import type { KnowledgeEntry, KnowledgeOverride, ProductKnowledge } from '../schemas/index.js';

export { KNOWLEDGE_CONTEXTS, KNOWLEDGE_TYPES };
export type KnowledgeType = (typeof KNOWLEDGE_TYPES)[number];
export type KnowledgeContext = (typeof KNOWLEDGE_CONTEXTS)[number];

type Row = Record<string, unknown>;
type Override = Static<typeof KnowledgeOverride>;

const parse = (v: unknown): Record<string, unknown> => {
  try {
    return JSON.parse(String(v ?? '{}')) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** The columns an entry and an override share. */
const bodyOf = (row: Row) => ({
  title: String(row.title),
  content: String(row.content),
  data: parse(row.data_json),
  priority: str(row.priority),
  source: str(row.source),
  source_url: str(row.source_url),
});

function toEntry(row: Row): KnowledgeEntry {
  const entry: KnowledgeEntry = {
    id: String(row.id),
    key: String(row.key),
    type: String(row.type),
    context: String(row.context),
    ...bodyOf(row),
    sort_order: Number(row.sort_order ?? 0),
  };
  if (row.pt_id)
    entry.product_type = { id: String(row.pt_id), name: String(row.pt_name), slug: String(row.pt_slug) };
  return entry;
}

function toOverride(row: Row): Override {
  return {
    id: String(row.id),
    brand: { id: String(row.b_id), name: String(row.b_name), slug: String(row.b_slug) },
    type: String(row.type),
    ...bodyOf(row),
  };
}

export interface Ref {
  id: string;
  name: string;
  slug: string;
}
export type BrandRef = Ref;
export type ProductTypeRef = Ref;

const REF_SQL = {
  brands: 'SELECT id, name, slug FROM brands WHERE id = ? OR slug = ?',
  product_types: 'SELECT id, name, slug FROM product_types WHERE id = ? OR slug = ?',
} as const;
const findRef = (db: Db, table: keyof typeof REF_SQL, identifier: string): Ref | null =>
  (stmt(db, REF_SQL[table]).get(identifier, identifier) as Ref | undefined) ?? null;

/** A brand by id or slug, or null. */
export const findBrand = (db: Db, identifier: string): BrandRef | null => findRef(db, 'brands', identifier);

/** Slug form of a name or synonym, singular: "Fridges" → "fridge", "Wet/Dry Vac" → "wet-dry-vac". */
const phraseKey = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/(?<=[a-z]{3})s$/, '');

const typePhrases = perConnection<Map<string, ProductTypeRef | null>>();

/**
 * Each type's slug, name and synonyms (as the taxonomy gives them, the words search
 * understands) → the type; a phrase two types share maps to null (ambiguous).
 */
function phrasesOf(db: Db): Map<string, ProductTypeRef | null> {
  return typePhrases(db, 'types', () => {
    const byPhrase = new Map<string, ProductTypeRef | null>();
    const rows = stmt(
      db,
      'SELECT id, name, slug, schema_json FROM product_types',
    ).all() as (ProductTypeRef & {
      schema_json: string | null;
    })[];
    // names and slugs win over another type's synonym; a synonym two types share is ambiguous
    const named = new Set<string>();
    for (const r of rows)
      for (const key of [phraseKey(r.slug), phraseKey(r.name)]) {
        named.add(key);
        byPhrase.set(key, { id: r.id, name: r.name, slug: r.slug });
      }
    for (const r of rows) {
      const synonyms = ((parse(r.schema_json).synonyms ?? []) as unknown[]).filter(
        (x): x is string => typeof x === 'string',
      );
      for (const key of new Set(synonyms.map(phraseKey))) {
        if (!key || named.has(key)) continue;
        const seen = byPhrase.get(key);
        byPhrase.set(
          key,
          seen === undefined ? { id: r.id, name: r.name, slug: r.slug } : seen?.id === r.id ? seen : null,
        );
      }
    }
    return byPhrase;
  });
}

/**
 * A product type by id or slug, else by its name or a synonym the way search reads them
 * ("fridge" → Refrigerator, "dishwashers" → Dishwasher); null when unknown or ambiguous.
 */
export const findProductType = (db: Db, identifier: string): ProductTypeRef | null =>
  findRef(db, 'product_types', identifier) ?? phrasesOf(db).get(phraseKey(identifier)) ?? null;

export interface KnowledgeFilter {
  type?: KnowledgeType;
  /** home → general + home; office → general + office; general → general only */
  context?: KnowledgeContext;
  /** error code as printed on the appliance (E24, 4C…): matches generic codes and brand codes */
  code?: string;
  canonicalIssue?: string;
  /** include this brand's overrides as `brand_overrides` on the entries they override */
  brandId?: string;
}

const OVERRIDE_SELECT = `SELECT o.*, b.id AS b_id, b.name AS b_name, b.slug AS b_slug
  FROM knowledge_overrides o JOIN brands b ON b.id = o.brand_id`;

/**
 * Knowledge entries of one product type (spec §4.19). `code` and `canonical_issue` imply
 * type=error_code; a code found only on a brand override returns the generic entry it
 * overrides, carrying that override.
 */
export function knowledgeForType(db: Db, productTypeId: string, filter: KnowledgeFilter): KnowledgeEntry[] {
  const type = filter.code || filter.canonicalIssue ? 'error_code' : (filter.type ?? null);
  if (filter.type && type !== filter.type) return [];
  const contexts =
    filter.context === undefined
      ? null
      : filter.context === 'general'
        ? ['general']
        : ['general', filter.context];
  const code = filter.code?.trim().toUpperCase() ?? null;
  const rows = stmt(
    db,
    `SELECT k.* FROM knowledge_entries k
     WHERE k.product_type_id = ?
       AND (? IS NULL OR k.type = ?)
       AND (? IS NULL OR k.context IN (SELECT value FROM json_each(?)))
       AND (? IS NULL OR k.canonical_issue = ? OR EXISTS (SELECT 1 FROM knowledge_overrides o
            WHERE o.entry_id = k.id AND o.canonical_issue = ?))
       AND (? IS NULL OR k.code = ? OR EXISTS (SELECT 1 FROM knowledge_overrides o
            WHERE o.entry_id = k.id AND o.code = ? AND (? IS NULL OR o.brand_id = ?)))
     ORDER BY k.sort_order, k.key`,
  ).all(
    productTypeId,
    type,
    type,
    contexts ? 1 : null,
    JSON.stringify(contexts ?? []),
    filter.canonicalIssue ?? null,
    filter.canonicalIssue ?? null,
    filter.canonicalIssue ?? null,
    code,
    code,
    code,
    filter.brandId ?? null,
    filter.brandId ?? null,
  ) as Row[];
  const entries = rows.map(toEntry);
  if (entries.length === 0) return entries;
  // overrides to show: the asked brand's, plus any override whose code was searched for
  if (filter.brandId || code) attachOverrides(db, entries, rows, filter.brandId, code, true);
  return entries;
}

export interface KnowledgeListParams {
  q?: string;
  productTypeId?: string;
  brandId?: string;
  limit: number;
  cursor?: string;
}

/** Entries of one knowledge type across product types (GET /v2/knowledge/{type}), by product type then order. */
export function knowledgeByType(
  db: Db,
  type: KnowledgeType,
  params: KnowledgeListParams,
): { entries: KnowledgeEntry[]; page: PageInfo } {
  const like = params.q ? containsPattern(params.q) : null;
  const code = params.q?.trim().toUpperCase() ?? null;
  const { rows, page } = readPage(db, {
    from: 'knowledge_entries k JOIN product_types t ON t.id = k.product_type_id',
    columns: 'k.*, t.id AS pt_id, t.name AS pt_name, t.slug AS pt_slug',
    id: 'k.id',
    where: [
      condition('k.type = ?', type),
      condition(
        '(? IS NULL OR k.product_type_id = ?)',
        params.productTypeId ?? null,
        params.productTypeId ?? null,
      ),
      // q matches an entry's title, content or code, or a brand override's title or code (E24)
      condition(
        `(? IS NULL OR k.title LIKE ? ESCAPE '\\' OR k.content LIKE ? ESCAPE '\\' OR upper(k.code) = ?
          OR EXISTS (SELECT 1 FROM knowledge_overrides o WHERE o.entry_id = k.id
                     AND (upper(o.code) = ? OR o.title LIKE ? ESCAPE '\\')))`,
        like,
        like,
        like,
        code,
        code,
        like,
      ),
    ],
    order: { kind: 'fixed', orderBy: 't.name, k.sort_order, k.key' },
    limit: params.limit,
    cursor: params.cursor,
  });
  const entries = rows.map(toEntry);
  // the brand's overrides, and those whose code q names (an entry found through E24 shows E24)
  if ((params.brandId || code) && entries.length)
    attachOverrides(db, entries, rows, params.brandId, code, Boolean(params.brandId));
  return { entries, page };
}

/**
 * Sets `brand_overrides` on entries: the brand's own overrides, or — for an entry found through
 * a brand's code (E24) rather than its own — that code's overrides only, not the brand's others
 * (E25). `always` sets an empty list too.
 */
function attachOverrides(
  db: Db,
  entries: KnowledgeEntry[],
  rows: Row[],
  brandId: string | undefined,
  code: string | null,
  always: boolean,
): void {
  const overrides = stmt(
    db,
    `${OVERRIDE_SELECT} WHERE o.entry_id IN (SELECT value FROM json_each(?))
     AND (o.brand_id = ? OR (? IS NOT NULL AND upper(o.code) = ?)) ORDER BY b.name, o.id`,
  ).all(JSON.stringify(entries.map((e) => e.id)), brandId ?? null, code, code) as Row[];
  const codeOf = (row: Row | undefined) => String(row?.code ?? '').toUpperCase();
  entries.forEach((e, i) => {
    const own = overrides.filter((o) => o.entry_id === e.id);
    const byOverrideCode = code !== null && codeOf(rows[i]) !== code && own.some((o) => codeOf(o) === code);
    const shown = byOverrideCode
      ? own.filter((o) => codeOf(o) === code && (!brandId || o.brand_id === brandId))
      : own.filter((o) => o.brand_id === brandId);
    if (always || shown.length) e.brand_overrides = shown.map(toOverride);
  });
}

type KnowledgeMeta = NonNullable<ReturnType<typeof computeKnowledgeMeta>>;
const metaCache = perConnection<KnowledgeMeta>();

/**
 * `_knowledge` availability metadata of a product (spec §2.3); null for a product without a
 * type. It depends only on the product type and brand, so it is kept per snapshot.
 */
export function knowledgeMeta(
  db: Db,
  product: { product_type: { id: string; slug: string } | null; brand: { id: string } | null },
): KnowledgeMeta | null {
  if (!product.product_type) return null;
  const key = `${product.product_type.id}|${product.brand?.id ?? ''}`;
  const meta = metaCache(db, key, () => computeKnowledgeMeta(db, product) as KnowledgeMeta);
  return { ...meta, available: [...meta.available] };
}

/**
 * Each product type's knowledge entries: how many, and their types. Read in one pass for all
 * types, once per snapshot: no index starts with the entries' product type, so a query per
 * type and brand (what `_knowledge` depends on) scanned the table each time, 115 µs per pair
 * on the 3,000-product demo (883 pairs; 1,415 in the 35k demo: about 0.16 s).
 */
const entryStats = (db: Db) =>
  statsCache(db, '', () => {
    const rows = db
      .prepare(
        'SELECT product_type_id AS id, count(*) AS n, group_concat(DISTINCT type) AS types FROM knowledge_entries GROUP BY product_type_id',
      )
      .all() as { id: string; n: number; types: string | null }[];
    return new Map(rows.map((r) => [r.id, { n: r.n, types: r.types }]));
  });
const statsCache = perConnection<Map<string, { n: number; types: string | null }>>();

function computeKnowledgeMeta(
  db: Db,
  product: { product_type: { id: string; slug: string } | null; brand: { id: string } | null },
) {
  if (!product.product_type) return null;
  const stats = entryStats(db).get(product.product_type.id) ?? { n: 0, types: null };
  const brandId = product.brand?.id ?? null;
  const brand = brandId
    ? (stmt(
        db,
        `SELECT profile_json IS NOT NULL AS profile,
           EXISTS (SELECT 1 FROM knowledge_overrides WHERE product_type_id = ? AND brand_id = ?) AS overrides
         FROM brands WHERE id = ?`,
      ).get(product.product_type.id, brandId, brandId) as { profile: number; overrides: number } | undefined)
    : undefined;
  return {
    product_type_slug: product.product_type.slug,
    available: stats.types ? stats.types.split(',').sort() : [],
    entry_count: stats.n,
    has_brand_overrides: brand?.overrides === 1,
    brand_profile: brand?.profile === 1,
    knowledge_url: `/v2/product-types/${product.product_type.slug}/knowledge`,
  };
}

/** Inline knowledge of a product (include_knowledge): lifespan, maintenance, cost of ownership, buying guide, with the brand's overrides. */
export function productKnowledge(
  db: Db,
  product: { product_type: { id: string } | null; brand: { id: string } | null },
): ProductKnowledge {
  const out: ProductKnowledge = { lifespan: [], maintenance: [], cost_of_ownership: [], buying_guide: [] };
  if (!product.product_type) return out;
  const entries = knowledgeForType(db, product.product_type.id, { brandId: product.brand?.id });
  for (const e of entries) {
    if (e.type === 'lifespan') out.lifespan.push(e);
    else if (e.type === 'maintenance_schedule') out.maintenance.push(e);
    else if (e.type === 'cost_of_ownership') out.cost_of_ownership.push(e);
    else if (e.type === 'buying_guide') out.buying_guide.push(e);
  }
  return out;
}
