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
});
