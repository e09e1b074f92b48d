/**
 * Search relevance harness (`npm run eval:search`). For every set under the data folder
 * (default ../shared/data/search; layout: products.csv `product_uid,title`, queries.csv
 * `query_id,query`, labels.csv `query_id,product_uid,relevance` on 1…3) it builds a catalog
 * through the real ingest path (a retailer feed of id + title), then reports for a plain
 * BM25 over titles and for our keyword, semantic and hybrid modes:
 *   retrieval nDCG@10 and recall@100 over the whole catalog (unjudged = gain 0), and
 *   rerank nDCG@10 over each query's judged products.
 * Gain = relevance − 1. Recall counts judged products with relevance ≥ 2 as relevant.
 * nDCG@10 is also given for two fixed halves of the queries (`tune` / `check`, by a hash of the
 * query id): weights are chosen on `tune` only, and `check` shows whether they carry.
 *
 *   npm run eval:search -- [--data DIR] [--json] [--limit N] [--work DIR] [--api-path] [--coverage-weight W]
 *                          [--needs-only | --no-needs] [--needs-products N] [--needs-data-dir DIR]
 *                          [--verbose]
 *
 * Then the need queries (eval/needs.ts): top-1 and top-5 product-type accuracy of keyword,
 * semantic and hybrid search on a demo catalog of --needs-products products (default 5000,
 * built once into --needs-data-dir and reused), for the whole set and its dev / held-out parts.
 *
 * By default semantic and hybrid are the engine's rankings alone; --api-path takes their
 * top 100 from POST /v2/products/search's code path, with query understanding first.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { demoCatalog } from '../bench/demo-catalog.js';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { loadContent } from '../src/content/index.js';
import { runIngest } from '../src/ingest/index.js';
import { advancedSearch, createSearchEngine, type Ranked } from '../src/search/index.js';
import { hash32 } from '../src/search/text.js';
import { evalNeeds, formatNeedReport, type NeedMiss, readNeedQueries } from './needs.js';

const MODES = ['bm25', 'keyword', 'semantic', 'hybrid'] as const;
type Mode = (typeof MODES)[number];
type Scores = { 'ndcg@10': number; 'recall@100': number; 'rerank_ndcg@10': number };
/**
 * Each set's queries fall in two fixed halves by a hash of the query id: weights are tuned on
 * `tune` only, and `check` says whether what was tuned carries to queries it never saw.
 */
const HALVES = ['tune', 'check'] as const;
type Half = (typeof HALVES)[number];
export const halfOf = (queryId: string): Half => (hash32(queryId, 5) % 2 === 0 ? 'tune' : 'check');
type SetScores = Record<Mode, Scores & { halves: Record<Half, Scores> }>;

function args() {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    data: resolve(value('--data') ?? resolve(process.cwd(), '../shared/data/search')),
    json: argv.includes('--json'),
    /** semantic and hybrid top 100 through the API's path (POST search: query understanding first) */
    apiPath: argv.includes('--api-path'),
    limit: value('--limit') ? Number(value('--limit')) : Number.POSITIVE_INFINITY,
    /** keep each set's catalog in DIR/<set> and reuse it on later runs (faster iteration) */
    work: value('--work'),
    /** weight of the name's share of the query words in hybrid ranking (default: the engine's) */
    coverageWeight: value('--coverage-weight') ? Number(value('--coverage-weight')) : undefined,
    /** weight of the keyword feedback in the vector query (default: the engine's) */
    feedbackWeight: value('--feedback-weight') ? Number(value('--feedback-weight')) : undefined,
    /** weight of the keyword match in semantic ranking (default: the engine's) */
    lexicalWeight: value('--lexical-weight') ? Number(value('--lexical-weight')) : undefined,
    needs: !argv.includes('--no-needs'),
    needsOnly: argv.includes('--needs-only'),
    needsProducts: Number(value('--needs-products') ?? 5000),
    needsDataDir: value('--needs-data-dir'),
    verbose: argv.includes('--verbose'),
  };
}

const readCsv = (path: string): Record<string, string>[] =>
  parse(readFileSync(path), { columns: true, skip_empty_lines: true, bom: true });

const csvField = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function dcg(gains: number[], k: number): number {
  let s = 0;
  for (let i = 0; i < Math.min(k, gains.length); i++) s += (2 ** gains[i]! - 1) / Math.log2(i + 2);
  return s;
}

