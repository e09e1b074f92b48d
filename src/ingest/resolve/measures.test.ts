import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareMeasures, extractMeasures } from './measures.js';

const compare = (a: string, b: string) => compareMeasures(extractMeasures(a), extractMeasures(b));

describe('extractMeasures', () => {
  it('reads quantities with their unit, spelled several ways', () => {
    const m = extractMeasures('LG 4.0 Cu. Ft. Washer, 27" wide, 1200W, 14.7 Megapixel');
    expect(m?.get('cuft')).toEqual([4]);
    expect(m?.get('in')).toEqual([27]);
    expect(m?.get('w')).toEqual([1200]);
    expect(m?.get('mp')).toEqual([14.7]);
  });

  it('does not read "2 in 1" as inches or "w/" as watts', () => {
    expect(extractMeasures('Punch 5 in 1 Home Design')).toBeNull();
    expect(extractMeasures('Camera 2 w/ case')).toBeNull();
  });

  it('never throws and gives finite numbers on any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const m = extractMeasures(text);
        for (const values of m?.values() ?? []) for (const v of values) expect(Number.isFinite(v)).toBe(true);
      }),
    );
  });
});

describe('compareMeasures', () => {
  it('sees two capacities of one unit as a clash', () => {
    expect(compare('SanDisk 16GB microSD card', 'SanDisk 32GB microSD card')).toBe(2);
    expect(compare('Samsung 46" LCD TV', 'Samsung 52 inch LCD TV')).toBe(2);
  });

  it('compares terabytes with gigabytes, not megabytes', () => {
    expect(compare('WD 2TB external drive', 'WD 256GB external drive')).toBe(2);
    expect(compare('Seagate 1TB hard drive', 'Seagate 1000GB hard drive')).toBe(1);
    expect(compare('Seagate 1.5 TB drive 32MB cache', 'Seagate 1.5TB drive')).toBe(1);
  });

  it('lets rounded or truncated figures agree (14.7 / 14 megapixels, 24.7 / 25 cu. ft.)', () => {
    expect(compare('Canon 14.7 Megapixel camera', 'Canon 14 MP camera')).toBe(1);
    expect(compare('LG 24.7 Cu. Ft. refrigerator', 'LG 25 cu ft refrigerator')).toBe(1);
  });

  it('says nothing when the titles share no unit', () => {
    expect(compare('Drill 18V', 'Drill 10 in.')).toBe(0);
    expect(compare('Drill', 'Drill 18V')).toBe(0);
  });

  it('is symmetric', () => {
    const title = fc.constantFrom('16GB card', '32 GB card', '46" TV', '14.7 MP', '14 megapixels', 'plain');
    fc.assert(
      fc.property(title, title, (a, b) => {
        expect(compare(a, b)).toBe(compare(b, a));
      }),
    );
  });
});

describe('pack counts', () => {
  it('reads a count however the title writes it', () => {
    expect(extractMeasures('Duracell AA Batteries, 8-Pack')?.get('pack')).toEqual([8]);
    expect(extractMeasures('Duracell AA Batteries (Pack of 4)')?.get('pack')).toEqual([4]);
    expect(extractMeasures('Canon PG-40 Black Ink Cartridge Twin Pack')?.get('pack')).toEqual([2]);
    expect(extractMeasures('Glad Trash Bags, 40 Count')?.get('pack')).toEqual([40]);
  });

  it('tells a 2-pack from a 4-pack and agrees on one count written two ways', () => {
    expect(compare('Duracell AA Batteries 2 Pack', 'Duracell AA Alkaline Batteries, 4-Pack')).toBe(2);
    expect(compare('Canon Ink Cartridge Twin Pack', 'Canon Ink Cartridge, Pack of 2')).toBe(1);
  });

  it('marks a multipack beside a title that states no count', () => {
    expect(compare('Drill 18V', 'Drill 18V 2 pack')).toBe(3);
    expect(compare('Drill 18V', 'Drill 18V 1 pack')).toBe(1);
  });
});
