import type { Db } from '../../catalog/index.js';
import type { RelatedTypeDef } from '../../content/index.js';

/** How many related products of one kind a product keeps. */
const TOP = 5;
/** Similar products are looked for among this many price neighbours on each side. */
const WINDOW = 40;

interface Node {
  id: string;
  type: string | null;
  typeSlug: string | null;
  brand: string | null;
  group: string | null;
  price: number | null;
  quality: number;
  model: string | null;
  series: string | null;
  createdAt: string;
  identity: Map<string, number>;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** 1 for equal prices, 0 at a factor of two apart or more. */
const priceCloseness = (a: number | null, b: number | null): number =>
  a && b ? Math.max(0, 1 - Math.abs(Math.log(a / b)) / Math.LN2) : 0.3;

/** Mean closeness of the numeric identity specs both products state (0.5 when none are shared). */
function specCloseness(a: Map<string, number>, b: Map<string, number>): number {
  let sum = 0;
  let n = 0;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (y === undefined) continue;
    const scale = Math.max(Math.abs(x), Math.abs(y));
    sum += scale === 0 ? 1 : Math.max(0, 1 - Math.abs(x - y) / scale);
    n++;
  }
  return n ? sum / n : 0.5;
}

/**
 * A model number's generation: its letter prefix and first number ("QN65Q80C" → QN, 65).
 * Two models compare only when the prefixes match.
 */
export function modelGeneration(model: string | null): { prefix: string; number: number } | null {
  const m = model?.toUpperCase().match(/^([A-Z]*)[-\s]?(\d+)/);
  return m ? { prefix: m[1]!, number: Number(m[2]) } : null;
}

/**
 * Which of two products of one series is newer: the higher model-number generation when
 * both have the same letter prefix, else the one first seen later (created_at). Null when
 * neither rule decides.
 */
export function newer(
  a: Pick<Node, 'model' | 'createdAt'>,
  b: Pick<Node, 'model' | 'createdAt'>,
): -1 | 0 | 1 {
  const ga = modelGeneration(a.model);
  const gb = modelGeneration(b.model);
  if (ga && gb && ga.prefix === gb.prefix && ga.number !== gb.number) return ga.number > gb.number ? 1 : -1;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt ? 1 : -1;
  return 0;
}

/**
 * Fills the relationships table of a snapshot being built:
 * - similar: same product type, not a variant of the same group, close price and close
 *   numeric identity specs (score = mean of both closenesses); top 5.
 * - series: same brand and series name; successor/predecessor: the nearest newer/older model
 *   of that series by {@link newer} ({@link SeriesGenerations}).
 * - accessory/consumable: products of the related type of `related-types.json`, the
 *   product's own brand first, then by quality; top 5.
 */
