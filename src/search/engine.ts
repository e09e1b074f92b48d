import { type Db, stmt } from '../catalog/index.js';
import { normalize } from './embeddings/builtin.js';
import { builtinProvider } from './embeddings/builtin-provider.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { EXACT_SCORE, keywordPlan, keywordRanking, keywordScores, type Ranked } from './keyword.js';
import { type VectorMatrix, vectorsOf } from './snapshot-state.js';
import { fold, words } from './text.js';
import { addRow, vectorRanking, vectorScores } from './vector-search.js';

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['keyword', 'semantic', 'hybrid'];

/** How deep each ranking goes before fusion: deep enough that agreement further down counts. */
const FUSION_DEPTH = 200;
/** How many of the best every-word keyword matches shape the vector query, and how much. */
const FEEDBACK_DEPTH = 5;
const FEEDBACK_WEIGHT = 1;

export interface RankOptions {
  limit: number;
  /** products allowed by the filters (by rowid); null = all */
  allow?: ((rowid: number) => boolean) | null;
}

export interface SearchEngine {
  readonly provider: EmbeddingProvider;
  /** id of the provider whose vectors semantic ranking uses for this snapshot right now */
  embeddingsFor(db: Db): string;
  /** Products for a query in one mode, best first. */
  rank(db: Db, text: string, mode: SearchMode, options: RankOptions): Promise<Ranked[]>;
  /**
   * For the relevance harness, every mode at once: the top of the whole catalog and the
   * scores of given candidates (no query understanding: the harness's catalogs have titles only).
   */
  evaluate(
    db: Db,
    text: string,
    options: { limit: number; candidates: number[] },
  ): Promise<Record<SearchMode, { top: Ranked[]; among: Map<number, number> }>>;
}

export interface SearchEngineOptions {
  provider?: EmbeddingProvider;
  /** weight of the name's share of the query words in hybrid ranking (default HYBRID_COVERAGE_WEIGHT) */
  coverageWeight?: number;
  /** weight of the pseudo-relevance feedback centroid in the vector query (default FEEDBACK_WEIGHT) */
  feedbackWeight?: number;
  /** weight of the keyword match in semantic ranking, the cosine's being 1 (default LEXICAL_WEIGHT) */
  lexicalWeight?: number;
}

/**
 * Weight of the query words' own match (BM25, scaled to the best) beside the vector cosine in
 * semantic ranking. A vector alone blurs what the words say exactly ("1/2 in" vs "3/4 in");
 * the words' match added to the cosine keeps it, while the vector still brings in products
 * described with other words. One global number, chosen on the relevance harness's average
 * (Home Depot, first 1,000 queries, semantic nDCG@10: 0.278 at 0, 0.336 at 0.3, 0.351 at 1,
 * 0.353 at 2; plain BM25 0.321).
 */
export const LEXICAL_WEIGHT = 2;

/**
 * Weight, in hybrid mode, of the share of the query's words a product's name holds (0–1),
 * added to its semantic score (cosine + LEXICAL_WEIGHT × keyword match) where keyword search
 * has no full match: of products that match only some words, those whose names carry more of
 * them come first (coordination-level matching), the vectors ordering the rest. Chosen on the
 * `tune` half of the Home Depot queries only (see docs/architecture.md).
 */
export const HYBRID_COVERAGE_WEIGHT = 5;

/**
 * Share of the query's words (plural-folded; a word of 3+ letters also as the start of a name
 * word: "galv" → "galvanized") that each product's name holds, 0–1.
 */
function nameCoverage(db: Db, text: string, rowids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  const query = [...new Set(words(text).map(fold))];
  if (query.length === 0 || rowids.length === 0) return out;
  const rows = stmt(db, 'SELECT rowid, name FROM products WHERE rowid IN (SELECT value FROM json_each(?))')
    .raw()
    .all(JSON.stringify(rowids)) as [number, string][];
  for (const [rowid, name] of rows) {
    const nameWords = words(name).map(fold);
    const have = new Set(nameWords);
    let n = 0;
    for (const w of query) if (have.has(w) || (w.length >= 3 && nameWords.some((x) => x.startsWith(w)))) n++;
    out.set(rowid, n / query.length);
  }
  return out;
}

