import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentDictionary, packDocument, unpackDocument } from './document-codec.js';

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
});