export function buildRelationships(db: Db, relatedTypes: readonly RelatedTypeDef[]): number {
  const nodes = (
    db
      .prepare(
        `SELECT p.id, p.product_type_id AS type, t.slug AS typeSlug, p.brand_id AS brand, p.product_group_id AS "group",
           p.current_best_price AS price, p.quality_score AS quality, p.model_number AS model,
           json_extract(p.data_json, '$.series_name') AS series, p.created_at AS createdAt
         FROM products p LEFT JOIN product_types t ON t.id = p.product_type_id WHERE p.data_tier <= 2`,
      )
      .all() as Omit<Node, 'identity'>[]
  ).map((n) => ({ ...n, identity: new Map<string, number>() }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const a of db
    .prepare(
      "SELECT product_id, key, numeric_value FROM product_attributes WHERE role = 'identity' AND numeric_value IS NOT NULL",
    )
    .iterate() as Iterable<{ product_id: string; key: string; numeric_value: number }>)
    byId.get(a.product_id)?.identity.set(a.key, a.numeric_value);

  const insert = db.prepare(
    'INSERT OR IGNORE INTO relationships (product_id, type, related_id, score) VALUES (?,?,?,?)',
  );
  let count = 0;
  const add = (from: string, type: string, to: string, score: number) => {
    count += insert.run(from, type, to, round3(score)).changes;
  };

  const byType = new Map<string, Node[]>();
  for (const n of nodes) {
    if (!n.type) continue;
    const list = byType.get(n.type) ?? [];
    list.push(n);
    byType.set(n.type, list);
  }
  for (const list of byType.values()) {
    list.sort((a, b) => (a.price ?? 0) - (b.price ?? 0));
    list.forEach((n, i) => {
      const scored: { id: string; score: number }[] = [];
      for (let j = Math.max(0, i - WINDOW); j <= Math.min(list.length - 1, i + WINDOW); j++) {
        const m = list[j]!;
        if (m === n || (n.group && m.group === n.group)) continue;
        const score = 0.5 * priceCloseness(n.price, m.price) + 0.5 * specCloseness(n.identity, m.identity);
        if (score >= 0.4) scored.push({ id: m.id, score });
      }
      scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      for (const s of scored.slice(0, TOP)) add(n.id, 'similar', s.id, s.score);
    });
  }

  const bySeries = new Map<string, Node[]>();
  for (const n of nodes) {
    if (!n.brand || !n.series) continue;
    const key = `${n.brand}\u0000${n.typeSlug ?? ''}\u0000${n.series.toLowerCase()}`;
    const list = bySeries.get(key) ?? [];
    list.push(n);
    bySeries.set(key, list);
  }
  for (const list of bySeries.values()) {
    if (list.length < 2) continue;
    const generations = new SeriesGenerations(list);
    for (const n of list) {
      for (const m of list.slice(0, 50)) if (m !== n) add(n.id, 'series', m.id, 1);
      const successor = generations.successor(n);
      const predecessor = generations.predecessor(n);
      if (successor) add(n.id, 'successor', successor.id, 1);
      if (predecessor) add(n.id, 'predecessor', predecessor.id, 1);
    }
  }

  const byTypeSlug = new Map<string, Node[]>();
  for (const list of byType.values())
    if (list[0]?.typeSlug)
      byTypeSlug.set(
        list[0].typeSlug,
        [...list].sort((a, b) => b.quality - a.quality || (a.id < b.id ? -1 : 1)),
      );
  for (const pair of relatedTypes) {
    const sources = byTypeSlug.get(pair.from);
    const targets = byTypeSlug.get(pair.to);
    if (!sources || !targets) continue;
    const pickFor = new Map<string | null, Node[]>();
    for (const n of sources) {
      let picks = pickFor.get(n.brand);
      if (!picks) {
        // the brand's own best first, then the best of the others: a scan of the targets in
        // quality order that stops once the brand has its five
        const own: Node[] = [];
        const others: Node[] = [];
        for (const t of targets) {
          if (t.brand && t.brand === n.brand) own.push(t);
          else if (others.length < TOP) others.push(t);
          if (own.length === TOP) break;
        }
        picks = [...own, ...others].slice(0, TOP);
        pickFor.set(n.brand, picks);
      }
      for (const t of picks) add(n.id, pair.type, t.id, t.brand === n.brand ? 1 : 0.5);
    }
  }
  return count;
}

/**
 * Successors and predecessors within one series, in O(k log k) for k models (the models of
 * a product's own group are stepped over, so a series of large groups adds their size). A
 * model with a generation looks first in its own line (the series' models with the same
 * letter prefix, sorted by generation, then first-seen date): the nearest newer model is the
 * next one up, the nearest older the next one down. A model without a generation, or at the
 * end of its line, takes the model first seen next (or last before it) among the series'
 * other models. Ties go to the model that comes first in the series. This is {@link newer}'s
 * order with the lines kept apart: compared across lines by date alone, newer can go round
 * in a circle (A's generation above B's, B seen after C, C after A), where "nearest" has no
 * answer.
 */
export class SeriesGenerations<Node extends SeriesModel> {
  readonly #generation = new Map<Node, { prefix: string; number: number } | null>();
  readonly #lines = new Map<string, Node[]>();
  readonly #byDate: Node[];

  constructor(list: readonly Node[]) {
    for (const n of list) {
      const g = modelGeneration(n.model);
      this.#generation.set(n, g);
      if (!g) continue;
      const line = this.#lines.get(g.prefix) ?? [];
      line.push(n);
      this.#lines.set(g.prefix, line);
    }
    // stable sorts: equal keys keep the series' order
    for (const line of this.#lines.values()) line.sort(this.#lineOrder);
    this.#byDate = [...list].sort(byDate);
  }

  readonly #lineOrder = (a: Node, b: Node): number =>
    this.#generation.get(a)!.number - this.#generation.get(b)!.number || byDate(a, b);

  /** The nearest newer model of `n`'s series, or null. */
  successor(n: Node): Node | null {
    const g = this.#generation.get(n);
    const line = g ? this.#lines.get(g.prefix)! : [];
    const inLine = this.#first(line, upperBound(line, n, this.#lineOrder), 1, n, () => false);
    return inLine ?? this.#first(this.#byDate, upperBound(this.#byDate, n, byDate), 1, n, this.#inLineOf(g));
  }

  /** The nearest older model of `n`'s series, or null. */
  predecessor(n: Node): Node | null {
    const g = this.#generation.get(n);
    const line = g ? this.#lines.get(g.prefix)! : [];
    const inLine = this.#first(line, lowerBound(line, n, this.#lineOrder) - 1, -1, n, () => false);
    return (
      inLine ?? this.#first(this.#byDate, lowerBound(this.#byDate, n, byDate) - 1, -1, n, this.#inLineOf(g))
    );
  }

  #inLineOf(g: { prefix: string } | null | undefined): (m: Node) => boolean {
    return g ? (m) => this.#generation.get(m)?.prefix === g.prefix : () => false;
  }

  /**
   * The first model from `at` on in direction `step` that is not of `n`'s group nor
   * `skip`ped; walking down, the first in series order among those equal to it.
   */
  #first(
    sorted: readonly Node[],
    at: number,
    step: 1 | -1,
    n: Node,
    skip: (m: Node) => boolean,
  ): Node | null {
    const order = sorted === this.#byDate ? byDate : this.#lineOrder;
    const eligible = (m: Node) => m !== n && !(n.group && m.group === n.group) && !skip(m);
    for (let i = at; i >= 0 && i < sorted.length; i += step) {
      const found = sorted[i]!;
      if (!eligible(found)) continue;
      if (step === 1) return found;
      // from the start of its run of equals (it is eligible itself, so the walk ends by it)
      for (let j = lowerBound(sorted, found, order); ; j++) if (eligible(sorted[j]!)) return sorted[j]!;
    }
    return null;
  }
}

/** What {@link SeriesGenerations} reads of a model. */
export type SeriesModel = Pick<Node, 'model' | 'createdAt' | 'group'>;

const byDate = (a: SeriesModel, b: SeriesModel): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;

/** The first index of `sorted` whose entry orders after `n`. */
function upperBound<T>(sorted: readonly T[], n: T, order: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(sorted[mid]!, n) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index of `sorted` whose entry does not order before `n`. */
function lowerBound<T>(sorted: readonly T[], n: T, order: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(sorted[mid]!, n) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
