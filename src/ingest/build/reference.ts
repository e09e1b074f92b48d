import type { Db } from '../../catalog/index.js';
import type { Content, ProductTypeDef } from '../../content/index.js';
import { aliasKey, slugify, stableUuid } from '../normalize/index.js';
import { titleBrandOpenings } from '../resolve/index.js';

export interface TypeInfo {
  id: string;
  slug: string;
  name: string;
  categoryId: string | null;
  def: ProductTypeDef;
}

/** Lookup tables built while writing the reference data into a snapshot. */
export interface Reference {
  categoryIdBySlug: Map<string, string>;
  types: Map<string, TypeInfo>;
  retailerIdBySlug: Map<string, string>;
  brands: BrandResolver;
}

/**
 * Canonical brands: an alias key ("geappliances") finds the brand ("GE"). Brands that feeds
 * name but the authored data does not know are added as they come, so that "ACME Corp" and
 * "Acme Corp." at two retailers still become one brand.
 */
export class BrandResolver {
  readonly #byAlias = new Map<string, { id: string; name: string; slug: string }>();
  readonly #insert;
  readonly #insertAlias;

  constructor(
    db: Db,
    private readonly now: string,
    /** when each brand id was first seen, from the previous snapshot */
    private readonly firstSeen: ReadonlyMap<string, string> = new Map(),
  ) {
    this.#insert = db.prepare('INSERT INTO brands (id, slug, name, created_at) VALUES (?, ?, ?, ?)');
    this.#insertAlias = db.prepare('INSERT OR IGNORE INTO brand_aliases (alias, brand_id) VALUES (?, ?)');
  }

  register(brand: { id: string; name: string; slug: string }, aliases: readonly string[]): void {
    for (const alias of [brand.name, brand.slug, ...aliases]) {
      const key = aliasKey(alias);
      if (key && !this.#byAlias.has(key)) {
        this.#byAlias.set(key, brand);
        this.#insertAlias.run(key, brand.id);
      }
    }
  }

  /** The canonical brand for a feed's brand text, or null for a blank one. */
  resolve(name: string | null): { id: string; name: string; slug: string } | null {
    if (!name) return null;
    const key = aliasKey(name);
    if (!key) return null;
    const known = this.#byAlias.get(key);
    if (known) return known;
    const slug = slugify(name) || key;
    const brand = { id: stableUuid(`brand:${slug}`), name: name.trim(), slug };
    this.#insert.run(brand.id, brand.slug, brand.name, this.firstSeen.get(brand.id) ?? this.now);
    this.register(brand, []);
    return brand;
  }

  /**
   * Finds a known brand a title opens with ("Bosch 800 Series …"), or that opens a part of it
   * after a dash, bar or "by" ("24" Dishwasher - GE GDT225").
   */
  fromTitle(title: string): { id: string; name: string; slug: string } | null {
    for (const opening of titleBrandOpenings(title)) {
      const words = opening.split(/\s+/).slice(0, 4);
      for (let n = Math.min(3, words.length); n >= 1; n--) {
        const hit = this.#byAlias.get(aliasKey(words.slice(0, n).join(' ')));
        if (hit) return hit;
      }
    }
    return null;
  }
}

/**
 * Writes categories, product types, brands, retailers and knowledge; returns the lookups. A
 * brand's `created_at` is when a snapshot first had it: `brandsFirstSeen` (brand id to
 * `created_at`, read from the previous snapshot), else `now`.
 */
