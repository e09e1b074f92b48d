import { type Db, perConnection, stmt } from '../../catalog/index.js';
import { dot } from '../dot.js';
import type { NeedField } from './build.js';
import { contentWords } from './text.js';

/** A product type the query may mean, with how sure understanding is and why. */
export interface TypeCandidate {
  id: string;
  slug: string;
  name: string;
  /** share of belief in this type among all types, 0–1 */
  confidence: number;
  /** query words and the need text they matched: "musty → mold (problems)" */
  matched: string[];
}

interface NeedModel {
  dims: number;
  types: {
    id: string;
    slug: string;
    name: string;
    ids: Int32Array;
    weights: Float32Array;
    fields: NeedField[];
  }[];
  terms: string[];
  termIndex: Map<string, number>;
  termVectors: Float32Array;
  /** the single-word terms: only they are compared by vector (a phrase matches exactly) */
  unigrams: Int32Array;
  words: Map<string, number>;
  wordVectors: Int8Array;
  wordScales: Float32Array;
  wordnet: Record<string, [number, 's' | 'h'][]>;
  cache: Map<string, WordMatch>;
}

const models = perConnection<NeedModel | null>();

/** The snapshot's need index, loaded once per connection; null for snapshots built without it. */
const model = (db: Db): NeedModel | null => models(db, '', loadModel);

function loadModel(db: Db): NeedModel | null {
  let m: NeedModel | null = null;
  const exists = stmt(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_needs'").get();
  if (exists) {
    const rows = new Map(
      (stmt(db, 'SELECT key, value FROM search_needs').raw().all() as [string, Buffer][]).map(([k, v]) => [
        k,
        v,
      ]),
    );
    const json = <T>(k: string): T => JSON.parse(rows.get(k)?.toString('utf8') ?? 'null') as T;
    const meta = json<{ dims: number } | null>('meta');
    if (meta) {
      const f32 = (k: string) => {
        const b = rows.get(k)!;
        const out = new Float32Array(b.byteLength / 4);
        new Uint8Array(out.buffer).set(b);
        return out;
      };
      const i8 = (k: string) => {
        const b = rows.get(k)!;
        const out = new Int8Array(b.byteLength);
        new Uint8Array(out.buffer).set(b);
        return out;
      };
      const terms = json<string[]>('terms');
      const words = (rows.get('words')?.toString('utf8') ?? '').split('\n');
      m = {
        dims: meta.dims,
        types: json<{ id: string; slug: string; name: string; terms: [number, number, NeedField][] }[]>(
          'types',
        ).map((t) => ({
          id: t.id,
          slug: t.slug,
          name: t.name,
          ids: Int32Array.from(t.terms.map((x) => x[0])),
          weights: Float32Array.from(t.terms.map((x) => x[1])),
          fields: t.terms.map((x) => x[2]),
        })),
        terms,
        termIndex: new Map(terms.map((t, i) => [t, i])),
        termVectors: f32('term_vectors'),
        unigrams: Int32Array.from(terms.flatMap((t, i) => (t.includes(' ') ? [] : [i]))),
        words: new Map(words.map((w, i) => [w, i])),
        wordVectors: i8('word_vectors'),
        wordScales: f32('word_scales'),
        wordnet: json('wordnet'),
        cache: new Map(),
      };
    }
  }
  return m;
}

/** Tuning of the type scorer (set on the development part of eval/needs, never per query). */
export interface NeedTuning {
  /** cosines below this count as unrelated */
  floor: number;
  /** similarity credited to a WordNet synonym / hypernym */
  synonym: number;
  hypernym: number;
  /** softmax temperature over the per-type match quality (0–1) */
  temperature: number;
}
const PHRASE_WEIGHT = 0.5;
export const NEED_TUNING: NeedTuning = { floor: 0.45, synonym: 0.75, hypernym: 0.55, temperature: 0.08 };

/**
 * Which product types a query describes, from what they are for: each content word of the
 * query is matched against every type's need text (authored needs, problems, places, users,
 * everyday words, names and synonyms) — exactly, through WordNet synonyms and hypernyms, or
 * by the cosine of pretrained word vectors — and a type scores the idf-weighted sum of its
 * best match per word (soft BM25: a word that matches many types weighs little). Two-word
 * phrases the query shares with a type's text add to it. The scores over all types become a
 * confidence by a softmax. Returns the best candidates, most likely first.
 */
export function inferTypes(
  db: Db,
  text: string,
  tuning: NeedTuning = NEED_TUNING,
  limit = 5,
): TypeCandidate[] {
  const m = model(db);
  if (!m) return [];
  const qw = contentWords(text);
  if (qw.length === 0) return [];
  const n = m.types.length;
  const D = m.terms.length;
  const scores = new Float64Array(n);
  const why: string[][] = m.types.map(() => []);
  let idfSum = 0;
  const sims = new Float32Array(D);
  const q = new Float32Array(m.dims);
  const seen = new Set<string>();
  for (const w of qw) {
    if (seen.has(w.term)) continue;
    seen.add(w.term);
    const { best, bestTerm, df } = wordMatches(m, w, tuning, sims, q);
    const idf = Math.log(1 + n / (1 + df));
    idfSum += idf;
    for (let i = 0; i < n; i++) {
      if (best[i]! <= 0) continue;
      scores[i]! += idf * best[i]!;
      const type = m.types[i]!;
      const term = m.terms[type.ids[bestTerm[i]!]!]!;
      why[i]!.push(
        term === w.term
          ? `${w.raw} (${type.fields[bestTerm[i]!]})`
          : `${w.raw} → ${term} (${type.fields[bestTerm[i]!]})`,
      );
    }
  }
  // shared two-word phrases
  for (let k = 0; k + 1 < qw.length; k++) {
    const t = m.termIndex.get(`${qw[k]!.term} ${qw[k + 1]!.term}`);
    if (t === undefined) continue;
    const holders = m.types.filter((type) => type.ids.includes(t)).length;
    const idf = Math.log(1 + n / (1 + holders));
    m.types.forEach((type, i) => {
      const at = type.ids.indexOf(t);
      if (at < 0) return;
      // a shared phrase confirms the words already matched one by one: half weight
      scores[i]! += PHRASE_WEIGHT * idf * type.weights[at]!;
      why[i]!.push(`"${m.terms[t]}" (${type.fields[at]})`);
    });
    idfSum += PHRASE_WEIGHT * idf;
  }
  if (idfSum <= 0) return [];
  // match quality 0–1, then a softmax
  let max = -Infinity;
  for (let i = 0; i < n; i++) max = Math.max(max, scores[i]! / idfSum);
  if (max <= 0) return [];
  const p = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    p[i] = Math.exp((scores[i]! / idfSum - max) / tuning.temperature);
    sum += p[i]!;
  }
  return [...m.types.keys()]
    .sort((a, b) => p[b]! - p[a]! || a - b)
    .slice(0, limit)
    .map((i) => ({
      id: m.types[i]!.id,
      slug: m.types[i]!.slug,
      name: m.types[i]!.name,
      confidence: Math.round((p[i]! / sum) * 1000) / 1000,
      matched: why[i]!,
    }))
    .filter((c) => c.confidence >= 0.01);
}