export function createSearchEngine(options: SearchEngineOptions = {}): SearchEngine {
  const provider = options.provider ?? builtinProvider;
  const coverageWeight = options.coverageWeight ?? HYBRID_COVERAGE_WEIGHT;
  const feedbackWeight = options.feedbackWeight ?? FEEDBACK_WEIGHT;
  const lexicalWeight = options.lexicalWeight ?? LEXICAL_WEIGHT;
  /** cosine + lexicalWeight × keyword score / best keyword score, over both rankings' products */
  const blend = (
    kw: Ranked[],
    vec: Ranked[],
    e: { q: Float32Array; matrix: VectorMatrix } | null,
  ): Ranked[] => {
    if (lexicalWeight === 0 || kw.length === 0 || !e) return vec;
    // exact model/GTIN hits carry a sentinel score: the scale is the best word match
    const best = Math.max(0, ...kw.filter((r) => r.score < EXACT_SCORE).map((r) => r.score)) || 1;
    const cos = new Map(vec.map((r) => [r.rowid, r.score]));
    const missing = kw.filter((r) => !cos.has(r.rowid)).map((r) => r.rowid);
    for (const [rowid, c] of vectorScores(e.matrix, e.q, missing)) cos.set(rowid, c);
    const lex = new Map(kw.map((r) => [r.rowid, Math.min(1, r.score / best)]));
    return [...new Set([...cos.keys(), ...lex.keys()])]
      .map((rowid) => ({ rowid, score: (cos.get(rowid) ?? 0) + lexicalWeight * (lex.get(rowid) ?? 0) }))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  };
  /**
   * Hybrid: keyword search's own answer first — the products that match every word (or the
   * exact model/GTIN), in keyword order — then, where keyword search would fall back to partial
   * matches, the semantic ranking with the name's share of the query words added. Measured
   * on Home Depot, keyword order beats any fusion among full matches, and the semantic
   * ranking beats BM25 among partial ones (docs/architecture.md).
   */
  const hybrid = (db: Db, text: string, strict: Ranked[], semantic: Ranked[]): Ranked[] => {
    const head = new Set(strict.map((r) => r.rowid));
    const rest = semantic.filter((r) => !head.has(r.rowid));
    const share =
      coverageWeight > 0
        ? nameCoverage(
            db,
            text,
            rest.map((r) => r.rowid),
          )
        : null;
    const tail = rest
      .map((r) => ({ rowid: r.rowid, score: r.score + coverageWeight * (share?.get(r.rowid) ?? 0) }))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    // full matches score above every other product, in their keyword order
    const top = (tail[0]?.score ?? 0) + 1;
    return [
      ...strict.map((r, i) => ({ rowid: r.rowid, score: top + (strict.length - i) / strict.length })),
      ...tail,
    ];
  };

  interface KeywordSide {
    ranked: Ranked[];
    /** best products that matched every word: the feedback for the vector query */
    feedback: number[];
    /** how many products matched every word (or the exact model/GTIN) */
    strict: number;
  }
  const keyword = (
    db: Db,
    text: string,
    limit: number,
    allow: RankOptions['allow'] | undefined,
    fill = true,
    exhaustive = true,
  ): KeywordSide => {
    // without fill (feedback only) partial matches are of no use
    const options = { fill, relax: fill };
    const plan = keywordPlan(db, text);
    // with filters, rank a few times deeper than needed and go to the end only when too few pass
    let deep = allow ? limit * 8 : limit;
    let result = keywordRanking(db, plan, { limit: deep, ...options });
    let ranked = allow ? result.ranked.filter((r) => allow(r.rowid)) : result.ranked;
    if (exhaustive && allow && ranked.length < limit && result.ranked.length === deep) {
      deep = 1_000_000;
      result = keywordRanking(db, plan, { limit: deep, ...options });
      ranked = result.ranked.filter((r) => allow(r.rowid));
    }
    const strict = result.ranked.slice(0, result.strict);
    const strictAllowed = allow ? strict.filter((r) => allow(r.rowid)) : strict;
    return {
      ranked: ranked.slice(0, limit),
      feedback: strictAllowed.slice(0, FEEDBACK_DEPTH).map((r) => r.rowid),
      strict: strictAllowed.length,
    };
  };
  // the configured provider when its product vectors are ready, else the built-in one
  const vectorSource = (db: Db): EmbeddingProvider =>
    provider.catalogVectors(db) ? provider : builtinProvider;
  /**
   * The query vector, moved toward the vectors of the best products that match every query
   * word (Rocchio pseudo-relevance feedback): the vector ranking then finds products like the
   * ones the words clearly name, including those described with other words.
   */
  const embed = async (db: Db, text: string, feedback: number[]) => {
    const source = vectorSource(db);
    const q = await source.embedQuery(db, text);
    if (!q) return null;
    const matrix = source.catalogVectors(db) ?? vectorsOf(db);
    const rows = feedback.map((r) => (r < matrix.rowOf.length ? matrix.rowOf[r]! : -1)).filter((r) => r >= 0);
    if (rows.length > 0 && matrix.dims === q.length) {
      const centroid = new Float32Array(q.length);
      for (const row of rows) addRow(matrix, row, centroid);
      normalize(centroid);
      for (let i = 0; i < q.length; i++) q[i]! += feedbackWeight * centroid[i]!;
      normalize(q);
    }
    return { q, matrix };
  };
  const semantic = async (
    db: Db,
    text: string,
    limit: number,
    allow: RankOptions['allow'],
    feedback: number[],
  ) => {
    const e = await embed(db, text, feedback);
    return { e, ranked: e ? vectorRanking(e.matrix, e.q, { limit, allow: allow ?? null }) : [] };
  };

  return {
    provider,
    embeddingsFor: (db) => vectorSource(db).id,
    async rank(db, text, mode, { limit, allow }) {
      if (mode === 'keyword') return keyword(db, text, limit, allow).ranked;
      const depth = Math.max(limit, FUSION_DEPTH);
      // Semantic mode without the words' match needs only the best every-word matches, as
      // feedback. Otherwise the keyword side supports the vectors: FUSION_DEPTH deep, and with
      // filters never ranked to the end of the catalog (a need query's words match a fifth of
      // it; ranking all of that was most of a filtered semantic search's time).
      const kw =
        mode === 'semantic' && lexicalWeight === 0
          ? keyword(db, text, FEEDBACK_DEPTH, allow, false)
          : keyword(db, text, FUSION_DEPTH, allow, true, false);
      const vec = await semantic(
        db,
        text,
        mode === 'semantic' && lexicalWeight === 0 ? limit : depth,
        allow,
        kw.feedback,
      );
      if (mode === 'semantic') {
        const ranked = blend(kw.ranked, vec.ranked, vec.e);
        // a query that is a model number or GTIN names its products: they come first
        const named = kw.ranked.filter((r) => r.score >= EXACT_SCORE);
        if (named.length === 0) return ranked.slice(0, limit);
        const ids = new Set(named.map((r) => r.rowid));
        const top = ranked[0]?.score ?? 1;
        return [
          ...named.map((r) => ({ rowid: r.rowid, score: top })),
          ...ranked.filter((r) => !ids.has(r.rowid)),
        ].slice(0, limit);
      }
      return hybrid(db, text, kw.ranked.slice(0, kw.strict), blend(kw.ranked, vec.ranked, vec.e)).slice(
        0,
        limit,
      );
    },
    async evaluate(db, text, { limit, candidates }) {
      // one keyword and one vector ranking per query; hybrid fuses those very rankings
      const depth = Math.max(limit, FUSION_DEPTH);
      const kw = keyword(db, text, depth, null);
      const e = await embed(db, text, kw.feedback);
      const semTop = e ? vectorRanking(e.matrix, e.q, { limit: depth }) : [];
      const kwAmong = keywordScores(db, keywordPlan(db, text), candidates);
      const semAmong = e ? vectorScores(e.matrix, e.q, candidates) : new Map<number, number>();
      const order = (m: Map<number, number>): Ranked[] =>
        [...m].map(([rowid, score]) => ({ rowid, score })).sort((a, b) => b.score - a.score);
      const kwBest = Math.max(0, ...kwAmong.values()) || 1;
      const blendedAmong = new Map(
        [...semAmong].map(([r, c]) => [r, c + lexicalWeight * ((kwAmong.get(r) ?? 0) / kwBest)]),
      );
      // the candidates that match every word, in keyword order, then the rest as hybrid ranks them
      const strictSet = new Set(kw.ranked.slice(0, kw.strict).map((r) => r.rowid));
      const fusedAmong = hybrid(
        db,
        text,
        order(kwAmong).filter((r) => strictSet.has(r.rowid)),
        order(blendedAmong),
      );
      return {
        keyword: { top: kw.ranked.slice(0, limit), among: kwAmong },
        semantic: { top: blend(kw.ranked, semTop, e).slice(0, limit), among: blendedAmong },
        hybrid: {
          top: hybrid(db, text, kw.ranked.slice(0, kw.strict), blend(kw.ranked, semTop, e)).slice(0, limit),
          among: new Map(fusedAmong.map((r) => [r.rowid, r.score])),
        },
      };
    },
  };
}
