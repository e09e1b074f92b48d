/**
 * Leave-one-set-out check of the resolver's decision bars: for each data set, the setting
 * is chosen on the *other* sets only, then the held-out set is scored with it. A default
 * that fits one set shows up here as a held-out score below that set's own best; the
 * figures go to docs/ingest.md.
 *
 *   npx tsx eval/er-loo.ts [--demo-products 2000] [--orphans 0.7] [--rule secondChoiceVeto]
 *   npx tsx eval/er-loo.ts --rules codeStemKeys,ownCodeDecides [--orphans 0.7]
 *       [--orphan-side first|second|both] [--structured] [--demo-pairs [--uncoded]]
 *
 * With `--rules`, the bars stay at their defaults and each named boolean rule is checked
 * alone: the defaults against the defaults with that rule flipped, on every set; for each
 * held-out set the rule's setting is the one the other sets prefer (mean F0.5). A set derived
 * from another (orphaned, structured copies; the demo pairs from the demo) is held out with it.
 *
 * The sets are the shared benchmarks under ../shared/data/er (resolver alone on their rows),
 * the demo catalog through the real ingest (smaller than eval:er's, for time), and with
 * `--orphans` each benchmark with that share of its second side's partnered listings removed
 * (withOrphans in er.ts): a proxy for retailer pairs where most listings have no partner.
 * The choice maximizes the mean F0.5 of the other sets — precision weighed first, as a wrong
 * merge costs a buyer more than a missed one.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContent } from '../src/content/index.js';
import { generateDemo } from '../src/demo/index.js';
import type { ResolveOptions } from '../src/ingest/resolve/index.js';
import { DEFAULTS } from '../src/ingest/resolve/resolve.js';
import {
  type Dataset,
  demoPairSets,
  evaluate,
  evaluateDemo,
  loadDataset,
  type PairScores,
  structured,
  uncoded,
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
const rulesAt = argv.indexOf('--rules');
const rules = rulesAt >= 0 ? (argv[rulesAt + 1] ?? '').split(',').filter(Boolean) : [];
for (const r of rules)
  if (!(r in DEFAULTS && typeof DEFAULTS[r as keyof typeof DEFAULTS] === 'boolean'))
    throw new Error(`--rules expects boolean resolver options, got "${r}"`);
const ruleAt = argv.indexOf('--rule');
const rule = ruleAt >= 0 ? argv[ruleAt + 1] : undefined;
if (rule !== undefined && !(rule in DEFAULTS && typeof DEFAULTS[rule as keyof typeof DEFAULTS] === 'boolean'))
  throw new Error(`--rule expects a boolean resolver option, got "${rule}"`);

/** The settings compared: the clustering's two bars around their defaults (0.5 / 0.25), and the rule. */
const GRID: ResolveOptions[] = [];
if (rules.length > 0) {
  GRID.push({});
  for (const r of rules) GRID.push({ [r]: !DEFAULTS[r as keyof typeof DEFAULTS] });
} else
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
if (argv.includes('--structured')) for (const d of [...datasets]) datasets.push(structured(d));
const sideAt = argv.indexOf('--orphan-side');
const orphanSide = sideAt >= 0 ? argv[sideAt + 1] : 'second';
const orphanSides: Array<0 | 1> = orphanSide === 'both' ? [1, 0] : orphanSide === 'first' ? [0] : [1];
if (orphans > 0)
  for (const d of [...datasets]) for (const side of orphanSides) datasets.push(withOrphans(d, orphans, side));
if (argv.includes('--demo-pairs')) {
  const work = mkdtempSync(join(tmpdir(), 'shelf-loo-pairs-'));
  await generateDemo({
    outDir: work,
    content: loadContent(),
    products: 5000,
    historyDays: 0,
    endDay: '2026-11-21',
  });
  const pairs = demoPairSets(work);
  rmSync(work, { recursive: true, force: true });
  for (const d of pairs) {
    datasets.push(d);
    if (orphans > 0) for (const side of orphanSides) datasets.push(withOrphans(d, orphans, side));
  }
  // `--uncoded`: also each pair set with its large side naming no model number (uncoded in er.ts)
  if (argv.includes('--uncoded')) for (const d of pairs) datasets.push(uncoded(d));
}
/** The benchmark a set was derived from: held out together. */
const familyOf = (name: string): string =>
  name.startsWith('demo') ? 'demo' : name.replace(/-structured/, '').replace(/-orphans\d+(-first)?$/, '');

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

const fmt = (r: PairScores) => `${r.precision.toFixed(3)} / ${r.recall.toFixed(3)} / ${r.f1.toFixed(3)}`;
if (rules.length > 0) {
  // one row per rule and held-out family: the setting the other families prefer, and the
  // held-out sets' scores with it
  const families = [...new Set(names.map(familyOf))];
  console.log(
    '| rule (default) | held-out sets | chosen on the others | held-out P / R / F1, rule on → off |',
  );
  console.log('|---|---|---|---|');
  rules.forEach((r, k) => {
    const flipped = k + 1;
    const on = DEFAULTS[r as keyof typeof DEFAULTS] ? 0 : flipped;
    const off = on === 0 ? flipped : 0;
    for (const family of families) {
      const others = names.map((_, m) => m).filter((m) => familyOf(names[m]!) !== family);
      const held = names.map((_, m) => m).filter((m) => familyOf(names[m]!) === family);
      const mean = (g: number) =>
        others.reduce((sum, m) => sum + fBeta(scores[g]![m]!, 0.5), 0) / others.length;
      const choice = mean(on) + 1e-12 >= mean(off) ? 'on' : 'off';
      const tie = Math.abs(mean(on) - mean(off)) < 1e-12 ? ' (tie)' : '';
      // only the held-out sets the rule moves
      const moved = held.filter((m) => fmt(scores[on]![m]!) !== fmt(scores[off]![m]!));
      const cells = moved.length
        ? moved.map((m) => `${names[m]}: ${fmt(scores[on]![m]!)} → ${fmt(scores[off]![m]!)}`)
        : [`none of ${held.length} sets moves`];
      console.log(
        `| ${r} (${DEFAULTS[r as keyof typeof DEFAULTS] ? 'on' : 'off'}) | ${family} | ${choice}${tie} | ${cells.join('<br>')} |`,
      );
    }
  });
  process.exit(0);
}
const label = (o: ResolveOptions) =>
  `${o.threshold} / ${o.mutualBestThreshold}${rule ? ` / ${rule} ${String(o[rule as keyof ResolveOptions])}` : ''}`;
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
  const others = names.map((_, m) => m).filter((m) => familyOf(names[m]!) !== familyOf(name));
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
