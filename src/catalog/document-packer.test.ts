import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  documentDictionary,
  packDocument,
  packNumbered,
  packText,
  unpackDocument,
  unpackNumbered,
} from './codec.js';
import { DocumentPacker, type Packed } from './document-packer.js';

const product = (n: number) =>
  JSON.stringify({ id: `id-${n}`, name: `Product ${n} Blender, Black`, specifications: { watts: 1000 + n } });
const dictionary = documentDictionary(Array.from({ length: 200 }, (_, n) => product(n)));
const hex = (packed: Buffer[]) => packed.map((b) => b.toString('hex'));
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('document packer', () => {
  const threaded = new DocumentPacker(dictionary, { worker: true });
  const inline = new DocumentPacker(dictionary, { worker: false });
  afterAll(async () => {
    await threaded.close();
    await inline.close();
  });

  it('a worker that has loaded packs a share of the batches', async () => {
    // until the worker has loaded, the calling thread packs everything
    for (let i = 0; i < 100 && threaded.workerBatches === 0; i++) {
      const batch = threaded.add(Array.from({ length: 200 }, (_, n) => product(n)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      threaded.take(batch);
    }
    expect(threaded.workerBatches).toBeGreaterThan(0);
    expect(inline.workerBatches).toBe(0);
  });

  it('a second packer packs on the worker already loaded, with its own dictionary', async () => {
    const own = documentDictionary([product(123456)]);
    const second = new DocumentPacker(own, { worker: true });
    try {
      const docs = Array.from({ length: 400 }, (_, n) => product(n));
      const id = second.add(docs);
      sleep(200);
      expect(hex(second.take(id).docs)).toEqual(hex(docs.map((d) => packDocument(d, own))));
      expect(second.workerBatches).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('packs documents as packDocument and texts as packText do, byte for byte, on either thread', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }),
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 10 }),
        (docs, texts) => {
          for (const packer of [threaded, inline]) {
            const packed = packer.take(packer.add(docs, texts));
            expect(hex(packed.docs)).toEqual(hex(docs.map((d) => packDocument(d, dictionary))));
            expect(hex(packed.texts)).toEqual(hex(texts.map(packText)));
            expect(packed.docs.map((b) => unpackDocument(b, dictionary))).toEqual(docs);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('keeps batches apart when several are in flight and taken in any order', () => {
    const batches = [0, 1, 2, 3].map((b) => Array.from({ length: 300 }, (_, n) => product(b * 1000 + n)));
    const ids = batches.map((docs) => threaded.add(docs, docs.slice(0, 5)));
    // give the worker time to claim its share before this thread claims the rest
    sleep(300);
    for (const b of [2, 0, 3, 1]) {
      const packed: Packed = threaded.take(ids[b] as number);
      expect(packed.docs.map((p) => unpackDocument(p, dictionary))).toEqual(batches[b]);
      expect(packed.texts.map((p) => unpackDocument(p, Buffer.alloc(0)))).toEqual(batches[b]?.slice(0, 5));
    }
    expect(() => threaded.take(ids[0] as number)).toThrow(/no batch/);
  });

  it('an empty batch and an empty dictionary pack too', async () => {
    expect(threaded.take(threaded.add([]))).toEqual({ docs: [], texts: [] });
    const plain = new DocumentPacker(Buffer.alloc(0), { worker: true });
    try {
      const packed = plain.take(plain.add(['{"a":1}', '']));
      expect(packed.docs.map((p) => unpackDocument(p, Buffer.alloc(0)))).toEqual(['{"a":1}', '']);
    } finally {
      await plain.close();
    }
  });

  it('packs everything on the calling thread once its worker is stopped', async () => {
    const packer = new DocumentPacker(dictionary, { worker: true });
    await packer.close();
    const docs = Array.from({ length: 50 }, (_, n) => product(n));
    expect(packer.take(packer.add(docs)).docs.map((p) => unpackDocument(p, dictionary))).toEqual(docs);
  });

  it('packs each document with its numbered dictionary, dictionaries added on the way included', () => {
    // the worker of the first test, loaded by now: it packs a share with the added dictionaries
    const packer = threaded;
    const before = packer.workerBatches;
    const set = [dictionary];
    const docs = Array.from({ length: 400 }, (_, n) => product(n));
    const numbers = docs.map((_, i) => i % 2);
    set.push(documentDictionary([product(7)]));
    expect(packer.addDictionary(set[1] as Buffer)).toBe(1);
    const ids = [packer.add(docs, [], numbers)];
    set.push(documentDictionary([product(9)]));
    expect(packer.addDictionary(set[2] as Buffer)).toBe(2);
    ids.push(
      packer.add(
        docs,
        ['alone'],
        docs.map(() => 2),
      ),
    );
    sleep(200);
    const [first, second] = ids.map((id) => packer.take(id));
    expect(packer.workerBatches).toBeGreaterThan(before);
    expect(hex(first?.docs ?? [])).toEqual(
      hex(docs.map((d, i) => packNumbered(d, set, numbers[i] as number))),
    );
    expect(hex(second?.docs ?? [])).toEqual(hex(docs.map((d) => packNumbered(d, set, 2))));
    expect(second?.docs.map((p) => unpackNumbered(p, set))).toEqual(docs);
    expect(hex(second?.texts ?? [])).toEqual(hex([packText('alone')]));
  });
});
