/**
 * Entity-resolution evaluation: resolves each two-retailer benchmark under
 * `../shared/data/er` (or `--data DIR`) and reports pairwise precision, recall and F1 of
 * the predicted cross-source pairs against the dataset's `matches.csv`.
 *
 *   npm run eval:er               readable table
 *   npm run eval:er -- --json     {"<dataset>": {"precision": …, "recall": …, "f1": …}}
 *   npm run eval:er -- --data DIR another folder of the same layout
 *
 *   npm run eval:er -- --direct   call resolveListings directly instead of the pipeline
 *   npm run eval:er -- --no-demo  skip the demo catalog (scored by default, 35,000 products;
 *                                 --demo-products N for another size)
 *   npm run eval:er -- --demo-only
 *                                 the demo catalog alone
 *   npm run eval:er -- --demo-pairs
 *                                 also two-retailer sets cut from the seeded demo feeds (see
 *                                 demoPairSets): structured columns, a small side and a large
 *                                 one full of sibling models, most listings without a partner
 *   npm run eval:er -- --set learn=false,oneToOne=true
 *                                 resolver options for an ablation, the same for every set
 *   npm run eval:er -- --orphans 0.5
 *                                 also score each set with that share of the second side's
 *                                 partnered listings removed (see withOrphans)
 *   npm run eval:er -- --explain  also what the matcher learned per set, the blocking's pair
 *                                 completeness, why true pairs were missed and where the
 *                                 predicted pairs came from (method × probability band)
 *   npm run eval:er -- --explain --list
 *                                 also every wrong merge and every missed true pair, one a
 *                                 line with both titles and model columns (to group by cause)
 *   npm run eval:er -- --orphans 0.7 --orphan-hash both
 *                                 which listings go: by a well-mixed hash of the id (`mixed`,
 *                                 the default), the earlier waves' FNV-1a (`fnv`, biased on short
 *                                 ids; its copies are named `…-fnv`) or both
 *   npm run eval:er -- --structured
 *                                 also each benchmark with a model column read off its titles'
 *                                 trailing codes (see structured), as structured sets state it
 *   npm run eval:er -- --demo-pairs --uncoded
 *                                 also each demo pair set with its large side naming no model
 *                                 number (no model column, codes cut from titles; see uncoded)
 *   npm run eval:er -- --orphans 0.5 --orphan-side first
 *                                 the same with the first side's removed, so the other
 *                                 side's listings are mostly without a partner
 *
 * Everything dataset-specific comes from each folder's `dataset.json`. By default each side
 * is written as a retailer's Merchant Center CSV feed and goes through the real ingest
 * (normalize → classify → resolve → publish) into a temporary catalog; the clusters are
 * read back from the published snapshot's listing → product table.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { currentSnapshotPath, openReadOnly } from '../src/catalog/index.js';
import { type Content, loadContent } from '../src/content/index.js';
import { generateDemo, scoreAgainstTruth, type TruthScores } from '../src/demo/index.js';
import { runIngest } from '../src/ingest/index.js';
import { slugify } from '../src/ingest/normalize/index.js';
import {
  FEATURES,
  isModelNumberLike,
  normalizeModelNumber,
  type ResolveOptions,
  type ResolveRecord,
  resolveListings,
} from '../src/ingest/resolve/index.js';
import { DEFAULTS, scoreCandidates } from '../src/ingest/resolve/resolve.js';

/** Resolver options of this run (`--set`); the defaults when empty. One setting for all sets. */
let resolveOptions: ResolveOptions = {};
/** `--explain`: print what the matcher learned on each set, and its blocking's pair completeness. */
let explain = false;
/** `--list` (with `--explain`): print every wrong merge and missed true pair with their titles. */
let list = false;
/**
 * With `--explain`: the candidate pairs of the last resolution (`key\u0000key`, both ways) with
 * their final probability and whether they carry a hard conflict.
 */
