import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DocumentInflater,
  documentDictionary,
  packDocument,
  packNumbered,
  storeDictionary,
  storedDictionaries,
  unpackDocument,
  unpackNumbered,
} from './document-codec.js';

const product = (n: number) =>
  JSON.stringify({ id: `id-${n}`, name: `Product ${n} Blender, Black`, specifications: { watts: 1000 + n } });

describe('document codec', () => {
  it('any text reads back unchanged, with any dictionary', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.array(fc.string()), (text, samples) => {
        const dictionary = documentDictionary(samples);
        expect(unpackDocument(packDocument(text, dictionary), dictionary)).toBe(text);
      }),
    );
  });

  it('keeps at most the 32 KB deflate can look back at, from the end of the sample', () => {
    const samples = Array.from({ length: 2000 }, (_, n) => product(n));
    const dictionary = documentDictionary(samples);
    expect(dictionary.length).toBe(32 * 1024);
    expect(dictionary.toString().endsWith(samples.at(-1) as string)).toBe(true);
  });

  it('a dictionary of like documents packs a document smaller than deflate alone', () => {
    const dictionary = documentDictionary(Array.from({ length: 100 }, (_, n) => product(n)));
    const text = product(5000);
    expect(packDocument(text, dictionary).length).toBeLessThan(packDocument(text, Buffer.alloc(0)).length);
  });

  it('keeps the last `size` bytes when asked for a shorter dictionary', () => {
    const samples = Array.from({ length: 200 }, (_, n) => product(n));
    const dictionary = documentDictionary(samples, 8 * 1024);
    expect(dictionary.length).toBe(8 * 1024);
    expect(dictionary.toString().endsWith(samples.at(-1) as string)).toBe(true);
  });

  it('a numbered document reads back with its own dictionary of the set, past one byte of number too', () => {
    const set = Array.from({ length: 300 }, (_, n) => documentDictionary([product(n)]));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 299 }), (text, n) => {
        const packed = packNumbered(text, set, n);
        expect(packed[0]).toBe(n < 128 ? n : (n & 0x7f) | 0x80);
        expect(packed.subarray(n < 128 ? 1 : 2).equals(packDocument(text, set[n] as Buffer))).toBe(true);
        expect(unpackNumbered(packed, set)).toBe(text);
      }),
    );
  });

  it('a numbered document naming a dictionary the set lacks is an error, not a wrong document', () => {
    const set = [documentDictionary([product(1)])];
    expect(() => packNumbered('{}', set, 1)).toThrow(RangeError);
    expect(() => unpackNumbered(Buffer.from([1, 3, 0]), set)).toThrow(/no dictionary 1/);
    expect(() => unpackNumbered(Buffer.from([0x80]), set)).toThrow(/bad dictionary number/);
  });

  it('reads a snapshot numbered dictionaries in order, apart from other names', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE dictionaries (name TEXT PRIMARY KEY, bytes BLOB NOT NULL)');
    expect(storedDictionaries(db, 'documents')).toEqual([]);
    for (const [name, text] of [
      ['documents/1', 'one'],
      ['documents/0', 'zero'],
      ['documents/10', 'ten'],
      ['documents', 'legacy'],
      ['listings', 'other'],
    ] as const)
      storeDictionary(db, name, Buffer.from(text));
    const set = storedDictionaries(db, 'documents').map(String);
    expect(set.slice(0, 2)).toEqual(['zero', 'one']);
    expect(set[10]).toBe('ten');
    expect(set).toHaveLength(11);
    expect(set.slice(2, 10)).toEqual(Array(8).fill(''));
  });

  it('a reused inflater reads every document as a new stream would, one after another, large ones too', () => {
    const set = Array.from({ length: 130 }, (_, n) => documentDictionary([product(n)]));
    const inflater = new DocumentInflater(set, true);
    const plain = new DocumentInflater([set[0] as Buffer], false);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string({ unit: 'grapheme', maxLength: 400 }),
            fc.integer({ min: 0, max: 129 }),
            fc.nat(3),
          ),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        (documents) => {
          for (const [text, n, repeat] of documents) {
            // some past the inflater's first output buffer (64 KB)
            const long = repeat === 3 ? text.repeat(2000) + product(n) : text;
            expect(inflater.read(packNumbered(long, set, n))).toBe(
              unpackNumbered(packNumbered(long, set, n), set),
            );
            expect(plain.read(packDocument(long, set[0] as Buffer))).toBe(long);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a corrupt or cut document is zlib's error, and the inflater reads the next one", () => {
    const set = [documentDictionary([product(1)]), documentDictionary([product(2)])];
    const inflater = new DocumentInflater(set, true);
    const good = packNumbered(product(7), set, 1);
    expect(inflater.read(good)).toBe(product(7));
    expect(() => inflater.read(good.subarray(0, good.length - 3))).toThrow(/unexpected end of file/);
    expect(() => inflater.read(Buffer.from([1, 0xff, 0xff, 0xff]))).toThrow(/invalid/);
    expect(() => inflater.read(Buffer.from([2, 3, 0]))).toThrow(/no dictionary 2/);
    expect(inflater.read(good)).toBe(product(7));
    expect(inflater.read(packNumbered('{}', set, 0))).toBe('{}');
  });
});
