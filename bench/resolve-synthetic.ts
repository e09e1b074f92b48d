/**
 * Timing check for the resolver on synthetic listings (not a unit test):
 *
 *   npx tsx bench/resolve-synthetic.ts [records=100000] [sources=15]
 *
 * Generates products with brand, model number, color variants and noisy titles, lists each
 * at a few retailers (one in ten also has another maker's accessory "for" it, naming its
 * model number), and reports how long resolveListings takes and its pairwise precision and
 * recall against the generator's truth. The budget is 15 s for
 * 100,000 records on a 2-core machine.
 */
import { type ResolveRecord, resolveListings } from '../src/ingest/resolve/index.js';

const total = Number(process.argv[2] ?? 100_000);
const sourceCount = Number(process.argv[3] ?? 15);

/** Small deterministic PRNG so runs are comparable. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = mulberry32(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const BRANDS = Array.from({ length: 400 }, (_, i) => `Brand${i.toString(36)}`);
const NOUNS = [
  'Blender',
  'Toaster',
  'Headphones',
  'Speaker',
  'Camera',
  'Monitor',
  'Router',
  'Drill',
  'Vacuum',
  'Kettle',
];
const ADJS = [
  'Compact',
  'Pro',
  'Wireless',
  'Digital',
  'Portable',
  'Smart',
  'Classic',
  'Ultra',
  'Mini',
  'Deluxe',
];
const ACCESSORIES = ['Case', 'Charger', 'Replacement Filter', 'Wall Mount', 'Remote'];
const COLORS: Array<[string, string]> = [
  ['Black', 'BK'],
  ['White', 'WH'],
  ['Silver', 'SL'],
  ['Red', 'RD'],
];

const records: ResolveRecord[] = [];
/** Indexes of the accessory listings. */
const accessories = new Set<number>();
const truth: string[] = [];
let product = 0;
while (records.length < total) {
  const brand = pick(BRANDS);
  const base = `${brand.slice(5, 7).toUpperCase()}${100 + (product % 9000)}${String.fromCharCode(65 + (product % 26))}`;
  const noun = pick(NOUNS);
  const adj = pick(ADJS);
  const variants = rand() < 0.3 ? 2 : 1;
  for (let v = 0; v < variants; v++) {
    const [colorName, colorCode] = COLORS[v % COLORS.length]!;
    const model = `${base}${colorCode}`;
    const listings = 1 + Math.floor(rand() * 4);
    for (let l = 0; l < listings && records.length < total; l++) {
      const source = `retailer-${(product + l) % sourceCount}`;
      const title =
        l % 2 === 0
          ? `${brand} ${adj} ${noun} ${colorName} - ${model}`
          : `${brand} ${noun} ${adj.toLowerCase()} (${colorName}) ${model.slice(0, 2)}-${model.slice(2)}`;
      truth.push(model);
      records.push({
        key: `${source}:${records.length}`,
        source,
        title,
        brand: l % 3 === 0 ? null : brand,
        price: 20 + (product % 500) + rand() * 5,
        color: colorName,
        itemGroupId: `${brand}-${base}`,
      });
    }
  }
  // One product in ten also has an accessory from another maker that names it: its title
  // shares the product's brand, noun and model number, but it is a different item.
  if (rand() < 0.1 && records.length < total) {
    const maker = pick(BRANDS);
    const code = `${maker.slice(5, 7).toUpperCase()}A${product}`;
    const source = `retailer-${product % sourceCount}`;
    truth.push(code);
    accessories.add(records.length);
    // Half write their own code last, half name only the product served.
    const own = rand() < 0.5 ? ` - ${code}` : '';
    records.push({
      key: `${source}:${records.length}`,
      source,
      title: `${maker} ${pick(ACCESSORIES)} for ${brand} ${noun} ${base}${COLORS[0]![1]}${own}`,
      brand: rand() < 0.5 ? maker : null,
      price: 5 + rand() * 20,
    });
  }
  product++;
}

const start = performance.now();
const cpuStart = process.cpuUsage();
const result = resolveListings(records);
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
// CPU time is the steadier figure when other work shares the machine.
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(
  `${records.length} records from ${sourceCount} sources → ${result.products.length} products, ` +
    `${result.groups.length} variant groups in ${seconds.toFixed(2)} s wall, ${cpuSeconds.toFixed(2)} s CPU (budget 15 s)`,
);
// Pairwise check against the generator's truth (same model = same product).
const productOf = new Map<string, number>();
result.products.forEach((p, i) => {
  for (const k of p.keys) productOf.set(k, i);
});
const byModel = new Map<string, number[]>();
records.forEach((r, i) => {
  const model = truth[i]!;
  const list = byModel.get(model) ?? [];
  list.push(productOf.get(r.key)!);
  byModel.set(model, list);
});
let truePairs = 0;
let found = 0;
for (const ps of byModel.values()) {
  for (let a = 0; a < ps.length; a++)
    for (let b = a + 1; b < ps.length; b++) {
      truePairs++;
      if (ps[a] === ps[b]) found++;
    }
}
let predictedPairs = 0;
for (const p of result.products) predictedPairs += (p.keys.length * (p.keys.length - 1)) / 2;
const merged = [...accessories].filter(
  (i) => result.products[productOf.get(records[i]!.key)!]!.keys.length > 1,
);
console.log(
  `distinct models ${byModel.size}; pair recall ${(found / truePairs).toFixed(4)}, ` +
    `precision ${(found / Math.max(predictedPairs, 1)).toFixed(4)}; ` +
    `${merged.length} of ${accessories.size} accessories merged into another listing's product`,
);
