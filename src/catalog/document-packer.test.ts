import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { documentDictionary, packDocument, unpackDocument } from './document-codec.js';
import { DocumentPacker } from './document-packer.js';

const product = (n: number) =>
  JSON.stringify({ id: `id-${n}`, name: `Product ${n} Blender, Black`, specifications: { watts: 1000 + n } });
const dictionary = documentDictionary(Array.from({ length: 200 }, (_, n) => product(n)));

describe('document packer', () => {
  const threaded = new DocumentPacker(dictionary, 1);
  const inline = new DocumentPacker(dictionary, 0);
  afterAll(() => {
    threaded.close();
    inline.close();
  });

  it('packs every text byte for byte as packDocument does, with or without a worker', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (texts) => {
        const expected = texts.map((t) => packDocument(t, dictionary));
        for (const packer of [threaded, inline]) {
          const packed = packer.take(packer.submit(texts));
          expect(packed.map((b, i) => b.equals(expected[i] as Buffer))).toEqual(texts.map(() => true));
          expect(packed.map((b) => unpackDocument(b, dictionary))).toEqual(texts);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('keeps batches apart when several are in flight and taken in any order', () => {
    const batches = [0, 1, 2, 3].map((b) => Array.from({ length: 300 }, (_, n) => product(b * 1000 + n)));
    const tickets = batches.map((texts) => threaded.submit(texts));
    // give the worker time to claim its share before this thread claims the rest
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    for (const b of [2, 0, 3, 1]) {
      const packed = threaded.take(tickets[b] as ReturnType<typeof threaded.submit>);
      expect(packed.map((p) => unpackDocument(p, dictionary))).toEqual(batches[b]);
    }
  });

  it('an empty batch and an empty dictionary pack too', () => {
    expect(threaded.take(threaded.submit([]))).toEqual([]);
    const plain = new DocumentPacker(Buffer.alloc(0), 1);
    try {
      const packed = plain.take(plain.submit(['{"a":1}', '']));
      expect(packed.map((p) => unpackDocument(p, Buffer.alloc(0)))).toEqual(['{"a":1}', '']);
    } finally {
      plain.close();
    }
  });
});
