import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, words } from '../text.js';
import { blobBytes, writeBlob } from '../vector-blob.js';
import { BUILTIN_DIMS, embedTerms, idf, normalize, SELF_WEIGHT, spellingVector } from './builtin.js';
import { learnCatalogEmbeddings } from './learn.js';

/**
 * The model as first written: every word's spelling and context held at once (V × 2 KB).
 * learnCatalogEmbeddings keeps only the words of two or more texts and must give the same bytes.
 */
function holdingEveryWord(texts: string[]) {
  const D = BUILTIN_DIMS;
  const documents = texts.map((t) => words(t).map(fold));
  const ids = new Map<string, number>();
  const counts: number[] = [];
  const distinct = documents.map((doc) =>
    [...new Set(doc)].map((t) => {
      if (!ids.has(t)) ids.set(t, counts.push(0) - 1);
      const id = ids.get(t)!;
      counts[id]!++;
      return id;
    }),
  );
  const terms = [...ids.keys()];
  const weight = counts.map((n) => idf(n, documents.length));
  const spelling = new Float32Array(terms.length * D);
  terms.forEach((t, id) => {
    spellingVector(t, undefined, spelling.subarray(id * D, id * D + D));
  });
  const context = new Float32Array(terms.length * D);
  const sum = new Float32Array(D);
  for (const unique of distinct) {
    if (unique.length < 2) continue;
    sum.fill(0);
    for (const id of unique) for (let i = 0; i < D; i++) sum[i]! += weight[id]! * spelling[id * D + i]!;
    for (const id of unique)
      for (let i = 0; i < D; i++) context[id * D + i]! += sum[i]! - weight[id]! * spelling[id * D + i]!;
  }
  const bytes = blobBytes(terms.length ? D : 0);
  const termBlobs = new Uint8Array(terms.length * bytes);
  const vectors = terms.map((_, id) => {
    const c = normalize(context.subarray(id * D, id * D + D));
    const v = spelling.subarray(id * D, id * D + D);
    for (let i = 0; i < D; i++) v[i] = SELF_WEIGHT * v[i]! + (1 - SELF_WEIGHT) * c[i]!;
    writeBlob(normalize(v), termBlobs, id * bytes);
    return v;
  });
  const productBlobs: number[] = [];
  documents.forEach((doc) => {
    const v = embedTerms(
      doc,
      (t) => ({ df: counts[ids.get(t)!]!, vector: vectors[ids.get(t)!]! }),
      documents.length,
    );
    if (v) {
      const out = new Uint8Array(bytes);
      writeBlob(v, out, 0);
      productBlobs.push(...out);
    }
  });
  return { terms, termDf: counts, termBlobs: [...termBlobs], productBlobs };
}

const word = fc.constantFrom(
  'dishwasher',
  'fridge',
  'steel',
  'quiet',
  'wx-100',
  'kl9',
  '36',
  'oven',
  'red',
  'a',
);
const text = fc.array(word, { maxLength: 7 }).map((ws) => ws.join(' '));
/** texts with words of their own (model codes) beside shared ones, as catalogs have */
const catalog = fc
  .array(fc.tuple(text, fc.option(fc.stringMatching(/^[a-z]{2}[0-9]{2,4}$/), { nil: undefined })), {
    maxLength: 25,
  })
  .map((rows) => rows.map(([t, code]) => (code ? `${t} ${code}` : t)));

describe('catalog embeddings', () => {
  it('are the bytes of the model that holds every word at once', () => {
    fc.assert(
      fc.property(catalog, (texts) => {
        const got = learnCatalogEmbeddings(texts);
        const want = holdingEveryWord(texts);
        expect(got.terms).toEqual(want.terms);
        expect([...got.termDf]).toEqual(want.termDf);
        expect([...got.termBlobs]).toEqual(want.termBlobs);
        expect([...got.productBlobs]).toEqual(want.productBlobs);
      }),
      { numRuns: 200 },
    );
  });

  it('embed every text with a word, and give a one-word text its spelling', () => {
    const got = learnCatalogEmbeddings(['quiet dishwasher QX100', '', 'ZZ9']);
    expect([...got.productIndex]).toEqual([0, 2]);
    expect(got.dims).toBe(BUILTIN_DIMS);
    const bytes = blobBytes(BUILTIN_DIMS);
    const alone = new Uint8Array(bytes);
    writeBlob(normalize(spellingVector('zz9').map((x) => SELF_WEIGHT * x)), alone, 0);
    const zz9 = got.terms.indexOf('zz9');
    expect([...got.termBlobs.subarray(zz9 * bytes, (zz9 + 1) * bytes)]).toEqual([...alone]);
  });
});
