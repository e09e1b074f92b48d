/**
 * Leave-one-set-out check of the resolver's decision bars: for each data set, the setting
 * is chosen on the *other* sets only, then the held-out set is scored with it. A default
 * that fits one set shows up here as a held-out score below that set's own best; the
 * figures go to docs/ingest.md.
 *
 *   npx tsx eval/er-loo.ts [--demo-products 2000] [--orphans 0.7] [--rule secondChoiceVeto]
 *
 * The sets are the shared benchmarks under ../shared/data/er (resolver alone on their rows),
 * the demo catalog through the real ingest (smaller than eval:er's, for time), and with
 * `--orphans` each benchmark with that share of its second side's partnered listings removed
 * (withOrphans in er.ts): a proxy for retailer pairs where most listings have no partner.
 * The choice maximizes the mean F0.5 of the other sets — precision weighed first, as a wrong
 * merge costs a buyer more than a missed one.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolveOptions } from '../src/ingest/resolve/index.js';
import { DEFAULTS } from '../src/ingest/resolve/resolve.js';
import {
  type Dataset,
  evaluate,
  evaluateDemo,
  loadDataset,
  type PairScores,
  useResolveOptions,
  withOrphans,
} from './er.js';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const demoProducts = flag('--demo-products', 2000);
const orphans = flag('--orphans', 0);

/**
 * `--rule name`: a boolean resolver option (e.g. `secondChoiceVeto`) chosen on the other sets
 * together with the bars, so a rule is kept only if the other sets pick it.
 */
const ruleAt = argv.indexOf('--rule');
const rule = ruleAt >= 0 ? argv[ruleAt + 1] : undefined;
if (rule !== undefined && !(rule in DEFAULTS && typeof DEFAULTS[rule as keyof typeof DEFAULTS] === 'boolean'))
  throw new Error(`--rule expects a boolean resolver option, got "${rule}"`);

/** The settings compared: the clustering's two bars around their defaults (0.5 / 0.25), and the rule. */
const GRID: ResolveOptions[] = [];
for (const value of rule ? [true, false] : [undefined])
  for (const threshold of [0.4, 0.5, 0.6, 0.7])
    for (const mutualBestThreshold of [0.15, 0.25, 0.35, 0.5])
      if (mutualBestThreshold <= threshold)
        GRID.push({ threshold, mutualBestThreshold, ...(rule ? { [rule]: value } : {}) });

const fBeta = (r: PairScores, beta: number): number => {
  const b2 = beta * beta;
  return r.precision + r.recall ? ((1 + b2) * r.precision * r.recall) / (b2 * r.precision + r.recall) : 0;
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../shared/data/er');
const datasets: Dataset[] = existsSync(root)
  ? readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'dataset.json')))
      .map((d) => loadDataset(join(root, d.name)))
  : [];
if (orphans > 0) for (const d of [...datasets]) datasets.push(withOrphans(d, orphans));

const names = [...datasets.map((d) => d.name), 'demo'];
/** scores[setting][set] */
const scores: PairScores[][] = [];
for (const options of GRID) {
  useResolveOptions(options);
  const row: PairScores[] = [];
  for (const d of datasets) {
    const { precision, recall, f1 } = await evaluate(d, true);
    row.push({ precision, recall, f1 });
  }
  const demo = await evaluateDemo(demoProducts);
  row.push({ precision: demo.precision, recall: demo.recall, f1: demo.f1 });
  scores.push(row);
  console.error(`${JSON.stringify(options)} ${row.map((r) => r.f1.toFixed(3)).join(' ')}`);
}

const label = (o: ResolveOptions) =>
  `${o.threshold} / ${o.mutualBestThreshold}${rule ? ` / ${rule} ${String(o[rule as keyof ResolveOptions])}` : ''}`;
const fmt = (r: PairScores) => `${r.precision.toFixed(3)} / ${r.recall.toFixed(3)} / ${r.f1.toFixed(3)}`;
const defaultsAt = GRID.findIndex(
  (o) =>
    o.threshold === DEFAULTS.threshold &&
    o.mutualBestThreshold === DEFAULTS.mutualBestThreshold &&
    (!rule || o[rule as keyof ResolveOptions] === DEFAULTS[rule as keyof typeof DEFAULTS]),
);
console.log(
  '| held-out set | chosen on the others (threshold / mutual bar) | held-out P / R / F1 | defaults P / R / F1 | best setting for this set alone |',
);
console.log('|---|---|---|---|---|');
names.forEach((name, k) => {
  // Orphan proxies are derived from a benchmark: hold out the pair together.
  const base = name.replace(/-orphans\d+$/, '');
  const others = names.map((_, m) => m).filter((m) => names[m]!.replace(/-orphans\d+$/, '') !== base);
  let chosen = 0;
  let bestMean = -1;
  GRID.forEach((_, g) => {
    const mean = others.reduce((sum, m) => sum + fBeta(scores[g]![m]!, 0.5), 0) / others.length;
    if (mean > bestMean + 1e-12) {
      bestMean = mean;
      chosen = g;
    }
  });
  let own = 0;
  GRID.forEach((_, g) => {
    if (fBeta(scores[g]![k]!, 0.5) > fBeta(scores[own]![k]!, 0.5) + 1e-12) own = g;
  });
  console.log(
    `| ${name} | ${label(GRID[chosen]!)} | ${fmt(scores[chosen]![k]!)} | ${fmt(scores[defaultsAt]![k]!)} | ${label(GRID[own]!)}: ${fmt(scores[own]![k]!)} |`,
  );
});