interface WordMatch {
  /** per type: the best weighted similarity of the word to the type's terms */
  best: Float64Array;
  /** per type: which of its terms that was (-1 none) */
  bestTerm: Int32Array;
  /** soft document frequency: the sum of `best` */
  df: number;
}

/** What one query word matches in every type; kept per snapshot for words seen before. */
function wordMatches(
  m: NeedModel,
  w: { raw: string; term: string },
  tuning: NeedTuning,
  sims: Float32Array,
  q: Float32Array,
): WordMatch {
  const cacheable = tuning === NEED_TUNING;
  const hit = cacheable ? m.cache.get(w.raw) : undefined;
  if (hit) return hit;
  const n = m.types.length;
  sims.fill(0);
  const row = m.words.get(w.raw) ?? m.words.get(w.term);
  let hasVector = false;
  if (row !== undefined && m.dims > 0) {
    const s = m.wordScales[row]!;
    for (let d = 0; d < m.dims; d++) q[d] = m.wordVectors[row * m.dims + d]! * s;
    hasVector = true;
    for (const t of m.unigrams) {
      const c = dot(m.termVectors, t * m.dims, q, m.dims);
      sims[t] = c > tuning.floor ? (c - tuning.floor) / (1 - tuning.floor) : 0;
    }
  }
  for (const [t, kind] of m.wordnet[w.raw] ?? m.wordnet[w.term] ?? []) {
    const credit = kind === 's' ? tuning.synonym : tuning.hypernym;
    // a relation of an unrelated sense ("kids" → shaver) has no support in the vectors
    if (hasVector) {
      if (dot(m.termVectors, t * m.dims, q, m.dims) < 0.2) continue;
    }
    sims[t] = Math.max(sims[t]!, credit);
  }
  const exact = m.termIndex.get(w.term);
  if (exact !== undefined) sims[exact] = 1;

  const best = new Float64Array(n);
  const bestTerm = new Int32Array(n).fill(-1);
  let df = 0;
  for (let i = 0; i < n; i++) {
    const type = m.types[i]!;
    for (let k = 0; k < type.ids.length; k++) {
      const v = sims[type.ids[k]!]! * type.weights[k]!;
      if (v > best[i]!) {
        best[i] = v;
        bestTerm[i] = k;
      }
    }
    df += best[i]!;
  }
  const match = { best, bestTerm, df };
  if (cacheable) {
    // a bounded memo: words repeat across queries; the oldest goes first
    if (m.cache.size >= WORD_CACHE) m.cache.delete(m.cache.keys().next().value!);
    m.cache.set(w.raw, match);
  }
  return match;
}
const WORD_CACHE = 4096;
