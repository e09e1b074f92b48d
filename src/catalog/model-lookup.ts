import { modelKey } from '../identifiers/index.js';
import type { ModelLookup, Product } from '../schemas/index.js';
import { round2 } from '../util/index.js';
import { type Db, perConnection, stmt } from './database.js';
import { PRODUCT_SELECT, type ProductRow, toProduct } from './product-rows.js';

interface ModelPattern {
  brandSlug: string | null;
  regex: RegExp;
  typeName: string;
  typeSlug: string;
  decodes: Record<string, { spec: string; map?: Record<string, string> }>;
}

const patternCache = perConnection<ModelPattern[]>();

/** The model-number schemes of every product type (schema_json.model_patterns), compiled once per snapshot. */
function modelPatterns(db: Db): ModelPattern[] {
  return patternCache(db, '', readModelPatterns);
}

function readModelPatterns(db: Db): ModelPattern[] {
  const patterns: ModelPattern[] = [];
  const rows = stmt(
    db,
    "SELECT slug, name, schema_json FROM product_types WHERE schema_json LIKE '%model_patterns%'",
  ).all() as {
    slug: string;
    name: string;
    schema_json: string;
  }[];
  for (const row of rows) {
    let schema: { model_patterns?: { brand?: string; regex: string; decodes?: ModelPattern['decodes'] }[] };
    try {
      schema = JSON.parse(row.schema_json);
    } catch {
      continue;
    }
    for (const p of schema.model_patterns ?? []) {
      try {
        patterns.push({
          brandSlug: p.brand ?? null,
          regex: new RegExp(p.regex, 'i'),
          typeName: row.name,
          typeSlug: row.slug,
          decodes: p.decodes ?? {},
        });
      } catch {
        // an authored regex that does not compile is skipped, not fatal
      }
    }
  }
  return patterns;
}

interface BrandRef {
  id: string;
  name: string;
  slug: string;
}

/** A brand hint by id, slug, name or alias ("GE Appliances" finds GE). */
function resolveBrand(db: Db, hint: string): BrandRef | null {
  const alias = hint.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    (stmt(
      db,
      `SELECT id, name, slug FROM brands WHERE id = ? OR slug = ?
       UNION ALL SELECT b.id, b.name, b.slug FROM brand_aliases a JOIN brands b ON b.id = a.brand_id WHERE a.alias = ?
       LIMIT 1`,
    ).get(hint, hint.toLowerCase(), alias) as BrandRef | undefined) ?? null
  );
}

function brandBySlug(db: Db, slug: string): BrandRef | null {
  return (
    (stmt(db, 'SELECT id, name, slug FROM brands WHERE slug = ?').get(slug) as BrandRef | undefined) ?? null
  );
}

/** Levenshtein distance, stopping early once it exceeds `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] as number;
}

const ORDER = 'ORDER BY p.data_tier, p.quality_score DESC, p.id';

/**
 * Finds a product by model number (spec §4.6), in this order: exact model key; prefix (the
 * catalog's model extends the query or the query adds a suffix such as a region code);
 * fuzzy (a small edit distance, for model numbers of 6+ characters); and otherwise only the
 * decoding of the model number by the product types' authored model patterns. Returns null
 * when none of these finds anything.
 */
export function lookupModel(db: Db, model: string, brandHint?: string): ModelLookup | null {
  const key = modelKey(model);
  if (key.length < 2) return null;
  const brand = brandHint ? resolveBrand(db, brandHint) : null;
  if (brandHint && !brand) return null;
  const brandId = brand?.id ?? null;

  const decodedBy = modelPatterns(db).find(
    (p) =>
      (!brand || !p.brandSlug || p.brandSlug === brand.slug) &&
      (p.regex.test(key) || p.regex.test(model.trim())),
  );
  const decodedSpecs: Record<string, string> = {};
  if (decodedBy) {
    const match = decodedBy.regex.exec(key) ?? decodedBy.regex.exec(model.trim());
    for (const [group, rule] of Object.entries(decodedBy.decodes)) {
      const part = match?.[Number(group)];
      if (part === undefined) continue;
      decodedSpecs[rule.spec] = rule.map?.[part] ?? rule.map?.[part.toUpperCase()] ?? part;
    }
  }
  const decodedBrand = decodedBy?.brandSlug ? brandBySlug(db, decodedBy.brandSlug) : null;

  let matchType: ModelLookup['match_type'] = 'exact';
  let confidence = 1;
  let row = stmt(
    db,
    `${PRODUCT_SELECT} WHERE p.model_key = ? AND (? IS NULL OR p.brand_id = ?) ${ORDER} LIMIT 1`,
  ).get(key, brandId, brandId) as ProductRow | undefined;

  if (!row && key.length >= 4) {
    row = stmt(
      db,
      `${PRODUCT_SELECT} WHERE (p.model_key LIKE ? || '%' OR (? LIKE p.model_key || '%' AND length(p.model_key) >= 4))
       AND p.model_key != '' AND (? IS NULL OR p.brand_id = ?)
       ORDER BY abs(length(p.model_key) - ?), p.data_tier, p.quality_score DESC, p.id LIMIT 1`,
    ).get(key, key, brandId, brandId, key.length) as ProductRow | undefined;
    if (row) {
      matchType = 'prefix';
      const other = String(row.model_key ?? '');
      confidence = round2(
        0.6 + 0.3 * (Math.min(other.length, key.length) / Math.max(other.length, key.length)),
      );
    }
  }

  if (!row && key.length >= 6) {
    const max = key.length >= 10 ? 2 : 1;
    const candidates = stmt(
      db,
      `${PRODUCT_SELECT} WHERE length(p.model_key) BETWEEN ? AND ? AND substr(p.model_key, 1, 2) = ?
       AND (? IS NULL OR p.brand_id = ?) ${ORDER} LIMIT 5000`,
    ).all(key.length - max, key.length + max, key.slice(0, 2), brandId, brandId) as ProductRow[];
    let best: { row: ProductRow; distance: number } | null = null;
    for (const c of candidates) {
      const d = editDistance(key, String(c.model_key), max);
      if (d <= max && (!best || d < best.distance)) best = { row: c, distance: d };
    }
    if (best) {
      row = best.row;
      matchType = 'fuzzy';
      confidence = round2(0.55 - 0.1 * best.distance);
    }
  }

  if (!row && !decodedBy) return null;
  const product: Product | null = row ? toProduct(row) : null;
  if (!product) {
    matchType = 'decoded';
    confidence = decodedBrand || brand ? 0.7 : 0.5;
  } else if (decodedBy && matchType !== 'exact') {
    confidence = round2(Math.min(0.95, confidence + 0.1));
  }
  return {
    match_type: matchType,
    product,
    decoded: {
      brand: product?.brand?.name ?? decodedBrand?.name ?? brand?.name ?? null,
      productType: product?.product_type?.name ?? decodedBy?.typeName ?? null,
      modelNumber: product?.model_number ?? model.trim().toUpperCase(),
      specs: decodedSpecs,
      confidence,
    },
  };
}
