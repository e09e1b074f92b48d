import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrice } from './price.js';

describe('parsePrice', () => {
  it.each([
    ['1299.00 USD', 1299, 'USD'],
    ['$1,299.99', 1299.99, 'USD'],
    ['1.299,50 EUR', 1299.5, 'EUR'],
    ['USD 12', 12, 'USD'],
    ['£7.5', 7.5, 'GBP'],
    ['19.99 gbp', 19.99, 'GBP'],
  ])('parses %s', (raw, amount, currency) => {
    expect(parsePrice(raw)).toEqual({ ok: true, amount, currency });
  });

  it.each(['', 'call for price', '12.34.56', '-5 USD', '1,2,3', '12 abc'])('rejects %j', (raw) => {
    expect(parsePrice(raw).ok).toBe(false);
  });

  it('round-trips any amount written as "<amount> USD"', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (cents) => {
        const amount = cents / 100;
        expect(parsePrice(`${amount.toFixed(2)} USD`)).toEqual({ ok: true, amount, currency: 'USD' });
      }),
    );
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string(), (s) => void parsePrice(s)));
  });
});