let lastCandidates: Map<string, { probability: number; conflict: boolean; method: string }> | null = null;
const resolver = (records: ResolveRecord[]) => {
  if (explain) {
    const { edges } = scoreCandidates(records, { ...DEFAULTS, ...resolveOptions });
    lastCandidates = new Map();
    for (const e of edges) {
      const scored = {
        probability: e.probability,
        conflict: e.conflict,
        method: e.method ?? 'title_similarity',
      };
      lastCandidates.set(`${records[e.i]!.key}\u0000${records[e.j]!.key}`, scored);
      lastCandidates.set(`${records[e.j]!.key}\u0000${records[e.i]!.key}`, scored);
    }
  }
  const result = resolveListings(records, resolveOptions);
  if (explain && result.learned) {
    const { matchShare, weights, iterations } = result.learned;
    console.error(`learned: match share ${matchShare.toFixed(4)} after ${iterations} iterations`);
    for (const [k, f] of FEATURES.entries())
      console.error(`  ${f.name.padEnd(12)} ${weights[k]!.map((w) => w.toFixed(2)).join(' ')}`);
  }
  return result;
};

/** Sets the resolver options every later evaluation in this process uses (eval/er-loo.ts). */
export function useResolveOptions(options: ResolveOptions): void {
  resolveOptions = options;
}

/** Parses `--set a=1,b=false` into resolver options. */
export function parseResolveOptions(text: string): ResolveOptions {
  const out: Record<string, number | boolean> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    if (!name || value === undefined) throw new Error(`--set expects name=value, got "${part}"`);
    out[name] = value === 'true' ? true : value === 'false' ? false : Number(value);
    if (typeof out[name] === 'number' && !Number.isFinite(out[name]))
      throw new Error(`--set ${name}: not a number`);
  }
  return out as ResolveOptions;
}

/** The fields a benchmark side may map; only id and title are required. */
const FIELDS = ['id', 'title', 'description', 'brand', 'model', 'category', 'price'] as const;
type Field = (typeof FIELDS)[number];

/** One listing of a benchmark side, with columns already mapped to our field names. */
export type DatasetRow = { id: string; title: string } & Partial<
  Record<Exclude<Field, 'id' | 'title'>, string>
>;

/** One retailer's table. */
export interface DatasetSide {
  retailer: string;
  rows: DatasetRow[];
}

/** A benchmark: two (or more) sides and the true cross-side pairs. */
export interface Dataset {
  name: string;
  sides: DatasetSide[];
  /** True pairs as `[left id, right id]` between sides 0 and 1. */
  matches: Array<[string, string]>;
}

/** A predicted product: the listings it groups, as retailer + id. */
export type Cluster = Array<{ retailer: string; id: string }>;

interface DatasetManifest {
  name?: string;
  sides: Array<{ retailer: string; file: string; columns: Partial<Record<Field, string>> }>;
  matches: { file: string; columns: [string, string] };
}

function readCsv(path: string): Array<Record<string, string>> {
  return parse(readFileSync(path, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    relax_quotes: true,
    bom: true,
  });
}

/** Reads a benchmark folder as described by its `dataset.json`. */
export function loadDataset(dir: string): Dataset {
  const manifest = JSON.parse(readFileSync(join(dir, 'dataset.json'), 'utf8')) as DatasetManifest;
  const sides = manifest.sides.map((side): DatasetSide => {
    const rows = readCsv(join(dir, side.file)).map((raw) => {
      const row: Record<string, string> = {};
      for (const field of FIELDS) {
        const column = side.columns[field];
        const value = column ? raw[column] : undefined;
        if (value !== undefined && value !== '') row[field] = value;
      }
      return row as DatasetRow;
    });
    return { retailer: side.retailer, rows: rows.filter((r) => r.id !== undefined && r.title !== undefined) };
  });
  const [left, right] = manifest.matches.columns;
  const matches = readCsv(join(dir, manifest.matches.file)).map((m): [string, string] => [
    m[left] ?? '',
    m[right] ?? '',
  ]);
  return { name: manifest.name ?? dir.split('/').pop() ?? dir, sides, matches };
}

