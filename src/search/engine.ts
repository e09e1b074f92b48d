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
  /** Products for a query in one mode, best first. */
  rank(db: Db, text: string, mode: SearchMode, options: RankOptions): Promise<Ranked[]>;
  /** For the relevance harness: the top of the whole catalog and scores of given candidates. */
  evaluate(
    db: Db,
    text: string,
    mode: SearchMode,
    options: { limit: number; candidates: number[] },
  ): Promise<{ top: Ranked[]; among: Map<number, number> }>;
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
  const semantic = async (db: Db, text: string, limit: number, allow?: RankOptions['allow']) => {
    const q = await provider.embedQuery(db, text);
    return q ? vectorRanking(vectorsOf(db), q, { limit, allow: allow ?? null }) : [];
  };

  return {
    provider,
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
    async evaluate(db, text, mode, { limit, candidates }) {
      const top = await this.rank(db, text, mode, { limit });
      const kw = () => keywordScores(db, keywordPlan(db, text), candidates);
      const vec = async () => {
        const q = await provider.embedQuery(db, text);
        return q ? vectorScores(vectorsOf(db), q, candidates) : new Map<number, number>();
      };
      if (mode === 'keyword') return { top, among: kw() };
      if (mode === 'semantic') return { top, among: await vec() };
      const order = (m: Map<number, number>): Ranked[] =>
        [...m].map(([rowid, score]) => ({ rowid, score })).sort((a, b) => b.score - a.score);
      const fused = reciprocalRankFusion([order(kw()), order(await vec())]);
      return { top, among: new Map(fused.map((r) => [r.rowid, r.score])) };
    },
  };
}
