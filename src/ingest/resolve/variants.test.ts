import { describe, expect, it } from 'vitest';
import type { ResolveRecord } from './types.js';
import { variantGroups } from './variants.js';

const rec = (title: string, extra: Partial<ResolveRecord> = {}): ResolveRecord => ({
  key: title,
  source: 'shop',
  title,
  ...extra,
});

describe('variantGroups', () => {
  it('groups products whose model numbers share a base model', () => {
    const records = [
      rec('Bose Acoustimass 5 Black - AM53BK'),
      rec('Bose Acoustimass 5 White - AM53WH'),
      rec('Other - XY100'),
    ];
    const groups = variantGroups(records, [
      { members: [0], modelNumber: 'AM53BK', brand: 'Bose' },
      { members: [1], modelNumber: 'AM53WH', brand: 'Bose' },
      { members: [2], modelNumber: 'XY100', brand: 'Acme' },
    ]);
    expect(groups).toEqual([
      {
        productIndexes: [0, 1],
        baseModel: 'AM53',
        variantDimensions: ['color'],
        seriesName: 'Bose Acoustimass 5',
      },
    ]);
  });

  it('groups a retailer item group and reports the differing attributes', () => {
    const records = [
      rec('Acme Tee Red S', { itemGroupId: 'tee', color: 'Red', size: 'S' }),
      rec('Acme Tee Red M', { itemGroupId: 'tee', color: 'Red', size: 'M' }),
      rec('Acme Tee Blue M', { itemGroupId: 'tee', color: 'Blue', size: 'M' }),
    ];
    const groups = variantGroups(
      records,
      records.map((_, i) => ({ members: [i], modelNumber: null, brand: null })),
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.variantDimensions).toEqual(['color', 'size']);
    expect(groups[0]!.seriesName).toBe('Acme Tee');
  });

  // regression: groups were named "5 in. Bookshelf Speakers in" and "14 in. Chromebook in"
  it('does not end a group name on the connective before the part its variants differ in', () => {
    const name = (...titles: string[]) =>
      variantGroups(
        titles.map((t) => rec(t, { itemGroupId: 'g' })),
        titles.map((_, i) => ({ members: [i], modelNumber: null, brand: null })),
      )[0]?.seriesName;
    expect(
      name('5 in. Bookshelf Speakers in Cherry - JBL X1', '5 in. Bookshelf Speakers in Black - JBL X2'),
    ).toBe('5 in. Bookshelf Speakers');
    expect(name('Stand Mixer with Bowl and Hook', 'Stand Mixer with Bowl and Whisk')).toBe(
      'Stand Mixer with Bowl',
    );
    expect(name('Air Fryer in - Red', 'Air Fryer in - Blue')).toBe('Air Fryer');
    // a connective inside the name stays
    expect(name('Salt and Pepper Mill Black', 'Salt and Pepper Mill White')).toBe('Salt and Pepper Mill');
  });

  it('does not join item groups of different retailers', () => {
    const records = [
      rec('A', { itemGroupId: 'g', source: 'x' }),
      rec('B', { itemGroupId: 'g', source: 'y' }),
    ];
    const groups = variantGroups(records, [
      { members: [0], modelNumber: null, brand: null },
      { members: [1], modelNumber: null, brand: null },
    ]);
    expect(groups).toEqual([]);
  });
});
