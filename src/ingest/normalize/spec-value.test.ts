import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_DIR, loadContent, type SpecDef } from '../../content/index.js';
import { matchControlled, normalizeSpecValue } from './spec-value.js';
import { convert, KNOWN_UNITS, sameDimension } from './units.js';

const width: SpecDef = { key: 'width', label: 'Width', type: 'number', unit: 'in' };
const weight: SpecDef = { key: 'weight', label: 'Weight', type: 'number', unit: 'lb' };
const capacity: SpecDef = { key: 'capacity', label: 'Capacity', type: 'number', unit: 'cu ft' };
const noise: SpecDef = { key: 'noise_level', label: 'Noise level', type: 'number', unit: 'dBA' };
const rack: SpecDef = { key: 'third_rack', label: 'Third rack', type: 'boolean' };
const tub: SpecDef = {
  key: 'tub_material',
  label: 'Tub material',
  type: 'enum',
  values: ['stainless steel', 'plastic', 'hybrid'],
};
const connectivity: SpecDef = {
  key: 'connectivity',
  label: 'Connectivity',
  type: 'list',
  values: ['wifi', 'bluetooth', 'ethernet'],
};

describe('normalizeSpecValue', () => {
  it.each([
    [width, '60.96 cm', '24 in', 24],
    [width, '23 7/8"', '23.88 in', 23.88],
    [weight, '45 kg', '99.21 lb', 99.21],
    [capacity, '113 L', '3.99 cu ft', 3.99],
    [noise, '44 dB', '44 dBA', 44],
    [noise, '44', '44 dBA', 44],
  ])('%o %j → %j', (def, raw, value, numeric) => {
    expect(normalizeSpecValue(def, raw)).toEqual({ value, numeric, unit: def.unit, valid: true });
  });

  it('keeps a value whose unit does not convert, marked invalid', () => {
    expect(normalizeSpecValue(width, '12 lb')).toEqual({
      value: '12 lb',
      numeric: null,
      unit: null,
      valid: false,
    });
  });

  it.each([
    ['Yes', true],
    ['TRUE', true],
    ['included', true],
    ['No', false],
    ['false', false],
  ])('boolean %j → %j', (raw, value) => {
    expect(normalizeSpecValue(rack, raw).value).toBe(value);
  });

  it('maps enum and list values to the controlled values', () => {
    expect(normalizeSpecValue(tub, 'Stainless Steel Tub').value).toBe('stainless steel');
    expect(normalizeSpecValue(tub, 'PLASTIC').value).toBe('plastic');
    expect(normalizeSpecValue(tub, 'granite')).toMatchObject({ value: 'granite', valid: false });
    expect(normalizeSpecValue(connectivity, 'Wi-Fi, Bluetooth').value).toEqual(['wifi', 'bluetooth']);
  });

  it('never throws and is valid only with a value in the unit of the spec', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const r = normalizeSpecValue(width, raw);
        if (r.valid) expect(r.value).toMatch(/ in$/);
      }),
    );
  });
});

describe('matchControlled', () => {
  it('prefers the longest controlled value found', () => {
    expect(
      matchControlled('Black Stainless Steel', ['stainless steel', 'black stainless steel', 'black']),
    ).toBe('black stainless steel');
  });
});

describe('a value converted from a metric feed', () => {
  const types = loadContent(DEFAULT_CONTENT_DIR).productTypes;
  const tvSize = types.find((t) => t.slug === 'tv')!.specs.find((s) => s.key === 'screen_size')!;

  it.each([
    ['109.2 cm', '43 in'],
    ['109 cm', '43 in'],
    ['1092 mm', '43 in'],
    ['165.1 cm', '65 in'],
  ])("shows a metric retailer's %s TV as the size it is sold as (%s), not 42.99 in", (raw, shown) => {
    expect(normalizeSpecValue(tvSize, raw)).toMatchObject({ value: shown, valid: true });
  });

  it('rounds to the precision the spec is quoted in: 15.9 kg is 35.1 lb (step 0.1), not 35.05 lb', () => {
    const weight = types.find((t) => t.slug === 'tv')!.specs.find((s) => s.key === 'weight')!;
    expect(weight.range?.step).toBe(0.1);
    expect(normalizeSpecValue(weight, '15.9 kg')).toMatchObject({ value: '35.1 lb', numeric: 35.1 });
  });

  // every numeric spec of the taxonomy with a unit that another known unit converts to
  const cases = types.flatMap((t) =>
    t.specs.flatMap((def) => {
      const range = def.range;
      if (def.type !== 'number' || !def.unit || !range || !KNOWN_UNITS.includes(def.unit)) return [];
      const stated = range.values ?? [];
      if (!range.values && range.step)
        for (let k = Math.round(range.min / range.step); k * range.step <= range.max + 1e-9; k++)
          stated.push(Number((k * range.step).toFixed(6)));
      const sorted = [...stated].sort((a, b) => a - b);
      // how far apart two stated values are at least: a retailer's rounding must stay under it
      const gap = range.step ?? Math.min(...sorted.slice(1).map((v, i) => v - sorted[i]!));
      return KNOWN_UNITS.filter((u) => u !== def.unit && sameDimension(u, def.unit!)).map((from) => ({
        def,
        from,
        stated,
        gap,
      }));
    }),
  );

  it('converts back to the value stated: any spec, any unit, any precision finer than the spec is quoted in', () => {
    expect(cases.length).toBeGreaterThan(100);
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.nat(),
        fc.integer({ min: 0, max: 4 }),
        fc.boolean(),
        ({ def, from, stated, gap }, pick, decimals, trailingZeros) => {
          const value = stated[pick % stated.length]!;
          const unit = def.unit!;
          // the retailer converts and rounds to its own precision...
          const precision = 10 ** -decimals;
          const there = convert(value, unit, from)!;
          const width = Math.abs(convert(there + precision, from, unit)! - convert(there, from, unit)!);
          fc.pre(width < 0.9 * gap);
          const fixed = there.toFixed(decimals);
          // ...writing "109.0" or "109", as feeds do
          const raw = `${trailingZeros ? fixed : Number(fixed)} ${from}`;
          // ...and converting back gives the value stated
          expect(normalizeSpecValue(def, raw)).toMatchObject({ numeric: value, value: `${value} ${unit}` });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
