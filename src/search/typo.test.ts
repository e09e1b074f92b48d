import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vocabulary, withinOneEdit } from './typo.js';

/** Optimal-string-alignment distance, the textbook way: the reference for withinOneEdit. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('typo tolerance', () => {
  it('withinOneEdit agrees with the edit distance (insert, delete, substitute, swap)', () => {
    const word = fc.stringMatching(/^[abc]{0,7}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(withinOneEdit(a, b)).toBe(osa(a, b) <= 1);
      }),
    );
  });

  const vocabulary = new Vocabulary([
    ['dishwasher', 40],
    ['dishwashers', 5],
    ['refrigerator', 30],
    ['wf45r6100aw', 1],
    ['drill', 9],
    ['grill', 7],
  ]);

  it('corrects unknown words of 5+ letters to catalog words one edit away, most frequent first', () => {
    expect(vocabulary.corrections('dishwaser')).toEqual(['dishwasher']);
    expect(vocabulary.corrections('dishwashr')).toEqual(['dishwasher']);
    expect(vocabulary.corrections('refrigerater')).toEqual(['refrigerator']);
    expect(vocabulary.corrections('dishwashesr')).toEqual(['dishwasher', 'dishwashers']);
  });

  it('never corrects known words, short words, numbers or model codes', () => {
    expect(vocabulary.corrections('dishwasher')).toEqual([]);
    expect(vocabulary.corrections('drll')).toEqual([]);
    expect(vocabulary.corrections('wf45r6100ap')).toEqual([]);
    expect(vocabulary.corrections('12345')).toEqual([]);
    expect(vocabulary.corrections('grilll')).toEqual(['grill']);
  });
});
