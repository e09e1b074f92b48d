import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.js';

const doc = (n: number, size: number) => ({
  json: `{"id":"${n}","x":"${'x'.repeat(size)}"}`,
  etag: `"e${n}"`,
});

describe('DocumentCache', () => {
  it('keeps documents within its byte budget, the most recently used ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 50_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3_000 })), {
          maxLength: 200,
        }),
        (budget, writes) => {
          const cache = new DocumentCache(budget);
          for (const [n, size] of writes) {
            const d = doc(n, size);
            cache.set(String(n), d);
            expect(cache.size).toBeLessThanOrEqual(budget);
            // what was just kept reads back whole, when it fits at all
            const back = cache.get(String(n));
            if (back) expect(back).toEqual(d);
            else expect(d.json.length).toBeGreaterThan(budget / 2);
          }
        },
      ),
    );
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new DocumentCache(0);
    cache.set('a', doc(1, 10));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