export function writeReference(
  db: Db,
  content: Content,
  now: string,
  brandsFirstSeen: ReadonlyMap<string, string> = new Map(),
): Reference {
  const categoryIdBySlug = new Map<string, string>();
  const insertCategory = db.prepare(
    'INSERT INTO categories (id, slug, name, description, icon, is_featured, parent_id, level, path, sort_order) VALUES (?,?,?,?,?,?,?,?,?,?)',
  );
  const pending = [...content.categories];
  const pathBySlug = new Map<string, { level: number; path: string }>();
  // parents first, whatever the file order
  for (let guard = 0; pending.length > 0 && guard < 10; guard++) {
    for (let i = 0; i < pending.length; ) {
      const c = pending[i]!;
      const parent = c.parent ? pathBySlug.get(c.parent) : { level: -1, path: '' };
      if (!parent) {
        i++;
        continue;
      }
      const id = stableUuid(`category:${c.slug}`);
      const level = parent.level + 1;
      const path = parent.path ? `${parent.path} > ${c.name}` : c.name;
      insertCategory.run(
        id,
        c.slug,
        c.name,
        c.description ?? null,
        c.icon ?? null,
        c.is_featured ? 1 : 0,
        c.parent ? (categoryIdBySlug.get(c.parent) ?? null) : null,
        level,
        path,
        i,
      );
      categoryIdBySlug.set(c.slug, id);
      pathBySlug.set(c.slug, { level, path });
      pending.splice(i, 1);
    }
  }

  const types = new Map<string, TypeInfo>();
  const insertType = db.prepare(
    `INSERT INTO product_types (id, slug, name, subcategory_id, is_active, level, path, marketplace_category_id, marketplace_category_path, schema_json)
     VALUES (?,?,?,?,1,?,?,?,?,?)`,
  );
  for (const t of content.productTypes) {
    const id = stableUuid(`product-type:${t.slug}`);
    const parent = pathBySlug.get(t.subcategory);
    const categoryId = categoryIdBySlug.get(t.subcategory) ?? null;
    insertType.run(
      id,
      t.slug,
      t.name,
      categoryId,
      (parent?.level ?? 1) + 1,
      parent ? `${parent.path} > ${t.name}` : t.name,
      String(t.google_product_category.id),
      t.google_product_category.path,
      JSON.stringify(t),
    );
    types.set(t.slug, { id, slug: t.slug, name: t.name, categoryId, def: t });
  }

  const brands = new BrandResolver(db, now, brandsFirstSeen);
  const insertBrand = db.prepare(
    'INSERT INTO brands (id, slug, name, description, logo_url, website_url, profile_json, created_at) VALUES (?,?,?,?,?,?,?,?)',
  );
  const insertBrandCategory = db.prepare(
    'INSERT OR IGNORE INTO brand_categories (brand_id, category_id) VALUES (?, ?)',
  );
  const seenBrands = new Set<string>();
  for (const b of content.brands) {
    if (seenBrands.has(b.slug)) continue;
    seenBrands.add(b.slug);
    const id = stableUuid(`brand:${b.slug}`);
    insertBrand.run(
      id,
      b.slug,
      b.name,
      b.description ?? null,
      b.logo_url ?? null,
      b.website_url ?? null,
      b.profile ? JSON.stringify(b.profile) : null,
      brandsFirstSeen.get(id) ?? now,
    );
    brands.register({ id, name: b.name, slug: b.slug }, b.aliases ?? []);
    for (const typeSlug of b.product_types ?? []) {
      const categoryId = types.get(typeSlug)?.categoryId;
      if (categoryId) insertBrandCategory.run(id, categoryId);
    }
  }

  const retailerIdBySlug = new Map<string, string>();
  const insertRetailer = db.prepare(
    'INSERT INTO retailers (id, slug, name, domain, logo_url, is_active, profile_json, created_at) VALUES (?,?,?,?,?,?,?,?)',
  );
  for (const r of content.retailers) {
    const id = stableUuid(`retailer:${r.slug}`);
    const profile = r.profile
      ? { ...r.profile, categories: r.profile.categories ?? r.categories ?? [] }
      : null;
    insertRetailer.run(
      id,
      r.slug,
      r.name,
      r.domain ?? null,
      r.logo_url ?? null,
      r.is_active === false ? 0 : 1,
      profile ? JSON.stringify(profile) : null,
      now,
    );
    retailerIdBySlug.set(r.slug, id);
  }

  writeKnowledge(db, content, types, brands);
  return { categoryIdBySlug, types, retailerIdBySlug, brands };
}

function writeKnowledge(db: Db, content: Content, types: Map<string, TypeInfo>, brands: BrandResolver): void {
  const insertEntry = db.prepare(
    `INSERT INTO knowledge_entries (id, product_type_id, key, type, context, title, content, data_json, priority, source, source_url, sort_order, code, canonical_issue)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const insertOverride = db.prepare(
    `INSERT INTO knowledge_overrides (id, entry_id, product_type_id, brand_id, type, title, content, data_json, priority, source, source_url, code, canonical_issue)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  for (const file of content.knowledge) {
    const type = types.get(file.product_type);
    if (!type) continue;
    const entryIds = new Map<string, string>();
    file.entries.forEach((e, i) => {
      const id = stableUuid(`knowledge:${file.product_type}:${e.key}`);
      entryIds.set(e.key, id);
      const data = e.data ?? {};
      insertEntry.run(
        id,
        type.id,
        e.key,
        e.type,
        e.context,
        e.title,
        e.content,
        JSON.stringify(data),
        e.priority ?? null,
        e.source ?? null,
        e.source_url ?? null,
        e.sort_order ?? i,
        text(data.code)?.toUpperCase() ?? null,
        text(data.canonical_issue),
      );
    });
    (file.brand_overrides ?? []).forEach((o, i) => {
      const brand = brands.resolve(o.brand);
      if (!brand) return;
      const data = o.data ?? {};
      insertOverride.run(
        stableUuid(`knowledge-override:${file.product_type}:${o.brand}:${o.overrides ?? ''}:${i}`),
        o.overrides ? (entryIds.get(o.overrides) ?? null) : null,
        type.id,
        brand.id,
        o.type,
        o.title,
        o.content,
        JSON.stringify(data),
        o.priority ?? null,
        o.source ?? null,
        o.source_url ?? null,
        text(data.code)?.toUpperCase() ?? null,
        text(data.canonical_issue),
      );
    });
  }
}