async function evalSet(
  dir: string,
  limit: number,
  work: string | undefined,
  coverageWeight: number | undefined,
  feedbackWeight: number | undefined,
  lexicalWeight: number | undefined,
  apiPath: boolean,
  log: (s: string) => void,
): Promise<SetScores> {
  const products = readCsv(join(dir, 'products.csv'));
  const queries = readCsv(join(dir, 'queries.csv')).slice(0, limit);
  const labels = new Map<string, Map<string, number>>();
  for (const l of readCsv(join(dir, 'labels.csv'))) {
    let m = labels.get(l.query_id!);
    if (!m) {
      m = new Map();
      labels.set(l.query_id!, m);
    }
    m.set(l.product_uid!, Number(l.relevance) - 1);
  }

  // 1. the catalog, through the real ingest path: one retailer feed of id + title
  const dataDir = work ?? mkdtempSync(join(tmpdir(), 'shelf-eval-search-'));
  try {
    const feed = join(dataDir, 'eval.csv');
    let t = Date.now();
    if (!work || !currentSnapshotPath(dataDir)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(
        feed,
        `id,title\n${products.map((p) => `${csvField(p.product_uid!)},${csvField(p.title!)}`).join('\n')}\n`,
      );
      const report = await runIngest({
        dataDir,
        feeds: [{ retailer: 'eval', path: feed }],
        content: loadContent(),
        // a title-only feed has no prices by design: the unpriced-feed guard must not hold it back
        force: true,
      });
      if (!report.published) throw new Error(`ingest published nothing: ${report.refused}`);
      log(`  ingest: ${report.products} products in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    const db = openReadOnly(currentSnapshotPath(dataDir)!);
    const rowidOfId = new Map(
      (db.prepare('SELECT id, rowid FROM products').raw().all() as [string, number][]).map(([id, r]) => [
        id,
        r,
      ]),
    );
    const uidsOf = new Map<number, string[]>();
    const rowidOf = new Map<string, number>();
    for (const [rowid, uid] of db
      .prepare('SELECT p.rowid, o.retailer_item_id FROM offers o JOIN products p ON p.id = o.product_id')
      .raw()
      .all() as [number, string][]) {
      uidsOf.set(rowid, [...(uidsOf.get(rowid) ?? []), uid]);
      rowidOf.set(uid, rowid);
    }

    // 2. the baseline: a minimal FTS5 table over titles, OR of the query words, plain bm25
    const base = new Database(':memory:');
    base.exec('CREATE VIRTUAL TABLE t USING fts5(title)');
    const ins = base.prepare('INSERT INTO t (rowid, title) VALUES (?, ?)');
    base.transaction(() => {
      for (const p of products) {
        const r = rowidOf.get(p.product_uid!);
        if (r !== undefined) ins.run(r, p.title);
      }
    })();
    const bm25Query = (q: string) => {
      const w = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
      return w ? w.map((x) => `"${x}"`).join(' OR ') : null;
    };
    const bm25Top = base
      .prepare('SELECT rowid, -bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 100')
      .raw();
    // FTS5 runs `rowid IN (…)` as one MATCH per rowid: one pass, kept by a set, is far faster
    const bm25All = base.prepare('SELECT rowid, -bm25(t) FROM t WHERE t MATCH ?').raw();

    const engine = createSearchEngine({
      ...(coverageWeight === undefined ? {} : { coverageWeight }),
      ...(feedbackWeight === undefined ? {} : { feedbackWeight }),
      ...(lexicalWeight === undefined ? {} : { lexicalWeight }),
    });
    const zero = (): Scores => ({ 'ndcg@10': 0, 'recall@100': 0, 'rerank_ndcg@10': 0 });
    // per half, then summed: sums[half][mode]
    const sums = Object.fromEntries(
      HALVES.map((h) => [h, Object.fromEntries(MODES.map((m) => [m, zero()]))]),
    ) as Record<Half, Record<Mode, Scores>>;
    const nNdcg: Record<Half, number> = { tune: 0, check: 0 };
    const nRecall: Record<Half, number> = { tune: 0, check: 0 };
    t = Date.now();
    for (const q of queries) {
      const judged = labels.get(q.query_id!);
      if (!judged) continue;
      const gainOf = (rowid: number) =>
        Math.max(0, ...(uidsOf.get(rowid) ?? []).map((u) => judged.get(u) ?? 0));
      const ideal = dcg(
        [...judged.values()].sort((a, b) => b - a),
        10,
      );
      const relevant = [...judged].filter(([, g]) => g >= 1).map(([u]) => rowidOf.get(u));
      const candidates = [
        ...new Set([...judged.keys()].map((u) => rowidOf.get(u)!).filter((r) => r !== undefined)),
      ];
      const half = halfOf(q.query_id!);
      if (ideal > 0) nNdcg[half]++;
      if (relevant.length > 0) nRecall[half]++;
      const text = q.query!;
      const ours = await engine.evaluate(db, text, { limit: 100, candidates });
      for (const mode of MODES) {
        let top: Ranked[];
        let among: Map<number, number>;
        if (mode === 'bm25') {
          const m = bm25Query(text);
          top = m ? (bm25Top.all(m) as [number, number][]).map(([rowid, score]) => ({ rowid, score })) : [];
          const wanted = new Set(candidates);
          among = new Map(m ? (bm25All.all(m) as [number, number][]).filter(([r]) => wanted.has(r)) : []);
        } else {
          ({ top, among } = ours[mode]);
          if (apiPath && mode !== 'keyword') {
            // every tier: a title-only listing is a tier-3 product, hidden from the API by default
            const res = await advancedSearch(db, engine, {
              query: text,
              mode,
              filters: { data_tier: [1, 2, 3, 4] },
              pagination: { limit: 100 },
            });
            top = res.products.map((p) => ({ rowid: rowidOfId.get(p.id)!, score: p._score ?? 0 }));
          }
        }
        if (ideal > 0) {
          sums[half][mode]['ndcg@10'] +=
            dcg(
              top.map((r) => gainOf(r.rowid)),
              10,
            ) / ideal;
          const reranked = [...candidates].sort(
            (a, b) => (among.get(b) ?? Number.NEGATIVE_INFINITY) - (among.get(a) ?? Number.NEGATIVE_INFINITY),
          );
          sums[half][mode]['rerank_ndcg@10'] += dcg(reranked.map(gainOf), 10) / ideal;
        }
        if (relevant.length > 0) {
          const got = new Set(top.slice(0, 100).map((r) => r.rowid));
          sums[half][mode]['recall@100'] +=
            relevant.filter((r) => r !== undefined && got.has(r)).length / relevant.length;
        }
      }
    }
    log(`  ${queries.length} queries × ${MODES.length} modes in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    db.close();
    base.close();
    const round = (x: number) => Math.round(x * 10000) / 10000;
    const mean = (halves: readonly Half[], m: Mode): Scores => {
      const n = (c: Record<Half, number>) =>
        Math.max(
          1,
          halves.reduce((s, h) => s + c[h], 0),
        );
      const sum = (k: keyof Scores) => halves.reduce((s, h) => s + sums[h][m][k], 0);
      return {
        'ndcg@10': round(sum('ndcg@10') / n(nNdcg)),
        'recall@100': round(sum('recall@100') / n(nRecall)),
        'rerank_ndcg@10': round(sum('rerank_ndcg@10') / n(nNdcg)),
      };
    };
    return Object.fromEntries(
      MODES.map((m) => [
        m,
        { ...mean(HALVES, m), halves: { tune: mean(['tune'], m), check: mean(['check'], m) } },
      ]),
    ) as SetScores;
  } finally {
    if (!work) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const opts = args();
  const log = (s: string) => {
    if (!opts.json) process.stdout.write(`${s}\n`);
    else process.stderr.write(`${s}\n`);
  };
  if (!existsSync(opts.data)) throw new Error(`no data folder at ${opts.data} (use --data DIR)`);
  const sets = readdirSync(opts.data, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(opts.data, d.name, 'products.csv')))
    .map((d) => d.name)
    .sort();
  const out: Record<string, unknown> = {};
  for (const set of opts.needsOnly ? [] : sets) {
    log(`${set}:`);
    const scores = await evalSet(
      join(opts.data, set),
      opts.limit,
      opts.work ? join(resolve(opts.work), set) : undefined,
      opts.coverageWeight,
      opts.feedbackWeight,
      opts.lexicalWeight,
      opts.apiPath,
      log,
    );
    out[set] = scores;
    if (!opts.json) {
      log('  mode      nDCG@10  recall@100  rerank nDCG@10   nDCG@10 tune / check half');
      for (const m of MODES) {
        const s = scores[m];
        log(
          `  ${m.padEnd(9)} ${s['ndcg@10'].toFixed(4)}   ${s['recall@100'].toFixed(4)}      ${s['rerank_ndcg@10'].toFixed(4)}           ${s.halves.tune['ndcg@10'].toFixed(4)} / ${s.halves.check['ndcg@10'].toFixed(4)}`,
        );
      }
    }
  }
  if (opts.needs) {
    const dir = resolve(
      opts.needsDataDir ?? join(tmpdir(), `shelf-eval-needs-stamped-${opts.needsProducts}`),
    );
    log(`need queries (demo catalog of ${opts.needsProducts} products in ${dir}):`);
    const db = openReadOnly(await demoCatalog(dir, opts.needsProducts, (s) => log(`  ${s}`)));
    const misses: NeedMiss[] = [];
    const t = Date.now();
    const queries = readNeedQueries();
    const report = await evalNeeds(db, queries, createSearchEngine(), misses);
    db.close();
    log(`  ${queries.length} queries × 3 modes in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    for (const line of formatNeedReport(report)) log(line);
    if (opts.verbose)
      for (const m of misses)
        log(
          `  miss ${m.mode.padEnd(8)} ${m.query} → ${m.got.slice(0, 3).join(', ')}  (want ${m.expected.join(', ')})`,
        );
    out.needs = report;
  }
  if (opts.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

await main();
