import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.js';

const doc = (n: number, size: number) => ({
  json: `{"id":"${n}","x":"${'x'.repeat(size)}"}`,
  knowledge: null,
  etag: `"e${n}"`,
});

/** A read as productDocument does it: look up, and offer the document on a miss. */
const read = (cache: DocumentCache, n: number, size = 900): boolean => {
  if (cache.get(String(n))) return true;
  cache.set(String(n), doc(n, size));
  return false;
};

describe('DocumentCache', () => {
  it('keeps documents within its byte budget, and what it keeps reads back whole', () => {
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
            cache.get(String(n));
            cache.set(String(n), d);
            expect(cache.size).toBeLessThanOrEqual(budget);
            const back = cache.get(String(n));
            if (back) expect(back).toEqual(d);
          }
        },
      ),
    );
  });

  it('takes every document while there is room', () => {
    const cache = new DocumentCache(100_000);
    for (let n = 0; n < 50; n++) read(cache, n);
    for (let n = 0; n < 50; n++) expect(read(cache, n)).toBe(true);
  });

  // regression: a plain LRU read in a cycle over more documents than fit (`npm run bench`, a
  // crawler) replaced every document before it was asked for again: no read was ever a hit
  it('keeps what it holds through a cycle over more documents than fit', () => {
    const cache = new DocumentCache(100_000); // about 100 documents of 1 KB
    let hits = 0;
    for (let pass = 0; pass < 5; pass++) for (let n = 0; n < 400; n++) if (read(cache, n)) hits++;
    // the documents kept in the first pass are hits in each of the four passes after it
    expect(hits).toBeGreaterThan(4 * 80);
  });

  it('takes a document asked for more often than the one it would push out', () => {
    const cache = new DocumentCache(100_000);
    for (let n = 0; n < 400; n++) read(cache, n);
    // product 1000 is asked for again and again while the others are asked for once each
    for (let k = 0; k < 5; k++) read(cache, 1000);
    expect(read(cache, 1000)).toBe(true);
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = new DocumentCache(0);
    cache.set('a', doc(1, 10));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps packed documents in their own budget, copied, and reads them back whole', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 1_500 })), {
          maxLength: 200,
        }),
        (budget, writes) => {
          const cache = new DocumentCache(0, budget);
          // a snapshot's packed document never changes: one held already is kept as it is
          const first = new Map<number, number>();
          for (const [n, size] of writes) {
            if (!cache.getPacked(String(n))) first.delete(n);
            if (!first.has(n)) first.set(n, size);
            const packed = new Uint8Array(size).fill(n);
            cache.get(String(n));
            cache.setPacked(String(n), { packed, knowledge: null, etag: `"e${n}"` });
            // the caller's bytes may be reused (SQLite's): the kept copy must not change with them
            packed.fill(255);
            expect(cache.size).toBeLessThanOrEqual(budget);
            const back = cache.getPacked(String(n));
            if (back) {
              expect(Buffer.from(back.packed).equals(Buffer.alloc(first.get(n) as number, n))).toBe(true);
              expect(back.etag).toBe(`"e${n}"`);
            }
          }
          // no decoded budget: nothing decoded is kept
          cache.set('x', doc(1, 10));
          expect(cache.get('x')).toBeUndefined();
        },
      ),
    );
  });

  // the same regression as above, for the packed documents: a cycle over more than fit
  it('keeps the packed documents it holds through a cycle over more than fit', () => {
    const cache = new DocumentCache(0, 100_000); // about 130 packed documents of 600 bytes
    let hits = 0;
    for (let pass = 0; pass < 5; pass++)
      for (let n = 0; n < 400; n++) {
        const id = String(n);
        cache.get(id);
        if (cache.getPacked(id)) hits++;
        else cache.setPacked(id, { packed: new Uint8Array(600), knowledge: null, etag: '"e"' });
      }
    expect(hits).toBeGreaterThan(4 * 100);
  });

  it('lends the decoded documents what the packed ones leave, and takes it back as they fill', () => {
    const total = 20_000 + 200_000;
    const cache = new DocumentCache(20_000, 200_000);
    // about 1 KB each: fifty, more than the decoded part alone holds, while nothing is packed
    for (let n = 0; n < 50; n++) read(cache, n);
    for (let n = 0; n < 50; n++) expect(read(cache, n)).toBe(true);
    // packed documents come: the decoded ones give back room, and the whole stays in budget
    for (let n = 0; n < 350; n++) {
      const id = `p${n}`;
      cache.get(id);
      cache.setPacked(id, { packed: new Uint8Array(500).fill(n & 0xff), knowledge: null, etag: '"e"' });
      expect(cache.size).toBeLessThanOrEqual(total);
    }
    let decoded = 0;
    for (let n = 0; n < 50; n++) if (cache.get(String(n))) decoded++;
    expect(decoded).toBeLessThan(50);
    expect(cache.getPacked('p0')).toBeDefined();
    expect(cache.getPacked('p349')).toBeDefined();
  });

  // regression: a fractional budget (SHELF_DOCUMENT_CACHE_MB=0.05) threw in the LRU, and the
  // server that opened the snapshot with it answered every request 503 CATALOG_UNAVAILABLE
  it('keeps() says beforehand whether set() would take a document, with or without room', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2_000 })), {
          maxLength: 120,
        }),
        (budget, reads) => {
          const cache = new DocumentCache(budget);
          for (const [n, size] of reads) {
            const id = String(n);
            const d = doc(n, size);
            // one larger than the whole budget: the LRU refuses it whatever admission says
            if (cache.get(id) || d.json.length + 200 > budget) continue;
            const expected = cache.keeps(id, d.json.length, d.etag);
            cache.set(id, d);
            expect(cache.get(id) !== undefined).toBe(expected);
          }
        },
      ),
    );
  });

  it('regression: takes a fractional byte budget', () => {
    const cache = new DocumentCache(52_428.8 / 2, 52_428.8 / 2);
    cache.get('a');
    cache.set('a', doc(1, 10));
    expect(cache.get('a')).toEqual(doc(1, 10));
  });
});
