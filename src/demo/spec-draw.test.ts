import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProductTypeDef, SpecRange, SpecRulesDef } from '../content/index.js';
import { Random } from './random.js';
import {
  drawSpecs,
  listPrice,
  MissingRangeError,
  narrow,
  quantile,
  squeeze,
  stepOf,
  unsqueeze,
} from './spec-draw.js';

const rangeArb = fc
  .record({
    a: fc.integer({ min: -1000, max: 1000 }),
    span: fc.integer({ min: 0, max: 2000 }),
    t: fc.double({ min: 0, max: 1, noNaN: true }),
    step: fc.constantFrom(undefined, 0.1, 0.25, 0.5, 1, 5),
  })
  .map(({ a, span, t, step }): SpecRange => {
    const typical = Math.round(a + t * span);
    return { min: a, max: a + span, typical, ...(step ? { step } : {}) };
  });

describe('quantile', () => {
  it('stays inside [min, max] and on the step for every range and position', () => {
    fc.assert(
      fc.property(rangeArb, fc.double({ min: -0.5, max: 1.5, noNaN: true }), (r, u) => {
        const v = quantile(r, u);
        expect(v).toBeGreaterThanOrEqual(r.min);
        expect(v).toBeLessThanOrEqual(r.max);
        const step = stepOf(r);
        const k = (v - r.min) / step;
        if (v !== r.max && Number.isInteger(r.min / step))
          expect(Math.abs(k - Math.round(k))).toBeLessThan(1e-6);
      }),
    );
  });

  it('is monotone in the position, so related specs can share one', () => {
    fc.assert(
      fc.property(
        rangeArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (r, u, w) => {
          const [lo, hi] = u < w ? [u, w] : [w, u];
          expect(quantile(r, lo)).toBeLessThanOrEqual(quantile(r, hi));
        },
      ),
    );
  });

  it('draws only the discrete values sold, in proportion to their weights', () => {
    const tv: SpecRange = {
      min: 32,
      max: 85,
      typical: 55,
      values: [32, 43, 50, 55, 65, 75, 85],
      weights: [1, 2, 2, 4, 4, 2, 1],
    };
    const rnd = new Random(1);
    const counts = new Map<number, number>();
    for (let i = 0; i < 16_000; i++) {
      const v = quantile(tv, rnd.next());
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(tv.values);
    expect(counts.get(55)! / counts.get(32)!).toBeGreaterThan(3);
    expect(counts.get(55)! / counts.get(32)!).toBeLessThan(5);
  });

  it('concentrates continuous values around the typical value', () => {
    const r: SpecRange = { min: 38, max: 55, typical: 44, step: 1 };
    const rnd = new Random(2);
    const values = Array.from({ length: 5000 }, () => quantile(r, rnd.next()));
    const near = values.filter((v) => Math.abs(v - 44) <= 4).length / values.length;
    expect(near).toBeGreaterThan(0.45);
  });
});

describe('narrow', () => {
  it('keeps the discrete values and weights inside a rule, and says when nothing is left', () => {
    const widths: SpecRange = { min: 18, max: 24, typical: 24, values: [18, 24], weights: [2, 10] };
    expect(narrow(widths, { max: 20 })).toMatchObject({
      min: 18,
      max: 20,
      typical: 20,
      values: [18],
      weights: [2],
    });
    expect(narrow(widths, { min: 30 })).toBeNull();
    expect(narrow(widths, 24)).toMatchObject({ values: [24] });
  });
});

const dishwasher: ProductTypeDef = {
  slug: 'dishwasher',
  name: 'Dishwasher',
  subcategory: 'kitchen-appliances',
  google_product_category: { id: 609, path: 'x' },
  identity_dimensions: [],
  variant_dimensions: [],
  price_range: { low: 400, typical: 900, high: 2200 },
  specs: [
    {
      key: 'installation_type',
      label: 'Installation',
      type: 'enum',
      values: ['built-in', 'drawer', 'countertop'],
    },
    {
      key: 'width',
      label: 'Width',
      type: 'number',
      unit: 'in',
      range: { min: 18, max: 24, typical: 24, values: [18, 24] },
    },
    {
      key: 'place_settings',
      label: 'Place settings',
      type: 'number',
      range: { min: 6, max: 16, typical: 14, values: [6, 8, 10, 12, 14, 16] },
    },
    {
      key: 'noise_level',
      label: 'Noise',
      type: 'number',
      unit: 'dBA',
      range: { min: 38, max: 55, typical: 44 },
    },
    {
      key: 'max_burner_btu',
      label: 'BTU',
      type: 'number',
      unit: 'BTU/h',
      range: { min: 1, max: 2, typical: 1 },
    },
  ],
};
// the rules as they come from data/taxonomy/spec-rules.json (JSON keeps the rule language's `then`)
const rules = JSON.parse(`{
  "product_type": "dishwasher",
  "rules": [
    { "when": { "installation_type": "countertop" }, "then": { "width": { "max": 18 }, "place_settings": { "max": 6 } } },
    { "when": { "width": 18 }, "then": { "place_settings": { "max": 10 } } },
    { "when": { "installation_type": "drawer" }, "then": { "max_burner_btu": null } }
  ],
  "relations": [{ "spec": "noise_level", "decreases_with": "quality" }],
  "price": { "increases_with": { "place_settings": 0.5 }, "factors": { "installation_type": { "countertop": 0.5 } } }
}`) as SpecRulesDef;

describe('drawSpecs', () => {
  it('draws enum values as often as their weights say the market sells them, and booleans by their share', () => {
    const type: ProductTypeDef = {
      ...dishwasher,
      specs: [
        {
          key: 'kind',
          label: 'Kind',
          type: 'enum',
          values: ['built-in', 'portable', 'drawer'],
          weights: [90, 7, 3],
        },
        { key: 'wifi', label: 'Wi-Fi', type: 'boolean', share: 0.9 },
        { key: 'plain', label: 'Plain', type: 'enum', values: ['a', 'b'] },
      ],
    };
    const rnd = new Random(11);
    const n = 4000;
    const kinds = new Map<string, number>();
    let wifi = 0;
    let a = 0;
    for (let i = 0; i < n; i++) {
      const s = drawSpecs(type, undefined, rnd, 0.5);
      kinds.set(String(s.kind), (kinds.get(String(s.kind)) ?? 0) + 1);
      if (s.wifi === true) wifi++;
      if (s.plain === 'a') a++;
    }
    expect((kinds.get('built-in') ?? 0) / n).toBeGreaterThan(0.86);
    expect((kinds.get('drawer') ?? 0) / n).toBeLessThan(0.06);
    expect(wifi / n).toBeGreaterThan(0.86);
    expect(Math.abs(a / n - 0.5)).toBeLessThan(0.04);
  });

  it('tilts value draws by quality towards what the price rules make dearer', () => {
    const type: ProductTypeDef = {
      ...dishwasher,
      specs: [{ key: 'mop', label: 'Mop', type: 'enum', values: ['none', 'self-washing'], weights: [1, 1] }],
    };
    const priced = { product_type: 'x', price: { factors: { mop: { 'self-washing': 2 } } } } as SpecRulesDef;
    const share = (quality: number) => {
      const rnd = new Random(5);
      let n = 0;
      for (let i = 0; i < 3000; i++) if (drawSpecs(type, priced, rnd, quality).mop === 'self-washing') n++;
      return n / 3000;
    };
    expect(share(0.05)).toBeLessThan(0.3);
    expect(share(0.95)).toBeGreaterThan(0.7);
  });

  it('regression: a total is the sum of its parts (refrigerator fresh food + freezer = total capacity)', () => {
    const cuFt = (key: string, min: number, max: number, typical: number) =>
      ({ key, label: key, type: 'number', unit: 'cu ft', range: { min, max, typical, step: 0.1 } }) as const;
    const fridge: ProductTypeDef = {
      ...dishwasher,
      specs: [cuFt('total', 10, 30, 22), cuFt('fresh', 5, 22, 15), cuFt('freezer', 2, 10, 7)],
    };
    const sum = {
      product_type: 'x',
      relations: [
        { spec: 'fresh', increases_with: 'total' },
        { spec: 'freezer', increases_with: 'total' },
        { spec: 'total', sum_of: ['fresh', 'freezer'] },
      ],
    } as SpecRulesDef;
    const rnd = new Random(9);
    for (let i = 0; i < 500; i++) {
      const s = drawSpecs(fridge, sum, rnd, rnd.next());
      expect(Number(((s.fresh as number) + (s.freezer as number)).toFixed(1))).toBe(s.total);
      expect(s.fresh as number).toBeGreaterThanOrEqual(5);
    }
  });

  it('fails on a numeric spec without a range instead of inventing one', () => {
    const bare: ProductTypeDef = {
      ...dishwasher,
      specs: [{ key: 'width', label: 'Width', type: 'number', unit: 'in' }],
    };
    expect(() => drawSpecs(bare, undefined, new Random(1), 0.5)).toThrow(MissingRangeError);
  });

  it('applies every rule whose condition holds: numbers narrowed, specs that do not apply left out', () => {
    const rnd = new Random(3);
    let countertops = 0;
    for (let i = 0; i < 2000; i++) {
      const s = drawSpecs(dishwasher, rules, rnd, rnd.next());
      if (s.installation_type === 'countertop') {
        countertops++;
        expect(s.width).toBe(18);
        expect(s.place_settings).toBe(6);
      }
      if (s.width === 18) expect(s.place_settings as number).toBeLessThanOrEqual(10);
      if (s.installation_type === 'drawer') expect(s).not.toHaveProperty('max_burner_btu');
      else expect(s).toHaveProperty('max_burner_btu');
    }
    expect(countertops).toBeGreaterThan(400);
  });

  it('follows a monotone relation: better products are quieter', () => {
    const rnd = new Random(4);
    const mean = (q: number) => {
      let sum = 0;
      for (let i = 0; i < 500; i++) sum += drawSpecs(dishwasher, rules, rnd, q).noise_level as number;
      return sum / 500;
    };
    expect(mean(0.9)).toBeLessThan(mean(0.1) - 4);
  });

  it('keeps fixed values (a battery platform voltage) as given', () => {
    const s = drawSpecs(dishwasher, rules, new Random(5), 0.5, { width: 24 }, { brand: 'bosch' });
    expect(s.width).toBe(24);
  });
});

describe('listPrice', () => {
  it('rises with a priced spec and its factors, and stays inside the type price range', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(6, 8, 10, 12, 14),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (settings, brand, quality) => {
          const at = (n: number, kind: string) =>
            listPrice(dishwasher, rules, { place_settings: n, installation_type: kind }, brand, quality, 1);
          expect(at(settings + 2, 'built-in')).toBeGreaterThan(at(settings, 'built-in'));
          expect(at(settings, 'countertop')).toBeLessThan(at(settings, 'built-in'));
          expect(at(settings, 'built-in')).toBeGreaterThanOrEqual(400);
          expect(at(settings, 'built-in')).toBeLessThanOrEqual(2200);
        },
      ),
    );
  });

  it('squeezes monotonically into (low, high)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        (a, b) => {
          const [x, y] = [squeeze(a, 100, 700, 8000), squeeze(b, 100, 700, 8000)];
          expect(x).toBeGreaterThanOrEqual(100);
          expect(x).toBeLessThanOrEqual(8000);
          if (a < b) expect(x).toBeLessThanOrEqual(y);
          if (a > 120 && a < 6000) expect(unsqueeze(x, 100, 700, 8000) / a).toBeCloseTo(1, 3);
        },
      ),
    );
  });
});
