import type { Db } from '../../catalog/index.js';
import type { NeedsDef } from '../../content/index.js';
import { contentWords } from './text.js';
import { pretrainedWordVectors, quantize, type WordVectors } from './word-vectors.js';
import { wordNet } from './wordnet.js';

/** Weight of each part of a type's need text: what it is called counts most. */
export const FIELD_WEIGHTS = {
  name: 1,
  words: 1,
  needs: 0.85,
  problems: 0.85,
  places: 0.5,
  users: 0.5,
} as const;
export type NeedField = keyof typeof FIELD_WEIGHTS;

/** The most frequent pretrained words kept for queries, beside the catalog's own words. */
const COMMON_WORDS = 60_000;

/** A product type as need building reads it (the product_types row). */
export interface NeedType {
  id: string;
  slug: string;
  name: string;
  schema_json: string | null;
}

/**
 * Writes what need understanding reads into the snapshot being built (table `search_needs`,
 * one row per part, created here so that older snapshots simply lack it):
 *   types  — per product type its need text as weighted terms (words and two-word phrases)
 *   terms  — those terms, and their pretrained vectors (float32, unit length; 0 when unknown)
 *   words  — the query words the snapshot can embed: the 60k most frequent English words
 *            plus every catalog and need word, as int8 vectors with a scale each
 *   wordnet — for each of those words, the terms WordNet relates it to (synonym, hypernym)
 * Nothing here reads the 300 MB package at query time: `pretrainedWordVectors()` is ingest-only.
 */
export function buildNeedIndex(db: Db, needs: readonly NeedsDef[]): void {
  const catalogWords = db.prepare('SELECT term FROM search_vocabulary').pluck().all() as string[];
  writeNeedIndex(db, needIndexRows(readNeedTypes(db), needs, catalogWords));
}

/** The product types of a snapshot, by slug: what {@link needIndexRows} takes. */
export const readNeedTypes = (db: Db): NeedType[] =>
  db.prepare('SELECT id, slug, name, schema_json FROM product_types ORDER BY slug').all() as NeedType[];

