import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { documentDictionary, packDocument, packText, unpackDocument } from '../../catalog/index.js';
import { DocumentPacker } from './document-packer.js';
import { packBatch } from './pack-batch.js';

const docs = (batch: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      key: `shop:${batch}-${i}`,
      title: `Item ${batch}-${i}`,
      price: i * 1.5,
      text: 'é'.repeat(i),
    }),
  );
const dictionary = documentDictionary(docs(99, 20));

describe('DocumentPacker', () => {
  for (const worker of [true, false])
    it(`packs each batch to packDocument's bytes, in order (${worker ? 'worker thread' : 'this thread'})`, async () => {
      const packer = new DocumentPacker(dictionary, { worker });
      try {
        // a worker packs only once it has loaded: wait for it to take a batch
        if (worker) {
          packer.add(docs(9, 5));
          await packer.take(0);
          for (let i = 0; i < 200 && packer.workerBatches === 0; i++) {
            packer.add(docs(9, 5));
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          expect(packer.workerBatches).toBeGreaterThan(0);
        }
        const first = worker ? packer.add([]) + 1 : 0;
        const batches = [docs(0, 50), docs(1, 0), docs(2, 7), docs(3, 120)];
        const numbers = batches.map((b) => packer.add(b, b.slice(0, 3)));
        expect(numbers).toEqual([0, 1, 2, 3].map((n) => n + first));
        for (const [n, batch] of batches.entries()) {
          const packed = await packer.take(n + first);
          expect(packed.docs.map((p) => Buffer.from(p).toString('hex'))).toEqual(
            batch.map((d) => packDocument(d, dictionary).toString('hex')),
          );
          expect(packed.docs.map((p) => unpackDocument(p, dictionary))).toEqual(batch);
          // texts are packed alone, as packText does
          expect(packed.texts.map((p) => Buffer.from(p).toString('hex'))).toEqual(
            batch.slice(0, 3).map((d) => packText(d).toString('hex')),
          );
        }
      } finally {
        await packer.close();
      }
    });

  it('packs the rest on this thread once its worker is gone', async () => {
    const packer = new DocumentPacker(dictionary);
    packer.add(docs(0, 30));
    await packer.close();
    packer.add(docs(1, 30));
    expect((await packer.take(0)).docs.map((p) => unpackDocument(p, dictionary))).toEqual(docs(0, 30));
    expect((await packer.take(1)).docs.map((p) => unpackDocument(p, dictionary))).toEqual(docs(1, 30));
  });

  it('packBatch lays the documents, then the texts, end to end', () => {
    const { bytes, ends, docs: count } = packBatch(['{"a":1}', '{}'], ['plain'], dictionary);
    expect([ends.length, count]).toEqual([3, 2]);
    expect(ends[2]).toBe(bytes.length);
    expect(unpackDocument(bytes.subarray(0, ends[0]), dictionary)).toBe('{"a":1}');
    expect(unpackDocument(bytes.subarray(ends[0], ends[1]), dictionary)).toBe('{}');
    expect(inflateRawSync(bytes.subarray(ends[1])).toString()).toBe('plain');
  });
});
