import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalUnit, convert, KNOWN_UNITS, parseQuantity, sameDimension } from './units.js';

describe('parseQuantity', () => {
  it.each([
    ['24 in.', 24, 'in'],
    ['23 7/8"', 23.875, 'in'],
    ['23-7/8 in', 23.875, 'in'],
    ['60.9 cm', 60.9, 'cm'],
    ['5.0 cu. ft.', 5, 'cu ft'],
    ['4.5 Cubic Feet', 4.5, 'cu ft'],
    ['1,500 Watts', 1500, 'W'],
    ['4,5 kg', 4.5, 'kg'],
    ['42 dB(A)', 42, 'dBA'],
    ['3/4 HP', 0.75, 'hp'],
    ['12,000 BTU/hr', 12000, 'BTU/h'],
    ['38 °F', 38, '°F'],
    ['16', 16, null],
    ['about 65 lbs.', 65, 'lb'],
  ])('reads %j', (text, value, unit) => {
    expect(parseQuantity(text)).toMatchObject({ value, unit });
  });

  it.each([
    ['60.9 cm', 0.1],
    ['61 cm', 1],
    ['109.25 cm', 0.01],
    ['1,500 Watts', 1],
    ['4,5 kg', 0.1],
    ['23 7/8"', 1 / 8],
    ['3/4 HP', 1 / 4],
  ])('reads the precision %j is written to', (text, resolution) => {
    expect(parseQuantity(text)?.resolution).toBe(resolution);
  });

  it('finds nothing in text without a number', () => {
    expect(parseQuantity('stainless')).toBeNull();
  });

  it('reads back any amount written with any known unit', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 100000, noNaN: true }),
        fc.constantFrom(...KNOWN_UNITS),
        (n, unit) => {
          const value = Math.round(n * 100) / 100;
          const q = parseQuantity(`${value} ${unit}`);
          expect(q?.value).toBeCloseTo(value, 6);
          expect(q?.unit).toBe(unit);
        },
      ),
    );
  });
});

describe('convert', () => {
  it.each([
    [60.96, 'cm', 'in', 24],
    [100, 'kg', 'lb', 220.462],
    [100, 'L', 'cu ft', 3.5315],
    [1, 'gal', 'L', 3.7854],
    [1.5, 'kW', 'W', 1500],
    [100, '°C', '°F', 212],
    [32, '°F', '°C', 0],
    [2, 'TB', 'GB', 2000],
  ])('%d %s is %d %s', (value, from, to, expected) => {
    expect(convert(value, from, to)).toBeCloseTo(expected, 3);
  });

  it('refuses to convert across dimensions', () => {
    expect(convert(5, 'lb', 'in')).toBeNull();
    expect(convert(5, 'oz', 'gal')).toBeNull();
  });

  it('round-trips between any two units of one dimension', () => {
    const pairs = KNOWN_UNITS.flatMap((a) =>
      KNOWN_UNITS.filter((b) => sameDimension(a, b)).map((b) => [a, b]),
    );
    fc.assert(
      fc.property(
        fc.double({ min: -1000, max: 100000, noNaN: true }),
        fc.constantFrom(...pairs),
        (v, [a, b]) => {
          const there = convert(v, a!, b!);
          expect(there).not.toBeNull();
          expect(convert(there!, b!, a!)).toBeCloseTo(v, 6);
        },
      ),
    );
  });
});

describe('canonicalUnit', () => {
  it.each([
    ['Inches', 'in'],
    ['"', 'in'],
    ['lbs.', 'lb'],
    ['cu.ft.', 'cu ft'],
    ['degrees F', '°F'],
    ['dBA', 'dBA'],
  ])('%j → %j', (text, unit) => {
    expect(canonicalUnit(text)).toBe(unit);
  });
});