/** Replaces the snapshot's `search_needs` rows with `rows` ({@link needIndexRows}). */
export function writeNeedIndex(db: Db, rows: readonly (readonly [string, Uint8Array])[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS search_needs (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
           DELETE FROM search_needs;`);
  const put = db.prepare('INSERT INTO search_needs (key, value) VALUES (?, ?)');
  for (const [key, value] of rows)
    put.run(key, Buffer.from(value.buffer, value.byteOffset, value.byteLength));
}

/**
 * The rows of `search_needs` ({@link buildNeedIndex}) for these product types and need
 * texts; `catalogWords` is the snapshot's vocabulary in the order SQLite reads
 * search_vocabulary (by term). None when there is no product type. Reads no database, so a
 * worker thread can compute it.
 */
export function needIndexRows(
  types: readonly NeedType[],
  needs: readonly NeedsDef[],
  catalogWords: readonly string[],
): [string, Buffer][] {
  if (types.length === 0) return [];
  const needOf = new Map(needs.map((n) => [n.product_type, n]));

  const termIndex = new Map<string, number>();
  const terms: string[] = [];
  const rawOf: string[] = [];
  const termId = (term: string, raw: string) => {
    let i = termIndex.get(term);
    if (i === undefined) {
      i = terms.length;
      termIndex.set(term, i);
      terms.push(term);
      rawOf.push(raw);
    }
    return i;
  };
  const typeRows = types.map((t) => {
    const schema = JSON.parse(t.schema_json || '{}') as { synonyms?: string[] };
    const need = needOf.get(t.slug);
    const parts: [NeedField, string[]][] = [
      ['name', [t.name, t.slug.replace(/-/g, ' '), ...(schema.synonyms ?? [])]],
      ['words', need?.words ?? []],
      ['needs', need?.needs ?? []],
      ['problems', need?.problems ?? []],
      ['places', need?.places ?? []],
      ['users', need?.users ?? []],
    ];
    // term → [weight, field]: a term keeps the weight of the strongest part it appears in
    const weights = new Map<number, [number, NeedField]>();
    const add = (id: number, w: number, field: NeedField) => {
      const had = weights.get(id);
      if (!had || had[0] < w) weights.set(id, [w, field]);
    };
    for (const [field, phrases] of parts)
      for (const phrase of phrases) {
        const cw = contentWords(phrase);
        cw.forEach((w, i) => {
          add(termId(w.term, w.raw), FIELD_WEIGHTS[field], field);
          const next = cw[i + 1];
          if (next)
            add(termId(`${w.term} ${next.term}`, `${w.raw} ${next.raw}`), FIELD_WEIGHTS[field], field);
        });
      }
    return {
      id: t.id,
      slug: t.slug,
      name: t.name,
      terms: [...weights].map(([id, [w, field]]) => [id, w, field] as const),
    };
  });

  const vectors = pretrainedWordVectors();
  const dims = vectors?.dims ?? 0;
  // a term's vector: its word's (a phrase's: the mean of its words'), unit length
  const termVectors = new Float32Array(terms.length * dims);
  if (vectors)
    rawOf.forEach((raw, i) => {
      const acc = new Float32Array(dims);
      let n = 0;
      for (const [k, w] of raw.split(' ').entries()) {
        const row = rowOf(vectors, w, terms[i]!.split(' ')[k]!);
        if (row < 0) continue;
        addRow(vectors, row, acc);
        n++;
      }
      if (n === 0) return;
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += acc[d]! * acc[d]!;
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dims; d++) termVectors[i * dims + d] = acc[d]! / norm;
    });

  // the query words the snapshot can embed
  const keep = new Set<string>();
  if (vectors) {
    for (let i = 0; i < Math.min(COMMON_WORDS, vectors.words.length); i++) keep.add(vectors.words[i]!);
    for (const w of [...catalogWords, ...rawOf.flatMap((r) => r.split(' '))])
      if (vectors.index.has(w)) keep.add(w);
  }
  const kept = [...keep];
  const wordData = new Int8Array(kept.length * dims);
  const wordScales = new Float32Array(kept.length);
  const scratch = new Float32Array(dims);
  kept.forEach((w, i) => {
    const row = vectors!.index.get(w)!;
    scratch.fill(0);
    addRow(vectors!, row, scratch);
    wordScales[i] = quantize(scratch, wordData, i * dims);
  });

  // WordNet relations from query words to single-word terms, found from the terms' side
  // (a term's synonyms and hyponyms are the words that reach it): ~2k lookups, not 60k
  const related: Record<string, [number, 's' | 'h'][]> = {};
  const wn = wordNet();
  if (wn)
    terms.forEach((term, id) => {
      if (term.includes(' ')) return;
      const raw = rawOf[id]!;
      const { synonyms, hyponyms } = wn.reaching(raw, 2);
      const link = (word: string, kind: 's' | 'h') => {
        if (word === raw || word === term || termIndex.has(word)) return;
        const list = related[word] ?? [];
        related[word] = list;
        if (!list.some(([x]) => x === id)) list.push([id, kind]);
      };
      for (const w of synonyms) link(w, 's');
      for (const w of hyponyms) link(w, 'h');
    });

  const blob = (a: Float32Array | Int8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return [
    ['meta', Buffer.from(JSON.stringify({ dims, terms: terms.length, words: kept.length }))],
    ['types', Buffer.from(JSON.stringify(typeRows))],
    ['terms', Buffer.from(JSON.stringify(terms))],
    ['term_vectors', blob(termVectors)],
    ['words', Buffer.from(kept.join('\n'))],
    ['word_vectors', blob(wordData)],
    ['word_scales', blob(wordScales)],
    ['wordnet', Buffer.from(JSON.stringify(related))],
  ];
}

function rowOf(v: WordVectors, raw: string, term: string): number {
  return v.index.get(raw) ?? v.index.get(term) ?? -1;
}

function addRow(v: WordVectors, row: number, out: Float32Array): void {
  const s = v.scales[row]!;
  for (let d = 0; d < v.dims; d++) out[d]! += v.data[row * v.dims + d]! * s;
}
