import { describe, expect, it } from 'vitest';
import type { Listing } from '../listing.js';
import { nameProduct, seriesFromTitle } from './assemble.js';

const listing = (title: string) => ({ title }) as Listing;
const parts = {
  brand: 'Bosch',
  modelNumber: 'SHPM88Z75N',
  typeName: 'Dishwasher',
  seriesName: '800 Series',
  headline: '42 dBA',
  color: 'stainless steel',
};

describe('nameProduct', () => {
  it('keeps the consensus title when retailers agree and it is clean', () => {
    const named = nameProduct(
      [
        listing('Bosch 800 Series SHPM88Z75N Dishwasher'),
        listing('Bosch 800 Series SHPM88Z75N Dishwasher, Stainless'),
      ],
      parts,
    );
    expect(named).toMatchObject({
      name: 'Bosch 800 Series SHPM88Z75N Dishwasher',
      method: 'consensus_title',
    });
  });

  it('builds the name from brand, series, model, headline spec and type when titles disagree or are messy', () => {
    const named = nameProduct(
      [
        listing('BOSCH SHPM88Z75N DISHWASHER 42 DBA'),
        listing('Bosch SHPM88Z75N'),
        listing('42 dBA Dishwasher'),
      ],
      parts,
    );
    expect(named).toEqual({
      name: 'Bosch 800 Series SHPM88Z75N 42 dBA Dishwasher, Stainless Steel',
      method: 'constructed_from_specs',
      confidence: 0.85,
    });
  });

  it('uses a single clean listing title as it is', () => {
    expect(nameProduct([listing('Bosch 800 Series SHPM88Z75N Dishwasher')], parts)).toMatchObject({
      method: 'single_listing',
    });
  });
});

describe('seriesFromTitle', () => {
  it.each([
    ['Bosch 800 Series SHPM88Z75N', '800 Series'],
    ['Samsung Bespoke Series fridge', 'Bespoke Series'],
    ['A new series of things', null],
    ['Plain title', null],
  ])('%j → %j', (title, series) => {
    expect(seriesFromTitle(title)).toBe(series);
  });
});

describe('nameProduct: a retailer title that names the type by a synonym is kept', () => {
  it('keeps "… OLED 4K TV …" for a Television', () => {
    const listing = { title: 'Sony Bravia 65 inch OLED 4K TV XR65A80L' } as Listing;
    const named = nameProduct([listing], {
      brand: 'Sony',
      modelNumber: 'XR65A80L',
      typeName: 'Television',
      typeWords: ['tv', 'television', 'oled tv'],
      seriesName: null,
      headline: '65 in',
      color: null,
    });
    expect(named).toMatchObject({
      name: 'Sony Bravia 65 inch OLED 4K TV XR65A80L',
      method: 'single_listing',
    });
  });
});