/** Parses prices as feeds write them: `$399.00`, `1,299.99`, `0` (unknown → null). */
export function parsePrice(text: string | undefined): number | null {
  if (!text) return null;
  const value = Number.parseFloat(text.replace(/[^0-9.]/g, ''));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** Merchant Center column for each benchmark field. */
const FEED_COLUMNS: Record<Field, string> = {
  id: 'id',
  title: 'title',
  description: 'description',
  brand: 'brand',
  model: 'mpn',
  category: 'product_type',
  price: 'price',
};

const csvCell = (value: string | undefined): string =>
  value === undefined ? '' : /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/** Writes one benchmark side as a Merchant Center CSV feed. */
export function writeSideFeed(side: DatasetSide, path: string): void {
  const lines = [FIELDS.map((f) => FEED_COLUMNS[f]).join(',')];
  for (const row of side.rows) lines.push(FIELDS.map((f) => csvCell(row[f])).join(','));
  writeFileSync(path, `${lines.join('\n')}\n`);
}

/**
 * The step under evaluation: each side becomes a retailer feed, the whole ingest runs into a
 * temporary data folder, and the published snapshot says which product each listing became.
 */
export async function resolveThroughIngest(
  sides: readonly DatasetSide[],
  content: Content = loadContent(),
): Promise<Cluster[]> {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-eval-er-'));
  try {
    const retailerOf = new Map<string, string>();
    const feeds = sides.map((side) => {
      const retailer = slugify(side.retailer) || 'retailer';
      retailerOf.set(retailer, side.retailer);
      const path = join(dir, `${retailer}.csv`);
      writeSideFeed(side, path);
      return { retailer, path };
    });
    const report = await runIngest({
      dataDir: join(dir, 'data'),
      feeds,
      content,
      day: '2026-01-01',
      resolver,
      // benchmark sides lack prices on many rows; the publish guards are for live feeds
      force: true,
    });
    const snapshot = report.published ? currentSnapshotPath(join(dir, 'data')) : null;
    if (!snapshot) throw new Error(`ingest published nothing: ${JSON.stringify(report.feeds)}`);
    const db = openReadOnly(snapshot);
    try {
      const clusters = new Map<string, Cluster>();
      const rows = db
        .prepare(
          `SELECT r.slug, l.retailer_item_id AS id, l.product_id FROM retailer_listings l
           JOIN retailers r ON r.id = l.retailer_id`,
        )
        .all() as Array<{ slug: string; id: string; product_id: string }>;
      for (const row of rows) {
        const cluster = clusters.get(row.product_id) ?? [];
        cluster.push({ retailer: retailerOf.get(row.slug) ?? row.slug, id: row.id });
        clusters.set(row.product_id, cluster);
      }
      return [...clusters.values()];
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The resolver alone, on the rows as given (`--direct`): no normalization or classification. */
export function resolveDataset(sides: readonly DatasetSide[]): Cluster[] {
  const records: ResolveRecord[] = [];
  const origin: Array<{ retailer: string; id: string }> = [];
  for (const side of sides) {
    for (const row of side.rows) {
      records.push({
        key: `${side.retailer}\u0000${row.id}`,
        source: side.retailer,
        title: row.title,
        description: row.description ?? null,
        brand: row.brand ?? null,
        mpn: row.model ?? null,
        price: parsePrice(row.price),
        productType: null,
      });
      origin.push({ retailer: side.retailer, id: row.id });
    }
  }
  const byKey = new Map(records.map((r, i) => [r.key, origin[i]!]));
  return resolver(records).products.map((p) => p.keys.map((k) => byKey.get(k)!));
}

/** A stable number in [0, 1) for a string (FNV-1a), so a derived set is the same every run. */
function unitHash(text: string): number {
  return fnv1a(text) / 2 ** 32;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * {@link unitHash} with MurmurHash3's final mix: FNV-1a alone leaves the last character in the
 * low bits, so ids that differ only there (`b0` … `b199`) crowd one end of [0, 1) (99 % below
 * 0.7); the mix spreads every input bit over the whole word.
 */
export function mixedUnitHash(text: string): number {
  let h = fnv1a(text);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/**
 * How {@link withOrphans} picks listings: `mixed` (the default since wave 8) or `fnv`, the
 * earlier waves' hash, biased on short ids, kept so their figures can be reproduced.
 */
export type OrphanHash = 'mixed' | 'fnv';

/**
 * A harder copy of a benchmark: `share` of the second side's listings (or the first's, with
 * `side` 0) that have a true partner are removed (chosen by a hash of their id), with their
 * true pairs. Their partners on the other side are left without a match, as most listings of a real retailer pair are
 * (on the benchmarks most listings were kept because they have a partner). A matcher that
 * merges every listing with its most similar remaining candidate loses precision here; one
 * that weighs how much evidence a merge has does not.
 */
export function withOrphans(
  dataset: Dataset,
  share: number,
  side: 0 | 1 = 1,
  hash: OrphanHash = 'mixed',
): Dataset {
  const unit = hash === 'fnv' ? unitHash : mixedUnitHash;
  const partnered = new Set(dataset.matches.map((pair) => pair[side]));
  const removed = new Set([...partnered].filter((id) => unit(id) < share));
  return {
    name: `${dataset.name}-orphans${Math.round(share * 100)}${side === 0 ? '-first' : ''}${hash === 'fnv' ? '-fnv' : ''}`,
    sides: dataset.sides.map((s, k) =>
      k === side ? { ...s, rows: s.rows.filter((r) => !removed.has(r.id)) } : s,
    ),
    matches: dataset.matches.filter((pair) => !removed.has(pair[side])),
  };
}

/**
 * A structured copy of a benchmark, shaped like sets whose feeds state a model column
 * (Walmart-Amazon's `modelno`): a side without a model column gets one from its titles, where
 * a title ends with a code after a spaced dash (`Sony Turntable - PSLX350H`): a single token
 * of 4 to 24 characters with a digit, as both Abt-Buy retailers write their codes. The title
 * is kept as it is. Sides that state a model, and titles without such an ending, are left
 * alone. The feed then says which code is the listing's own, so the resolver's reading of a
 * stated model number (its primary code, the same-item groups, `ownCodeDecides`) is what gets
 * scored — and a retailer's own suffixed code (`… - GSD4000WH`) becomes a stated model.
 */
export function structured(dataset: Dataset): Dataset {
  const trailingCode = (title: string): string | undefined => {
    const m = / - ([A-Za-z0-9][A-Za-z0-9./_-]{2,23})\s*$/.exec(title);
    return m && /\d/.test(m[1]!) ? m[1] : undefined;
  };
  return {
    name: `${dataset.name}-structured`,
    sides: dataset.sides.map((side) =>
      side.rows.some((r) => r.model)
        ? side
        : {
            ...side,
            rows: side.rows.map((r) => {
              const model = trailingCode(r.title);
              return model ? { ...r, model } : r;
            }),
          },
    ),
    matches: dataset.matches,
  };
}

/**
 * A copy of a set whose second side names no model number, shaped like a large retailer side
 * that leaves its model column empty and writes titles without codes (Walmart-Amazon's Amazon
 * side often does): that side loses its model column, and each title loses every token that
 * reads as a model number (`isModelNumberLike`) and the spaced dash before a trailing one. Its
 * sibling models then differ in their titles only by colour, size or a word, and nothing but
 * titles, brands and prices tells a listing's partner from its look-alikes. Used with the demo
 * pairs (`--uncoded`), whose large sides list whole model lines.
 */
export function uncoded(dataset: Dataset): Dataset {
  const strip = (title: string): string =>
    title
      .split(/\s+/)
      .filter((token) => !isModelNumberLike(normalizeModelNumber(token)))
      .join(' ')
      .replace(/\s+-\s*$|\s+-(?=\s+-)/g, '')
      .trim();
  return {
    name: `${dataset.name}-uncoded`,
    sides: dataset.sides.map((side, k) =>
      k === 1
        ? {
            ...side,
            rows: side.rows.map(({ model: _model, ...r }) => ({ ...r, title: strip(r.title) || r.title })),
          }
        : side,
    ),
    matches: dataset.matches,
  };
}

/**
 * Two-retailer benchmarks cut from the seeded demo feeds in `dir` (a `generateDemo` output),
 * shaped like a structured two-retailer set whose one side is much larger: retailers are paired
 * in name order (first with second, third with fourth, …); the first of each pair keeps `share`
 * of its listings (by a hash of the id), the second all. Columns: title, brand, model (mpn),
 * category (product_type) and price — no GTIN, so model numbers and titles must do the work.
 * True pairs come from the generator's ground truth. Each retailer lists sibling models,
 * colors and sizes of one line beside each other: the look-alikes a listing without a partner
 * gets merged with.
 */
export function demoPairSets(dir: string, share = 0.35): Dataset[] {
  const truth = new Map<string, string>();
  for (const row of readCsv(join(dir, 'ground-truth.csv')))
    truth.set(`${row.retailer}\u0000${row.item_id}`, row.product_key!);
  const feeds = readdirSync(dir)
    .filter((f) => /\.(csv|tsv)$/.test(f) && f !== 'ground-truth.csv')
    .sort();
  const sideOf = (file: string): DatasetSide => {
    const retailer = file.replace(/\.(csv|tsv)$/, '');
    const rows = (
      parse(readFileSync(join(dir, file), 'utf8'), {
        columns: true,
        delimiter: file.endsWith('.tsv') ? '\t' : ',',
        relax_quotes: true,
      }) as Array<Record<string, string>>
    ).map((r): DatasetRow => {
      const row: DatasetRow = { id: r.id!, title: r.title! };
      if (r.brand) row.brand = r.brand;
      if (r.mpn) row.model = r.mpn;
      if (r.product_type) row.category = r.product_type;
      if (r.price) row.price = r.price;
      return row;
    });
    return { retailer, rows };
  };
  const sets: Dataset[] = [];
  for (let k = 0; k + 1 < feeds.length; k += 2) {
    const small = sideOf(feeds[k]!);
    const large = sideOf(feeds[k + 1]!);
    small.rows = small.rows.filter((r) => unitHash(`${r.id}:demo-pair`) < share);
    const byProduct = new Map<string, string[]>();
    for (const r of large.rows) {
      const key = truth.get(`${large.retailer}\u0000${r.id}`);
      if (key) byProduct.set(key, [...(byProduct.get(key) ?? []), r.id]);
    }
    const matches: Array<[string, string]> = [];
    for (const r of small.rows)
      for (const id of byProduct.get(truth.get(`${small.retailer}\u0000${r.id}`) ?? '') ?? [])
        matches.push([r.id, id]);
    sets.push({ name: `demo-${small.retailer}-${large.retailer}`, sides: [small, large], matches });
  }
  return sets;
}

/** Pairwise precision, recall and F1. */
export interface PairScores {
  precision: number;
  recall: number;
  f1: number;
}

/** Expands clusters into pairs between the first two retailers (left id, right id). */
export function predictedPairs(clusters: readonly Cluster[], left: string, right: string): Set<string> {
  const pairs = new Set<string>();
  for (const cluster of clusters) {
    for (const a of cluster) {
      if (a.retailer !== left) continue;
      for (const b of cluster) if (b.retailer === right) pairs.add(`${a.id}\u0000${b.id}`);
    }
  }
  return pairs;
}

/** Scores predicted pairs against the true ones. */
export function scorePairs(predicted: Set<string>, truth: ReadonlyArray<[string, string]>): PairScores {
  const gold = new Set(truth.map(([a, b]) => `${a}\u0000${b}`));
  let hits = 0;
  for (const p of predicted) if (gold.has(p)) hits++;
  const precision = predicted.size ? hits / predicted.size : 0;
  const recall = gold.size ? hits / gold.size : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/**
 * The largest share of true pairs any clustering can reach when each listing has at most one
 * partner per other retailer (a maximum bipartite matching of the true pairs): where a
 * retailer lists one item several times, the one-to-one rule caps recall here.
 */
export function oneToOneCeiling(truth: ReadonlyArray<[string, string]>): number {
  const adjacent = new Map<string, string[]>();
  for (const [a, b] of truth) adjacent.set(a, [...(adjacent.get(a) ?? []), b]);
  const partner = new Map<string, string>();
  const augment = (a: string, seen: Set<string>): boolean => {
    for (const b of adjacent.get(a) ?? []) {
      if (seen.has(b)) continue;
      seen.add(b);
      const holder = partner.get(b);
      if (holder === undefined || augment(holder, seen)) {
        partner.set(b, a);
        return true;
      }
    }
    return false;
  };
  let matched = 0;
  for (const a of adjacent.keys()) if (augment(a, new Set())) matched++;
  return truth.length ? matched / truth.length : 1;
}

/** The resolver's key of a benchmark listing: as `--direct` builds it, or as the ingest does. */
function recordKey(side: DatasetSide | undefined, id: string, direct: boolean): string {
  return direct ? `${side?.retailer}\u0000${id}` : `${slugify(side?.retailer ?? '') || 'retailer'}:${id}`;
}

/**
 * Why true pairs were missed: not proposed by blocking, refused as a hard conflict, scored
 * below the mutual-best bar, or scored high enough yet left out (the one-to-one rule gave a
 * listing's place to another partner). Also the blocking's pair completeness.
 */
function missedPairs(dataset: Dataset, direct: boolean, predicted: Set<string>) {
  if (!lastCandidates || dataset.matches.length === 0) return null;
  const [left, right] = dataset.sides;
  const key = (side: DatasetSide | undefined, id: string) => recordKey(side, id, direct);
  const bar = { ...DEFAULTS, ...resolveOptions }.mutualBestThreshold;
  const missed = { notCandidate: 0, conflict: 0, belowBar: 0, partnerTaken: 0 };
  let candidates = 0;
  for (const [a, b] of dataset.matches) {
    const scored = lastCandidates.get(`${key(left, a)}\u0000${key(right, b)}`);
    if (scored) candidates++;
    if (predicted.has(`${a}\u0000${b}`)) continue;
    if (!scored) missed.notCandidate++;
    else if (scored.conflict) missed.conflict++;
    else if (scored.probability < bar) missed.belowBar++;
    else missed.partnerTaken++;
  }
  return { completeness: candidates / dataset.matches.length, missed };
}

/**
 * Where the predicted pairs came from, right and wrong against the truth: by the match method
 * of their candidate pair and its final probability (≥ 0.9, the threshold's range, or a mutual
 * best below it), or "not a candidate" for pairs joined through a third listing or as one item.
 * On a set whose precision is low this says which path to look at.
 */
export function predictedByPath(
  dataset: Dataset,
  direct: boolean,
  predicted: Set<string>,
): Record<string, { right: number; wrong: number }> | null {
  if (!lastCandidates) return null;
  const [left, right] = dataset.sides;
  const key = (side: DatasetSide | undefined, id: string) => recordKey(side, id, direct);
  const gold = new Set(dataset.matches.map(([a, b]) => `${a}\u0000${b}`));
  const out: Record<string, { right: number; wrong: number }> = {};
  for (const pair of predicted) {
    const [a, b] = pair.split('\u0000') as [string, string];
    const scored = lastCandidates.get(`${key(left, a)}\u0000${key(right, b)}`);
    const band = !scored
      ? 'not a candidate'
      : `${scored.method} ${scored.probability >= 0.9 ? '>= 0.9' : scored.probability >= 0.5 ? '0.5-0.9' : '< 0.5'}`;
    const row = out[band] ?? { right: 0, wrong: 0 };
    if (gold.has(pair)) row.right++;
    else row.wrong++;
    out[band] = row;
  }
  return out;
}

/**
 * `--list`: one line per wrong merge (`WRONG`) and per missed true pair (`MISSED`), with the
 * candidate pair's method and probability (or why it was never scored) and both listings'
 * title and model column, so the errors can be grouped by cause rather than read as figures.
 */
export function listErrors(dataset: Dataset, direct: boolean, predicted: Set<string>): string[] {
  if (!lastCandidates) return [];
  const [left, right] = dataset.sides;
  const key = (side: DatasetSide | undefined, id: string) => recordKey(side, id, direct);
  const rowsOf = (side: DatasetSide | undefined) => new Map((side?.rows ?? []).map((r) => [r.id, r]));
  const leftRows = rowsOf(left);
  const rightRows = rowsOf(right);
  const show = (r: DatasetRow | undefined) =>
    r ? `${r.title}${r.model ? ` [${r.model}]` : ''}${r.price ? ` ${r.price}` : ''}` : '?';
  const how = (a: string, b: string) => {
    const scored = lastCandidates!.get(`${key(left, a)}\u0000${key(right, b)}`);
    if (!scored) return 'not a candidate';
    return `${scored.method} ${scored.probability.toFixed(3)}${scored.conflict ? ' conflict' : ''}`;
  };
  const gold = new Set(dataset.matches.map(([a, b]) => `${a}\u0000${b}`));
  const lines: string[] = [];
  for (const pair of [...predicted].sort()) {
    if (gold.has(pair)) continue;
    const [a, b] = pair.split('\u0000') as [string, string];
    lines.push(
      `  WRONG  ${dataset.name} ${how(a, b)} | ${show(leftRows.get(a))} || ${show(rightRows.get(b))}`,
    );
  }
  for (const [a, b] of dataset.matches) {
    if (predicted.has(`${a}\u0000${b}`)) continue;
    lines.push(
      `  MISSED ${dataset.name} ${how(a, b)} | ${show(leftRows.get(a))} || ${show(rightRows.get(b))}`,
    );
  }
  return lines;
}

/** Resolves and scores one dataset. */
export async function evaluate(
  dataset: Dataset,
  direct = false,
): Promise<PairScores & { seconds: number; pairs: number }> {
  const start = performance.now();
  const clusters = direct ? resolveDataset(dataset.sides) : await resolveThroughIngest(dataset.sides);
  const seconds = (performance.now() - start) / 1000;
  const [left, right] = dataset.sides;
  const predicted = predictedPairs(clusters, left?.retailer ?? '', right?.retailer ?? '');
  if (explain) {
    const why = missedPairs(dataset, direct, predicted);
    console.error(
      `${dataset.name}: blocking pair completeness ${why?.completeness.toFixed(3) ?? 'n/a'}, ` +
        `one-to-one recall ceiling ${oneToOneCeiling(dataset.matches).toFixed(3)}; ` +
        `missed true pairs ${JSON.stringify(why?.missed ?? {})}`,
    );
    const paths = predictedByPath(dataset, direct, predicted) ?? {};
    for (const band of Object.keys(paths).sort())
      console.error(
        `  predicted, ${band.padEnd(26)} right ${paths[band]!.right}, wrong ${paths[band]!.wrong}`,
      );
    if (list) for (const line of listErrors(dataset, direct, predicted)) console.error(line);
  }
  return { ...scorePairs(predicted, dataset.matches), seconds, pairs: predicted.size };
}

/** The seeded demo catalog through the real ingest, scored against the generator's ground truth. */
export async function evaluateDemo(products: number): Promise<TruthScores> {
  const work = mkdtempSync(join(tmpdir(), 'shelf-eval-demo-'));
  try {
    const content = loadContent();
    const demo = await generateDemo({
      outDir: join(work, 'feeds'),
      content,
      products,
      historyDays: 0,
      endDay: '2026-11-21',
    });
    await runIngest({ dataDir: join(work, 'data'), feeds: demo.feeds, content, day: '2026-11-21', resolver });
    return scoreAgainstTruth(join(work, 'data'), demo.truthPath);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const direct = argv.includes('--direct');
  const dataFlag = argv.indexOf('--data');
  explain = argv.includes('--explain');
  list = argv.includes('--list');
  const setFlag = argv.indexOf('--set');
  if (setFlag >= 0) resolveOptions = parseResolveOptions(argv[setFlag + 1] ?? '');
  // The default is ../shared/data/er relative to the repo root, wherever this runs from.
  const root =
    dataFlag >= 0 && argv[dataFlag + 1]
      ? resolve(argv[dataFlag + 1]!)
      : resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/data/er');
  if (!existsSync(root)) {
    console.log(`No entity-resolution data at ${root}; nothing to evaluate.`);
    return;
  }
  const dirs = existsSync(join(root, 'dataset.json'))
    ? [root]
    : readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'dataset.json')))
        .map((d) => join(root, d.name))
        .sort();
  if (dirs.length === 0) {
    console.log(`No dataset.json found under ${root}; nothing to evaluate.`);
    return;
  }
  const results: Record<string, PairScores> = {};
  const rows: string[] = [];
  // `right`, `wrong` and `missed` pair counts show single-pair changes the 3 decimals hide.
  const row = (
    name: string,
    r: PairScores,
    predicted: number,
    truePairs: number,
    seconds: number,
    right = Math.round(r.precision * predicted),
  ) =>
    [
      name.padEnd(30),
      r.precision.toFixed(3).padStart(9),
      r.recall.toFixed(3).padStart(7),
      r.f1.toFixed(3).padStart(6),
      String(predicted).padStart(10),
      String(truePairs).padStart(10),
      String(right).padStart(8),
      String(predicted - right).padStart(6),
      String(truePairs - right).padStart(7),
      seconds.toFixed(2).padStart(8),
    ].join(' ');
  const orphansFlag = argv.indexOf('--orphans');
  const orphans = orphansFlag >= 0 ? Number(argv[orphansFlag + 1]) : 0;
  if (!(orphans >= 0 && orphans < 1)) throw new Error('--orphans expects a share in [0, 1)');
  const sideFlag = argv.indexOf('--orphan-side');
  const sideName = sideFlag >= 0 ? argv[sideFlag + 1] : 'second';
  if (sideName !== 'first' && sideName !== 'second') throw new Error('--orphan-side expects first or second');
  const side = sideName === 'first' ? 0 : 1;
  const hashFlag = argv.indexOf('--orphan-hash');
  const hashName = hashFlag >= 0 ? argv[hashFlag + 1] : 'mixed';
  if (hashName !== 'mixed' && hashName !== 'fnv' && hashName !== 'both')
    throw new Error('--orphan-hash expects mixed, fnv or both');
  const hashes: OrphanHash[] = hashName === 'both' ? ['mixed', 'fnv'] : [hashName];
  const loadedSets = (argv.includes('--demo-only') ? [] : dirs).map(loadDataset);
  if (argv.includes('--demo-pairs')) {
    const pairsWork = mkdtempSync(join(tmpdir(), 'shelf-eval-pairs-'));
    const productsFlag = argv.indexOf('--demo-products');
    await generateDemo({
      outDir: pairsWork,
      content: loadContent(),
      products: productsFlag >= 0 ? Number(argv[productsFlag + 1]) : 5000,
      historyDays: 0,
      endDay: '2026-11-21',
    });
    loadedSets.push(...demoPairSets(pairsWork));
    rmSync(pairsWork, { recursive: true, force: true });
  }
  // `--uncoded`: also each demo pair set with its large side's model numbers taken out
  if (argv.includes('--uncoded'))
    for (const d of [...loadedSets]) if (d.name.startsWith('demo-')) loadedSets.push(uncoded(d));
  // `--structured`: also each benchmark (and its orphaned copies) with a stated model column
  if (argv.includes('--structured'))
    for (const d of [...loadedSets]) if (!d.name.startsWith('demo-')) loadedSets.push(structured(d));
  for (const loaded of loadedSets) {
    const copies = orphans > 0 ? hashes.map((h) => withOrphans(loaded, orphans, side, h)) : [];
    for (const dataset of [loaded, ...copies]) {
      const r = await evaluate(dataset, direct);
      results[dataset.name] = { precision: r.precision, recall: r.recall, f1: r.f1 };
      rows.push(row(dataset.name, r, r.pairs, dataset.matches.length, r.seconds));
    }
  }
  // the demo catalog's own ground truth, unless another data folder was asked for
  if (dataFlag < 0 && !argv.includes('--no-demo')) {
    const productsFlag = argv.indexOf('--demo-products');
    const products = productsFlag >= 0 ? Number(argv[productsFlag + 1]) : 35_000;
    const started = performance.now();
    const r = await evaluateDemo(products);
    results.demo = { precision: r.precision, recall: r.recall, f1: r.f1 };
    rows.push(row('demo', r, r.predicted, r.true, (performance.now() - started) / 1000, r.right));
  }
  if (json) {
    console.log(JSON.stringify(results));
    return;
  }
  console.log(
    [
      'dataset'.padEnd(30),
      'precision',
      ' recall',
      '    f1',
      ' predicted',
      '      true',
      '   right',
      ' wrong',
      ' missed',
      ' seconds',
    ].join(' '),
  );
  for (const row of rows) console.log(row);
}

// Run only as a script, so other harnesses can import resolveDataset and the scorers.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  await main(process.argv.slice(2));
