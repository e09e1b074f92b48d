import { describe, expect, it } from 'vitest';
import { BrandLexicon, normalizeBrand, titleBrandOpenings } from './brand.js';

describe('brand from a title', () => {
  const lexicon = new BrandLexicon();
  for (const b of ['GE', 'Kohler', 'Ninja', 'KitchenAid', 'Apple']) lexicon.add(normalizeBrand(b));

  it('regression: finds a brand named after the dash of a model-last title (79 products had brand null)', () => {
    expect(lexicon.infer('24" Dishwasher in Stainless - GE GDT225SSLSS')).toBe('ge');
    expect(lexicon.infer('Kitchen Faucet in Chrome - Kohler K-596-CP')).toBe('kohler');
    expect(lexicon.infer('5.5 qt Air Fryer | Ninja AF161')).toBe('ninja');
    expect(lexicon.infer('Stand Mixer by KitchenAid')).toBe('kitchenaid');
  });

  it('still reads the opening words first and ignores brands named later in a part', () => {
    expect(lexicon.infer('Ninja AF161 Air Fryer - Black')).toBe('ninja');
    expect(lexicon.infer('Leather case for Apple iPod')).toBe('');
  });

  it('splits a title at dashes, bars and "by" but not inside words or model numbers', () => {
    expect(titleBrandOpenings('Wi-Fi Router - Netgear RAX50')).toEqual([
      'Wi-Fi Router - Netgear RAX50',
      'Netgear RAX50',
    ]);
    expect(titleBrandOpenings('Kohler K-596-CP')).toEqual(['Kohler K-596-CP']);
  });
});
