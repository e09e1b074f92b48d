import type { Db } from '../catalog/index.js';
import { builtinProvider } from './embeddings/builtin-provider.js';
import type { EmbeddingProvider } from './embeddings/provider.js';
import { keywordPlan, keywordRanking, keywordScores, type Ranked } from './keyword.js';
import { vectorsOf } from './snapshot-state.js';
import { reciprocalRankFusion, vectorRanking, vectorScores } from './vector-search.js';

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';
export const SEARCH_MODES: readonly SearchMode[] = ['keyword', 'semantic', 'hybrid'];

/** How deep each ranking goes before fusion: deep enough that agreement further down counts. */
const FUSION_DEPTH = 200;

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

export function createSearchEngine(options: { provider?: EmbeddingProvider } = {}): SearchEngine {
  const provider = options.provider ?? builtinProvider;

  const keyword = (db: Db, text: string, limit: number, allow?: RankOptions['allow']): Ranked[] => {
    const plan = keywordPlan(db, text);
    if (!allow) return keywordRanking(db, plan, { limit, fill: true }).ranked;
    // filters: rank deeper, then keep the allowed ones
    return keywordRanking(db, plan, { limit: 100_000, fill: true })
      .ranked.filter((r) => allow(r.rowid))
      .slice(0, limit);
  };
  // the configured provider when its product vectors are ready, else the built-in one
  const vectorSource = (db: Db): EmbeddingProvider =>
    provider.catalogVectors(db) ? provider : builtinProvider;
  const embed = async (db: Db, text: string) => {
    const source = vectorSource(db);
    const q = await source.embedQuery(db, text);
    return q ? { q, matrix: source.catalogVectors(db) ?? vectorsOf(db) } : null;
  };
  const semantic = async (db: Db, text: string, limit: number, allow?: RankOptions['allow']) => {
    const e = await embed(db, text);
    return e ? vectorRanking(e.matrix, e.q, { limit, allow: allow ?? null }) : [];
  };

  return {
    provider,
    embeddingsFor: (db) => vectorSource(db).id,
    async rank(db, text, mode, { limit, allow }) {
      if (mode === 'keyword') return keyword(db, text, limit, allow);
      if (mode === 'semantic') return semantic(db, text, limit, allow);
      const depth = Math.max(limit, FUSION_DEPTH);
      const fused = reciprocalRankFusion([
        keyword(db, text, depth, allow),
        await semantic(db, text, depth, allow),
      ]);
      return fused.slice(0, limit);
    },
    async evaluate(db, text, { limit, candidates }) {
      // one keyword and one vector ranking per query; hybrid fuses those very rankings
      const depth = Math.max(limit, FUSION_DEPTH);
      const kwTop = keyword(db, text, depth);
      const e = await embed(db, text);
      const semTop = e ? vectorRanking(e.matrix, e.q, { limit: depth }) : [];
      const kwAmong = keywordScores(db, keywordPlan(db, text), candidates);
      const semAmong = e ? vectorScores(e.matrix, e.q, candidates) : new Map<number, number>();
      const order = (m: Map<number, number>): Ranked[] =>
        [...m].map(([rowid, score]) => ({ rowid, score })).sort((a, b) => b.score - a.score);
      const fusedAmong = reciprocalRankFusion([order(kwAmong), order(semAmong)]);
      return {
        keyword: { top: kwTop.slice(0, limit), among: kwAmong },
        semantic: { top: semTop.slice(0, limit), among: semAmong },
        hybrid: {
          top: reciprocalRankFusion([kwTop, semTop]).slice(0, limit),
          among: new Map(fusedAmong.map((r) => [r.rowid, r.score])),
        },
      };
    },
  };
}
