import { describe, expect, it } from 'vitest';
import { loadContent, type RuleConstraint } from '../content/index.js';
import { planProducts } from './plan.js';
import { Random } from './random.js';
import { matches, narrow, satisfies, unsqueeze } from './spec-draw.js';

const content = loadContent();
const typeOf = new Map(content.productTypes.map((t) => [t.slug, t]));

/** Spearman rank correlation of two equally long lists. */
function spearman(xs: number[], ys: number[]): number {
  const rank = (v: number[]) => {
    const order = v.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const [a, b] = [rank(xs), rank(ys)];
  const mean = (v: number[]) => v.reduce((n, x) => n + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da && db ? num / Math.sqrt(da * db) : 0;
}

describe('spec rules data (taxonomy/spec-rules.json)', () => {
  it('names real product types, specs and values, and every numeric constraint fits the spec range', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const entry of content.specRules) {
      const type = typeOf.get(entry.product_type);
      if (!type) {
        problems.push(`unknown type ${entry.product_type}`);
        continue;
      }
      if (seen.has(type.slug)) problems.push(`${type.slug} listed twice`);
      seen.add(type.slug);
      const spec = (key: string) => type.specs.find((s) => s.key === key);
      const check = (where: string, key: string, c: RuleConstraint | string | number | boolean | null) => {
        if (key === 'brand' && where.endsWith('when')) {
          const slugs = c !== null && typeof c === 'object' ? [...(c.values ?? []), ...(c.not ?? [])] : [c];
          for (const b of slugs)
            if (!content.brands.some((x) => x.slug === b && x.product_types?.includes(type.slug)))
              problems.push(`${type.slug} ${where}: brand ${b} does not sell the type`);
          return;
        }
        if (key === 'tier' && where.endsWith('when')) {
          const tiers = c !== null && typeof c === 'object' ? [...(c.values ?? []), ...(c.not ?? [])] : [c];
          for (const t of tiers)
            if (!['budget', 'mid-range', 'premium', 'luxury'].includes(String(t)))
              problems.push(`${type.slug} ${where}: no quality tier ${t}`);
          return;
        }
        if (key === 'series' && where.endsWith('when')) {
          const names = c !== null && typeof c === 'object' ? [...(c.values ?? []), ...(c.not ?? [])] : [c];
          for (const n of names)
            if (
              !content.brands.some((b) =>
                b.lines?.some((l) => l.name === n && l.product_types.includes(type.slug)),
              )
            )
              problems.push(`${type.slug} ${where}: no brand has a ${n} line of the type`);
          return;
        }
        const s = spec(key);
        if (!s) return problems.push(`${type.slug} ${where}: no spec ${key}`);
        if (c === null) return;
        const values = typeof c === 'object' ? [...(c.values ?? []), ...(c.not ?? [])] : [c];
        if (s.type === 'enum' || s.type === 'list')
          for (const v of values)
            if (!s.values?.includes(String(v)))
              problems.push(`${type.slug} ${where}: ${key} has no value ${v}`);
        if (s.type === 'boolean')
          for (const v of values)
            if (typeof v !== 'boolean') problems.push(`${type.slug} ${where}: ${key} is boolean`);
        if (s.type === 'number' && s.range && !narrow(s.range, c))
          problems.push(`${type.slug} ${where}: ${key} ${JSON.stringify(c)} is outside its range`);
      };
      for (const [i, rule] of (entry.rules ?? []).entries()) {
        // a variant (a kit, a width) varies inside one product group: rules may narrow it; a rule
        // on it can only leave specs out of that variant (a bare tool has no battery)
        if (
          Object.keys(rule.when).some((k) => type.variant_dimensions.includes(k)) &&
          Object.values(rule.then).some((c) => c !== null)
        )
          problems.push(`${type.slug} rule ${i}: a rule on a variant may only leave specs out`);
        for (const [k, c] of Object.entries(rule.when)) check(`rule ${i} when`, k, c);
        for (const [k, c] of Object.entries(rule.then)) check(`rule ${i} then`, k, c);
      }
      for (const rel of entry.relations ?? []) {
        if (rel.sum_of) {
          for (const part of [rel.spec, ...rel.sum_of])
            if (spec(part)?.type !== 'number')
              problems.push(`${type.slug}: sum ${rel.spec} names non-numeric ${part}`);
          if (rel.increases_with || rel.decreases_with || rel.at_most || rel.at_least)
            problems.push(`${type.slug}: sum ${rel.spec} also names another relation`);
          continue;
        }
        const named = [rel.increases_with, rel.decreases_with, rel.at_most, rel.at_least].filter(Boolean);
        if (named.length !== 1)
          problems.push(`${type.slug}: relation of ${rel.spec} names ${named.length} specs`);
        if (spec(rel.spec)?.type !== 'number')
          problems.push(`${type.slug}: relation on non-numeric ${rel.spec}`);
        const other = named[0];
        if (other !== 'quality' && spec(other ?? '')?.type !== 'number')
          problems.push(`${type.slug}: ${rel.spec} relates to non-numeric ${other}`);
        if (other === 'quality' && !(rel.increases_with || rel.decreases_with))
          problems.push(`${type.slug}: ${rel.spec} bounded by quality`);
      }
      for (const key of Object.keys(entry.price?.increases_with ?? {}))
        if (spec(key)?.type !== 'number') problems.push(`${type.slug} price: ${key} is not numeric`);
      for (const [key, table] of Object.entries(entry.price?.factors ?? {})) {
        if (key === 'series') {
          // a line's own price step (Weber Spirit, Genesis, Summit): lines some brand has for the type
          for (const n of Object.keys(table))
            if (
              !content.brands.some((b) =>
                b.lines?.some((l) => l.name === n && l.product_types.includes(type.slug)),
              )
            )
              problems.push(`${type.slug} price: no brand has a ${n} line of the type`);
          continue;
        }
        const s = spec(key);
        if (!s) problems.push(`${type.slug} price: no spec ${key}`);
        for (const v of Object.keys(table))
          if (s?.type === 'boolean' ? v !== 'true' && v !== 'false' : !s?.values?.includes(v))
            problems.push(`${type.slug} price: ${key} has no value ${v}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('spec rules coverage', () => {
  it('every product type has rules, or says why it needs none', () => {
    const entryOf = new Map(content.specRules.map((e) => [e.product_type, e]));
    const missing = content.productTypes.filter((t) => !entryOf.has(t.slug)).map((t) => t.slug);
    expect(missing).toEqual([]);
    const unclear: string[] = [];
    for (const type of content.productTypes) {
      const e = entryOf.get(type.slug)!;
      const has = (e.rules?.length ?? 0) + (e.relations?.length ?? 0) > 0;
      if (has === Boolean(e.no_rules))
        unclear.push(`${type.slug}: ${has ? 'rules and a no_rules reason' : 'neither'}`);
    }
    expect(unclear).toEqual([]);
  });
});

describe('planProducts on the real taxonomy', () => {
  const products = planProducts(content, new Random(42), 30_000);
  const rulesOf = new Map(content.specRules.map((r) => [r.product_type, r]));

  it('covers every product type, each from brands that really sell it', () => {
    expect(new Set(products.map((p) => p.type.slug)).size).toBe(content.productTypes.length);
    for (const p of products)
      expect(p.brand.product_types, `${p.brand.slug} ${p.type.slug}`).toContain(p.type.slug);
  });

  it('draws every numeric spec and numeric variant inside its real-world range', () => {
    const outside: string[] = [];
    for (const p of products) {
      const values = { ...p.specs, ...p.variant };
      for (const s of p.type.specs) {
        const raw = values[s.key];
        if (s.type !== 'number' || raw === undefined) continue;
        const v = Number(raw);
        const r = s.range!;
        if (!(v >= r.min && v <= r.max) || (r.values && !r.values.includes(v)))
          outside.push(`${p.type.slug}.${s.key}=${v} [${r.min}, ${r.max}]`);
      }
    }
    expect(outside.slice(0, 20)).toEqual([]);
  });

  it('keeps every rule of the type, variants included: when its condition holds, its constraint holds', () => {
    const numeric = new Set(
      content.productTypes.flatMap((t) =>
        t.specs.filter((s) => s.type === 'number').map((s) => `${t.slug}.${s.key}`),
      ),
    );
    const broken: string[] = [];
    for (const p of products)
      for (const rule of rulesOf.get(p.type.slug)?.rules ?? [])
        if (
          matches(
            {
              ...p.specs,
              ...p.variant,
              brand: p.brand.slug,
              series: p.series,
              tier: String(p.brand.profile?.quality_tier ?? 'mid-range'),
            },
            rule.when,
          )
        )
          for (const [k, c] of Object.entries(rule.then)) {
            // a variant dimension (kit, color, length) is a spec of the listing too
            const raw = p.variant[k] ?? p.specs[k];
            const value = typeof raw === 'string' && numeric.has(`${p.type.slug}.${k}`) ? Number(raw) : raw;
            if (!satisfies(value, c)) broken.push(`${p.key} ${JSON.stringify(rule.when)} → ${k}=${value}`);
          }
    expect(broken.slice(0, 20)).toEqual([]);
  });

  it('keeps every bound between two specs (HDMI 2.1 ports ≤ HDMI ports, surge ≥ running watts)', () => {
    const broken: string[] = [];
    for (const p of products)
      for (const rel of rulesOf.get(p.type.slug)?.relations ?? []) {
        const [v, other] = [p.specs[rel.spec], p.specs[rel.at_most ?? rel.at_least ?? '']];
        if (typeof v !== 'number' || typeof other !== 'number') continue;
        if (rel.at_most ? v > other : v < other)
          broken.push(
            `${p.key} ${rel.spec}=${v} ${rel.at_most ? '>' : '<'} ${rel.at_most ?? rel.at_least}=${other}`,
          );
      }
    expect(broken.slice(0, 20)).toEqual([]);
  });

  it('follows the monotone relations between numeric specs', () => {
    const weak: string[] = [];
    for (const entry of content.specRules)
      for (const rel of entry.relations ?? []) {
        const driver = rel.increases_with ?? rel.decreases_with;
        if (!driver || driver === 'quality') continue;
        const pairs = products
          .filter((p) => p.type.slug === entry.product_type)
          .map((p) => [p.specs[driver], p.specs[rel.spec]])
          .filter((x): x is [number, number] => typeof x[0] === 'number' && typeof x[1] === 'number');
        if (pairs.length < 30) continue;
        const rho = spearman(
          pairs.map((x) => x[0]),
          pairs.map((x) => x[1]),
        );
        if ((rel.increases_with ? rho : -rho) < 0.3)
          weak.push(`${entry.product_type}: ${rel.spec} ~ ${driver} ρ=${rho.toFixed(2)}`);
      }
    expect(weak).toEqual([]);
  });

  it('prices follow the specs the price rules name, other price factors held equal', () => {
    const weak: string[] = [];
    for (const entry of content.specRules)
      for (const [key, elasticity] of Object.entries(entry.price?.increases_with ?? {})) {
        if (Math.abs(elasticity) < 0.5) continue;
        const followsQuality = (entry.relations ?? []).some(
          (r) => r.spec === key && (r.increases_with ?? r.decreases_with) === 'quality',
        );
        // compare products that share brand tier and every value-priced spec
        const strata = new Map<string, [number, number][]>();
        for (const p of products) {
          if (p.type.slug !== entry.product_type) continue;
          // a variant's numeric dimension (a 2-pack) is priced like a spec
          const specs: Record<string, unknown> = { ...p.specs };
          for (const [k, x] of Object.entries(p.variant))
            specs[k] = Number.isFinite(Number(x)) ? Number(x) : x;
          const v = specs[key];
          if (typeof v !== 'number') continue;
          const k = JSON.stringify([
            p.brand.profile?.quality_tier,
            ...Object.keys(entry.price?.factors ?? {}).map((f) => specs[f]),
          ]);
          // the other priced specs' and the line's own effect taken out, so only this spec's effect is left
          let others = 0;
          for (const [j, e] of Object.entries(entry.price?.increases_with ?? {})) {
            const x = specs[j];
            const typical = p.type.specs.find((s) => s.key === j)?.range?.typical;
            if (j !== key && typeof x === 'number' && x > 0 && typical) others += e * Math.log(x / typical);
          }
          // a spec that follows the line's quality carries the line's effect; leave that in
          const line = followsQuality ? 0 : 0.9 * (p.quality - 0.5);
          const range = p.type.price_range ?? { low: 40, typical: 200, high: 800 };
          const raw = unsqueeze(p.listPrice, range.low, range.typical, range.high);
          strata.set(k, [...(strata.get(k) ?? []), [v, Math.log(raw) - others - line]]);
        }
        let sum = 0;
        let n = 0;
        for (const pairs of strata.values()) {
          if (pairs.length < 8 || new Set(pairs.map((x) => x[0])).size < 2) continue;
          sum +=
            pairs.length *
            spearman(
              pairs.map((x) => x[0]),
              pairs.map((x) => x[1]),
            );
          n += pairs.length;
        }
        if (n >= 30 && (Math.sign(elasticity) * sum) / n < 0.2)
          weak.push(`${entry.product_type}: price ~ ${key} ρ=${(sum / n).toFixed(2)} over ${n}`);
      }
    expect(weak).toEqual([]);
  });

  it('prices a 65 in OLED TV above a 43 in LED-LCD TV of the same brand tier', () => {
    const tvType = content.productTypes.filter((t) => t.slug === 'tv');
    const tvs = planProducts({ ...content, productTypes: tvType }, new Random(7), 3000);
    let compared = 0;
    for (const tier of ['budget', 'mid-range', 'premium', 'luxury']) {
      const of = tvs.filter((p) => p.brand.profile?.quality_tier === tier);
      const oled = of.filter(
        (p) => p.specs.screen_size === 65 && String(p.specs.panel_type).includes('OLED'),
      );
      const led = of.filter((p) => p.specs.screen_size === 43 && p.specs.panel_type === 'LED-LCD');
      if (!oled.length || !led.length) continue;
      compared++;
      expect(Math.min(...oled.map((p) => p.listPrice)), tier).toBeGreaterThan(
        Math.max(...led.map((p) => p.listPrice)),
      );
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('puts a series only on its own brand, in a line the brand has for the type', () => {
    for (const p of products) {
      if (!p.series) continue;
      const lines = (p.brand.lines ?? [])
        .filter((l) => l.product_types.includes(p.type.slug))
        .map((l) => l.name);
      expect(lines, `${p.key} ${p.series}`).toContain(p.series);
    }
    expect(products.some((p) => p.series === '800 Series' && p.brand.slug === 'bosch')).toBe(true);
    expect(
      products.some(
        (p) => p.series.endsWith('Series') && p.brand.slug === 'fisher-paykel' && /\d00/.test(p.series),
      ),
    ).toBe(false);
  });

  it("gives cordless tools their brand's battery platform and its voltage", () => {
    const tools = products.filter((p) =>
      (p.brand.battery_platforms ?? []).some((b) => b.product_types.includes(p.type.slug)),
    );
    expect(tools.length).toBeGreaterThan(50);
    for (const p of tools) {
      const platform = p.brand.battery_platforms!.find((b) => b.name === p.platform);
      expect(platform?.product_types, p.key).toContain(p.type.slug);
      if (p.type.specs.some((s) => s.key === 'battery_voltage'))
        expect(p.specs.battery_voltage, p.key).toBe(platform!.voltage);
      if (p.type.specs.some((s) => s.key === 'battery_platform'))
        expect(p.specs.battery_platform, p.key).toBe(p.platform);
      // regression: "Milwaukee M18 20" Corded Electric Hedge Trimmer"
      if (p.specs.power_source !== undefined)
        expect(String(p.specs.power_source), p.key).toMatch(/cordless|battery/i);
    }
  });

  it('regression: a model number encodes the specs its scheme decodes (Samsung QN65… is a 65 in TV)', () => {
    let checked = 0;
    const off: string[] = [];
    for (const p of products) {
      const pattern = p.type.model_patterns?.find((m) => m.brand === p.brand.slug && m.example && m.decodes);
      if (!pattern) continue;
      const groups = new RegExp(pattern.regex.replace(/^\(\?i\)/, ''), 'i').exec(p.model);
      if (!groups) continue;
      const values: Record<string, unknown> = { ...p.specs, ...p.variant };
      for (const [g, d] of Object.entries(
        pattern.decodes as Record<string, { spec: string; map: Record<string, unknown> }>,
      )) {
        const value = values[d.spec];
        // only values the scheme has a code for can be written
        if (
          value === undefined ||
          !Object.values(d.map).some((v) => String(v).toLowerCase() === String(value).toLowerCase())
        )
          continue;
        checked++;
        const code = groups[Number(g)];
        if (code === undefined || String(d.map[code]).toLowerCase() !== String(value).toLowerCase())
          off.push(`${p.model}: ${d.spec}=${String(value)}, code ${code}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(off.slice(0, 10)).toEqual([]);
  });

  it('regression: budget brands sit low and luxury brands high in a type (Wyze robot vacuums at $980)', () => {
    const byType = new Map<string, { tier: string; price: number }[]>();
    for (const p of products) {
      const list = byType.get(p.type.slug) ?? [];
      list.push({ tier: String(p.brand.profile?.quality_tier), price: p.listPrice });
      byType.set(p.type.slug, list);
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
    let compared = 0;
    let inverted = 0;
    for (const list of byType.values()) {
      const budget = list.filter((x) => x.tier === 'budget').map((x) => x.price);
      const top = list.filter((x) => x.tier === 'premium' || x.tier === 'luxury').map((x) => x.price);
      if (budget.length < 5 || top.length < 5) continue;
      compared++;
      if (median(budget) >= median(top)) inverted++;
    }
    expect(compared).toBeGreaterThan(20);
    expect(inverted).toBe(0);
  });

  it('regression: refrigerator fresh food and freezer add up to the total capacity', () => {
    const fridges = products.filter((p) => p.type.slug === 'refrigerator');
    expect(fridges.length).toBeGreaterThan(20);
    for (const p of fridges) {
      const parts = Number(p.specs.fresh_food_capacity) + Number(p.specs.freezer_capacity ?? 0);
      expect(Number(parts.toFixed(1)), p.key).toBe(p.specs.total_capacity);
    }
  });

  it("writes model numbers in the brand's scheme where the taxonomy has one", () => {
    let checked = 0;
    const off: string[] = [];
    for (const p of products) {
      const pattern = p.type.model_patterns?.find((m) => m.brand === p.brand.slug && m.example);
      if (!pattern) continue;
      checked++;
      if (!new RegExp(pattern.regex.replace(/^\(\?i\)/, ''), 'i').test(p.model))
        off.push(`${p.type.slug} ${p.model}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(off.length / checked, off.slice(0, 10).join(', ')).toBeLessThan(0.05);
  });
});
