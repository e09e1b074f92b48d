import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SpecDef } from '../../content/index.js';
import { matchControlled, normalizeSpecValue } from './spec-value.js';

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
