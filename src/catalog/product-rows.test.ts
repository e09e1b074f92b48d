import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storedBreakdown, toProduct } from './product-rows.js';

const row = (quality_breakdown_json: unknown) => ({
  id: 'p',
  name: 'P',
  slug: 'p',
  created_at: 't',
  updated_at: 't',
  quality_breakdown_json,
});

describe('stored quality breakdown', () => {
  const breakdown = {
    completeness: 1,
    validity: 0.5,
    confidence: 0.91,
    crossValidation: 1,
    attributeScore: 0.89,
    nameScore: 0.93,
    knowledgeScore: 0,
  };

  it('stores the scores as an array in the schema order and reads them back as the object', () => {
    expect(storedBreakdown(breakdown)).toBe('[1,0.5,0.91,1,0.89,0.93,0]');
    const read = toProduct(row(storedBreakdown(breakdown)))._quality_breakdown;
    expect(read).toEqual(breakdown);
    expect(Object.keys(read)).toEqual(Object.keys(breakdown));
  });

  it('reads the object of a snapshot before schema version 9 as it is', () => {
    expect(toProduct(row(JSON.stringify(breakdown)))._quality_breakdown).toEqual(breakdown);
  });

  it('round-trips any finite scores', () => {
    const score = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(fc.tuple(score, score, score, score, score, score, score), (scores) => {
        const keys = Object.keys(breakdown) as (keyof typeof breakdown)[];
        const b = Object.fromEntries(keys.map((k, i) => [k, scores[i]])) as typeof breakdown;
        // JSON has no negative zero: -0 is stored and read as 0
        const expected = Object.fromEntries(keys.map((k) => [k, b[k] === 0 ? 0 : b[k]]));
        expect(toProduct(row(storedBreakdown(b)))._quality_breakdown).toEqual(expected);
      }),
    );
  });
});
