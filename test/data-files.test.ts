import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_DIR, loadColorVocabulary, loadContent, type SpecDef } from '../src/content/index.js';

/** True when x is a whole multiple of step (within float noise). */
const onStep = (x: number, step: number) => Math.abs(x / step - Math.round(x / step)) < 1e-6;

/**
 * What is wrong with a spec's real-world range (empty when nothing is). The generator draws
 * every demo value from it, so its parts must agree: min ≤ typical ≤ max, discrete values
 * sorted, distinct and spanning exactly [min, max] with one weight each, and the quoting
 * step dividing every stated number.
 */
function rangeProblems(spec: SpecDef): string[] {
  const r = spec.range;
  if (!r) return [];
  const out: string[] = [];
  if (spec.type !== 'number') out.push(`range on a non-number (${spec.type}) spec`);
  if (r.min > r.max) out.push(`min ${r.min} > max ${r.max}`);
  if (r.typical < r.min || r.typical > r.max) out.push(`typical ${r.typical} outside [${r.min}, ${r.max}]`);
  if (r.weights && !r.values) out.push('weights without values');
  if (r.values) {
    const v = r.values;
    if (r.weights && r.weights.length !== v.length)
      out.push(`${r.weights.length} weights for ${v.length} values`);
    if (r.weights && !r.weights.some((w) => w > 0)) out.push('all weights are 0');
    if (v.some((x, i) => i > 0 && x <= v[i - 1]!)) out.push('values not strictly ascending');
    if (v.some((x) => x < r.min || x > r.max)) out.push(`values outside [${r.min}, ${r.max}]`);
    if (v[0] !== r.min || v[v.length - 1] !== r.max)
      out.push(`values span [${v[0]}, ${v[v.length - 1]}], range says [${r.min}, ${r.max}]`);
    if (!v.includes(r.typical)) out.push(`typical ${r.typical} is not one of the values`);
  }
  if (r.step !== undefined) {
    if (r.max > r.min && r.step > r.max - r.min) out.push(`step ${r.step} wider than the range`);
    const stated = [r.min, r.max, r.typical, ...(r.values ?? [])];
    const off = stated.filter((x) => !onStep(x, r.step!));
    if (off.length) out.push(`step ${r.step} does not divide ${off.join(', ')}`);
  }
  return out;
}

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

  it('every numeric spec carries a real-world range (the demo generator draws from it)', () => {
    const missing = content.productTypes.flatMap((type) =>
      type.specs.filter((s) => s.type === 'number' && !s.range).map((s) => `${type.slug}.${s.key}`),
    );
    expect(missing).toEqual([]);
  });

  it('spec ranges are consistent: min ≤ typical ≤ max, values inside with one weight each, step divides them', () => {
    const problems: string[] = [];
    for (const type of content.productTypes)
      for (const spec of type.specs)
        for (const p of rangeProblems(spec)) problems.push(`${type.slug}.${spec.key}: ${p}`);
    expect(problems).toEqual([]);
  });

  it('enum weights (how common each value is on the shelf) sit on enum specs, one non-negative weight per value, not all 0', () => {
    const problems: string[] = [];
    for (const type of content.productTypes)
      for (const spec of type.specs) {
        if (!spec.weights) continue;
        const at = `${type.slug}.${spec.key}`;
        if (spec.type !== 'enum') problems.push(`${at}: weights on a ${spec.type} spec`);
        else if (spec.weights.length !== (spec.values ?? []).length)
          problems.push(`${at}: ${spec.weights.length} weights for ${(spec.values ?? []).length} values`);
        else if (!spec.weights.some((w) => w > 0)) problems.push(`${at}: all weights are 0`);
      }
    expect(problems).toEqual([]);
  });

  it('the range check catches each kind of broken range', () => {
    const spec = (range: SpecDef['range'], type: SpecDef['type'] = 'number'): SpecDef => ({
      key: 'k',
      label: 'K',
      type,
      unit: 'in',
      range,
    });
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 24, values: [18, 24], weights: [1, 9] }))).toEqual(
      [],
    );
    expect(rangeProblems(spec({ min: 24, max: 18, typical: 20 }))).toContain('min 24 > max 18');
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 30 }))[0]).toMatch(/typical 30 outside/);
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 24, values: [18, 24], weights: [1] }))).toContain(
      '1 weights for 2 values',
    );
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 24, values: [18, 24, 41] })).join()).toMatch(
      /values outside/,
    );
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 20, values: [18, 24] })).join()).toMatch(
      /typical 20 is not one of the values/,
    );
    expect(rangeProblems(spec({ min: 18, max: 24, typical: 21.3, step: 0.5 })).join()).toMatch(
      /step 0.5 does not divide 21.3/,
    );
    expect(rangeProblems(spec({ min: 0.3, max: 2.2, typical: 1.1, step: 0.1 }))).toEqual([]);
    expect(rangeProblems(spec({ min: 1, max: 3, typical: 2 }, 'enum'))).toContain(
      'range on a non-number (enum) spec',
    );
  });

  it('regression: no spec label or alias is a pasted list (a game-console alias "S,Nintendo Switch,…" titled a spec)', () => {
    const bad = content.productTypes.flatMap((t) =>
      t.specs.flatMap((s) =>
        [s.label, ...(s.aliases ?? [])].filter((a) => a.includes(',')).map((a) => `${t.slug}.${s.key}: ${a}`),
      ),
    );
    expect(bad).toEqual([]);
  });

  it('categories form a tree', () => {
    for (const c of content.categories) if (c.parent) expect(categorySlugs.has(c.parent), c.slug).toBe(true);
  });

  it('has 150+ brands with profiles and 15 active retailers (plus an inactive one) with profiles', () => {
    expect(content.brands.length).toBeGreaterThanOrEqual(150);
    for (const b of content.brands) {
      expect(b.profile?.quality_tier, b.slug).toMatch(/^(luxury|premium|mid-range|budget)$/);
      for (const t of b.product_types ?? [])
        expect(typeSlugs.has(t), `${b.slug} sells unknown type ${t}`).toBe(true);
    }
    expect(content.retailers.filter((r) => r.is_active !== false)).toHaveLength(15);
    expect(content.retailers.some((r) => r.is_active === false)).toBe(true);
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

  it('the color vocabulary (resolve/colors.json) names each word once and each code once per color', () => {
    const colors = loadColorVocabulary();
    expect(duplicates(Object.values(colors.words).flat())).toEqual([]);
    for (const [color, codes] of Object.entries(colors.suffix_codes))
      expect(duplicates(codes), color).toEqual([]);
    const words = new Set(Object.values(colors.words).flat());
    expect([...colors.part_nouns, ...colors.material_words].filter((w) => words.has(w))).toEqual([]);
    // only color words can be read otherwise before a noun
    expect(Object.keys(colors.not_color_before).filter((w) => !words.has(w))).toEqual([]);
  });
});
