import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_DIR, loadContent } from '../src/content/index.js';

/** The authored content in data/: schemas, cross-references and uniqueness. */
describe('data files', () => {
  const content = loadContent();
  const listed = readFileSync(join(DEFAULT_CONTENT_DIR, 'taxonomy/product-types.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'));
  const typeSlugs = new Set(content.productTypes.map((t) => t.slug));
  const brandSlugs = new Set(content.brands.map((b) => b.slug));
  const categorySlugs = new Set(content.categories.map((c) => c.slug));

  const duplicates = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);

  it('every listed product type has an attribute schema and a Google category, and nothing else', () => {
    expect(content.productTypes.length).toBeGreaterThanOrEqual(160);
    expect([...typeSlugs].sort()).toEqual(listed.map((l) => l[0]).sort());
    for (const type of content.productTypes) {
      expect(type.specs.length, type.slug).toBeGreaterThanOrEqual(4);
      expect(String(type.google_product_category.id), type.slug).toMatch(/^\d+$/);
      expect(categorySlugs.has(type.subcategory), `${type.slug} → ${type.subcategory}`).toBe(true);
      for (const dim of type.variant_dimensions) {
        expect(type.controlled_values?.[dim], `${type.slug}: controlled values of ${dim}`).toBeDefined();
      }
    }
  });

  it('slugs are unique: product types, brands, categories, retailers, spec keys per type', () => {
    expect(duplicates(content.productTypes.map((t) => t.slug))).toEqual([]);
    expect(duplicates(content.brands.map((b) => b.slug))).toEqual([]);
    expect(duplicates(content.categories.map((c) => c.slug))).toEqual([]);
    expect(duplicates(content.retailers.map((r) => r.slug))).toEqual([]);
    for (const type of content.productTypes)
      expect(duplicates(type.specs.map((s) => s.key)), type.slug).toEqual([]);
  });

  it('categories form a tree', () => {
    for (const c of content.categories) if (c.parent) expect(categorySlugs.has(c.parent), c.slug).toBe(true);
  });

  it('has 150+ brands with profiles and 15 retailers with profiles', () => {
    expect(content.brands.length).toBeGreaterThanOrEqual(150);
    for (const b of content.brands) {
      expect(b.profile?.quality_tier, b.slug).toMatch(/^(luxury|premium|mid-range|budget)$/);
      for (const t of b.product_types ?? [])
        expect(typeSlugs.has(t), `${b.slug} sells unknown type ${t}`).toBe(true);
    }
    expect(content.retailers).toHaveLength(15);
    for (const r of content.retailers) expect(r.profile?.summary, r.slug).toEqual(expect.any(String));
  });

  it('no brand alias points at two brands', () => {
    const owner = new Map<string, string>();
    const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
    const clashes: string[] = [];
    for (const b of content.brands) {
      for (const alias of new Set([b.name, ...(b.aliases ?? [])].map(key))) {
        const other = owner.get(alias);
        if (other && other !== b.slug) clashes.push(`${alias}: ${other} / ${b.slug}`);
        owner.set(alias, b.slug);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('need content covers every product type once, in the file of its top category', () => {
    const topOf = new Map(listed.map((l) => [l[0], l[3]]));
    const slugs = content.needs.map((n) => n.product_type);
    expect(duplicates(slugs)).toEqual([]);
    expect([...slugs].sort()).toEqual([...typeSlugs].sort());
    const dir = join(DEFAULT_CONTENT_DIR, 'needs');
    for (const [slug, top] of topOf) {
      const file = JSON.parse(readFileSync(join(dir, `${top}.json`), 'utf8')) as { product_type: string }[];
      expect(
        file.some((n) => n.product_type === slug),
        `${slug} in needs/${top}.json`,
      ).toBe(true);
    }
  });

  it('knowledge covers every product type; error codes carry code and canonical_issue; overrides name known brands and entries', () => {
    const covered = new Set(content.knowledge.map((k) => k.product_type));
    expect([...typeSlugs].filter((t) => !covered.has(t))).toEqual([]);
    for (const file of content.knowledge) {
      expect(typeSlugs.has(file.product_type), file.product_type).toBe(true);
      expect(duplicates(file.entries.map((e) => e.key)), file.product_type).toEqual([]);
      const keys = new Set(file.entries.map((e) => e.key));
      const kinds = new Set(file.entries.map((e) => e.type));
      for (const kind of ['lifespan', 'maintenance_schedule', 'buying_guide'])
        expect(kinds.has(kind as never), `${file.product_type} ${kind}`).toBe(true);
      for (const entry of [...file.entries, ...(file.brand_overrides ?? [])]) {
        if (entry.type !== 'error_code') continue;
        expect(entry.data?.code, `${file.product_type}: ${entry.title}`).toEqual(expect.any(String));
        expect(entry.data?.canonical_issue, `${file.product_type}: ${entry.title}`).toMatch(/^[a-z0-9_]+$/);
      }
      for (const o of file.brand_overrides ?? []) {
        expect(brandSlugs.has(o.brand), `${file.product_type}: unknown brand ${o.brand}`).toBe(true);
        if (o.overrides)
          expect(
            keys.has(o.overrides),
            `${file.product_type}: ${o.brand} overrides unknown ${o.overrides}`,
          ).toBe(true);
      }
      const lifespan = file.entries.find((e) => e.type === 'lifespan')?.data as
        | Record<string, number>
        | undefined;
      const { years_low: low, years_typical: typical, years_high: high } = lifespan ?? {};
      if (low !== undefined && typical !== undefined && high !== undefined)
        expect(low <= typical && typical <= high, file.product_type).toBe(true);
    }
  });
});
