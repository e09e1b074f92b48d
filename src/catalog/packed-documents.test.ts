import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PackedDocument, PackedDocuments } from './packed-documents.js';

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const documentOf = (n: number, size: number, knowledge: string | null = null): PackedDocument => ({
  packed: Uint8Array.from({ length: size }, (_, i) => (n * 31 + i) & 0xff),
  knowledge,
  etag: `"etag-${n}"`,
});
const same = (a: PackedDocument | undefined, b: PackedDocument) =>
  a !== undefined &&
  Buffer.from(a.packed).equals(Buffer.from(b.packed)) &&
  a.etag === b.etag &&
  a.knowledge === b.knowledge;

describe('PackedDocuments', () => {
  it('reads back every document it holds as written, within its budget', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 300 }),
            fc.integer({ min: 0, max: 1_500 }),
            fc.boolean(),
            fc.boolean(),
          ),
          { maxLength: 400 },
        ),
        (budget, writes) => {
          const store = new PackedDocuments(budget);
          // what the store was given for each id it said it kept (a kept document is never replaced)
          const model = new Map<string, PackedDocument>();
          for (const [n, size, knowledge, admit] of writes) {
            const id = uuid(n);
            const d = documentOf(n, size, knowledge ? `{"k":${n % 3}}` : null);
            const held = store.has(id);
            const bytes = d.packed;
            if (store.set(id, d, () => admit)) {
              expect(held).toBe(false);
              model.set(id, { ...d, packed: Uint8Array.from(bytes) });
            }
            // the caller's bytes may be reused (SQLite's): the kept copy must not change with them
            bytes.fill(7);
            expect(store.size).toBeLessThanOrEqual(Math.max(budget, 0));
            let found = 0;
            for (const [kept, expected] of model) {
              const back = store.get(kept);
              if (back === undefined) model.delete(kept);
              else {
                expect(same(back, expected)).toBe(true);
                found++;
              }
            }
            expect(store.count).toBe(found);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('holds every document of a pass while they fit, and none is read again from its source', () => {
    const store = new PackedDocuments(1_000_000);
    for (let n = 0; n < 1_500; n++) expect(store.set(uuid(n), documentOf(n, 500), () => false)).toBe(true);
    for (let n = 0; n < 1_500; n++) expect(same(store.get(uuid(n)), documentOf(n, 500))).toBe(true);
    expect(store.get(uuid(99_999))).toBeUndefined();
  });

  it('past its budget, pushes out its oldest documents only for one the caller admits', () => {
    const store = new PackedDocuments(100_000);
    let n = 0;
    while (store.set(uuid(n), documentOf(n, 600), () => false)) n++;
    const full = store.count;
    // refused: nothing changed
    expect(store.has(uuid(n))).toBe(false);
    expect(store.has(uuid(0))).toBe(true);
    // admitted: the oldest go, the newest stay
    expect(store.set(uuid(n), documentOf(n, 600), () => true)).toBe(true);
    expect(store.has(uuid(0))).toBe(false);
    expect(store.has(uuid(n - 1))).toBe(true);
    expect(same(store.get(uuid(n)), documentOf(n, 600))).toBe(true);
    expect(store.count).toBeLessThanOrEqual(full);
    expect(store.size).toBeLessThanOrEqual(100_000);
  });

  it('keeps nothing it cannot store as it is', () => {
    const store = new PackedDocuments(100_000);
    expect(store.set('ключ', documentOf(1, 10), () => true)).toBe(false);
    expect(store.set(uuid(1), { ...documentOf(1, 10), etag: '"ключ"' }, () => true)).toBe(false);
    expect(store.set(uuid(2), documentOf(2, 100_000), () => true)).toBe(false);
    expect(new PackedDocuments(0).set(uuid(3), documentOf(3, 10), () => true)).toBe(false);
    expect(store.count).toBe(0);
  });
});
