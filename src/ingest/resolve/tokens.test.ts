import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charNgrams, colorFamilies, normalizeText, tokenize } from './tokens.js';

describe('tokenize', () => {
  it('lower-cases, strips diacritics and drops stopwords', () => {
    expect(tokenize('The Café Blender with Lid')).toEqual(['cafe', 'blender', 'lid']);
  });

  it('keeps decimal versions whole, dropping a v prefix and trailing .0', () => {
    expect(tokenize('QB POS 6.0 v.22 v1.5')).toEqual(['qb', 'pos', '6', '22', '1.5']);
  });

  it('maps edition spellings to one form', () => {
    expect(tokenize('Professional DLX upg')).toEqual(['pro', 'deluxe', 'upgrade']);
  });

  it('yields lower-case alphanumeric tokens for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const token of tokenize(text)) expect(token).toMatch(/^[a-z0-9]+(\.[0-9]+)*$/);
      }),
    );
  });

  it('is idempotent over its own output (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const once = tokenize(text);
        expect(tokenize(once.join(' '))).toEqual(once);
      }),
    );
  });
});

describe('normalizeText', () => {
  it('never changes length class of plain ASCII lower-case text (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9 ]{0,50}$/), (text) => {
        expect(normalizeText(text)).toBe(text);
      }),
    );
  });
});

describe('charNgrams', () => {
  it('pads so prefixes and suffixes count', () => {
    expect(charNgrams('AB12')).toEqual(['^AB', 'AB1', 'B12', '12$']);
  });

  it('returns length + 2 - n grams for codes longer than n (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{2,20}$/), (code) => {
        expect(charNgrams(code, 3)).toHaveLength(code.length);
      }),
    );
  });
});

describe('colorFamilies', () => {
  it('groups color words into families', () => {
    expect([...colorFamilies('Pearl Gray Stainless Dryer')].sort()).toEqual(['gray', 'silver', 'white']);
    expect(colorFamilies('Turntable').size).toBe(0);
  });
  it("reads a color phrase before a part noun as the part's, not the product's", () => {
    // Abt-Buy: Buy's dryer names its drum, its partner says White.
    expect(
      colorFamilies('LG Electronics DLE0442W XL Load Capacity with NeveRust Stainless Steel Drum').size,
    ).toBe(0);
    // The demo: a dishwasher's tub material beside its finish.
    expect([...colorFamilies('Bosch 24 in. Stainless Steel Tub Dishwasher - White')]).toEqual(['white']);
    expect([
      ...colorFamilies('Weber Genesis Gas Grill with 3 Stainless Steel Burners: Black LP Gas'),
    ]).toEqual(['black']);
  });
  it('still reads a finish that names no part as the color', () => {
    expect([...colorFamilies('LG Stainless Steel French Door Refrigerator')]).toEqual(['silver']);
    expect([...colorFamilies('Black Stainless Steel Dishwasher')].sort()).toEqual(['black', 'silver']);
    expect([...colorFamilies('Weber Stainless Steel Summit S-650 Grill')]).toEqual(['silver']);
  });

  it('does not read a fuel or filter medium as a color', () => {
    expect(colorFamilies('Weber Original Kettle 22 in. Charcoal Grill').size).toBe(0);
    expect([...colorFamilies('Char-Griller Charcoal Smoker - Black')]).toEqual(['black']);
    expect(colorFamilies('Whirlpool Range Hood Charcoal Filter').size).toBe(0);
    expect([...colorFamilies('Charcoal Gray Grill Cover')]).toEqual(['gray']);
    expect([...colorFamilies('Samsung 65 in. QLED TV - Charcoal')]).toEqual(['gray']);
  });
});
