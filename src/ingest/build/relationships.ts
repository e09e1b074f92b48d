import type { Db } from '../../catalog/index.js';
import type { RelatedTypeDef } from '../../content/index.js';
import { BulkInsert } from './bulk-insert.js';

/** How many related products of one kind a product keeps. */
const TOP = 5;
/** Similar products are looked for among this many price neighbours on each side. */
const WINDOW = 40;

interface Node {
  rowid: number;
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

/** The relationship types, in the order SQLite sorts them (the table's key is TEXT). */
const TYPES = ['accessory', 'consumable', 'predecessor', 'series', 'similar', 'successor'] as const;
type RelationshipType = (typeof TYPES)[number];
const TYPE_RANK = new Map<string, number>(TYPES.map((t, i) => [t, i]));
/** Rows per INSERT statement. */
const BATCH = 64;

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Relationship rows gathered in memory, then inserted in the table's key order (product,
 * type, related product): every insert appends to the B-tree instead of landing on a random
 * page, which kept the cost per row growing with the catalog (issue 20). A key given twice
 * keeps its first row, as INSERT OR IGNORE row by row did.
 */
class Links {
  readonly #from: number[] = [];
  readonly #type: number[] = [];
  readonly #to: number[] = [];
  readonly #score: number[] = [];

  add(from: number, type: RelationshipType, to: number, score: number): void {
    this.#from.push(from);
    this.#type.push(TYPE_RANK.get(type)!);
    this.#to.push(to);
    this.#score.push(score);
  }

  /** Inserts the rows; returns how many there are (keys given twice count once). */
  write(db: Db): number {
    const n = this.#from.length;
    const from = this.#from;
    // counting sort by product (stable: rows of one key keep the order they were added in),
    // then each product's few rows by type and related product
    let max = 0;
    for (const f of from) max = Math.max(max, f);
    const start = new Uint32Array(max + 2);
    for (const f of from) start[f + 1]!++;
    for (let r = 1; r < start.length; r++) start[r]! += start[r - 1]!;
    const order = new Uint32Array(n);
    const next = start.slice();
    for (let i = 0; i < n; i++) order[next[from[i]!]!++] = i;
    const type = this.#type;
    const to = this.#to;
    const byKey = (a: number, b: number) => type[a]! - type[b]! || to[a]! - to[b]! || a - b;
    // rows go in BATCH at a time: one statement call per row was most of the cost
    const insert = new BulkInsert(
      db,
      'INSERT INTO relationships (product_rowid, type, related_rowid, score)',
      4,
      BATCH,
    );
    let written = 0;
    for (let r = 0; r <= max; r++) {
      const rows = Array.from(order.subarray(start[r]!, start[r + 1]!)).sort(byKey);
      let last = -1;
      for (const i of rows) {
        if (last >= 0 && type[last] === type[i] && to[last] === to[i]) continue;
        insert.add(r, TYPES[type[i]!]!, to[i]!, this.#score[i]!);
        written++;
        last = i;
      }
    }
    insert.flush();
    return written;
  }
}

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
        `SELECT p.rowid, p.id, p.product_type_id AS type, t.slug AS typeSlug, p.brand_id AS brand, p.product_group_id AS "group",
           p.current_best_price AS price, p.quality_score AS quality, p.model_number AS model,
           json_extract(p.data_json, '$.series_name') AS series, p.created_at AS createdAt
         FROM products p LEFT JOIN product_types t ON t.id = p.product_type_id WHERE p.data_tier <= 2`,
      )
      .all() as Omit<Node, 'identity'>[]
  ).map((n) => ({ ...n, identity: new Map<string, number>() }));
  const byRowid = new Map(nodes.map((n) => [n.rowid, n]));
  // product_attributes is keyed by product then key: one pass in key order, no lookup per row
  for (const [rowid, key, value] of db
    .prepare(
      `SELECT product_rowid, key, numeric_value FROM product_attributes
       WHERE role = 'identity' AND numeric_value IS NOT NULL`,
    )
    .raw()
    .iterate() as Iterable<[number, string, number]>)
    byRowid.get(rowid)?.identity.set(key, value);

  const links = new Links();
  const add = (from: Node, type: RelationshipType, to: Node, score: number) =>
    links.add(from.rowid, type, to.rowid, round3(score));

  const byType = new Map<string, Node[]>();
  for (const n of nodes) if (n.type) pushTo(byType, n.type, n);
  for (const list of byType.values()) {
    list.sort((a, b) => (a.price ?? 0) - (b.price ?? 0));
    list.forEach((n, i) => {
      const scored: { node: Node; id: string; score: number }[] = [];
      for (let j = Math.max(0, i - WINDOW); j <= Math.min(list.length - 1, i + WINDOW); j++) {
        const m = list[j]!;
        if (m === n || (n.group && m.group === n.group)) continue;
        const score = 0.5 * priceCloseness(n.price, m.price) + 0.5 * specCloseness(n.identity, m.identity);
        if (score >= 0.4) scored.push({ node: m, id: m.id, score });
      }
      scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      for (const s of scored.slice(0, TOP)) add(n, 'similar', s.node, s.score);
    });
  }

  const bySeries = new Map<string, Node[]>();
  for (const n of nodes) {
    if (!n.brand || !n.series) continue;
    pushTo(bySeries, `${n.brand}\u0000${n.typeSlug ?? ''}\u0000${n.series.toLowerCase()}`, n);
  }
  for (const list of bySeries.values()) {
    if (list.length < 2) continue;
    const generations = new SeriesGenerations(list);
    for (const n of list) {
      for (const m of list.slice(0, 50)) if (m !== n) add(n, 'series', m, 1);
      const successor = generations.successor(n);
      const predecessor = generations.predecessor(n);
      if (successor) add(n, 'successor', successor, 1);
      if (predecessor) add(n, 'predecessor', predecessor, 1);
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
    // per brand its best targets: a brand's picks are its own best five, then the best of
    // the others, found without scanning all targets once per brand
    const targetsOf = new Map<string, Node[]>();
    for (const t of targets) if (t.brand) pushTo(targetsOf, t.brand, t);
    const pickFor = new Map<string | null, Node[]>();
    for (const n of sources) {
      let picks = pickFor.get(n.brand);
      if (!picks) {
        const own = (n.brand ? (targetsOf.get(n.brand) ?? []) : []).slice(0, TOP);
        const others: Node[] = [];
        for (const t of targets) {
          if (own.length + others.length === TOP) break;
          if (!(t.brand && t.brand === n.brand)) others.push(t);
        }
        picks = [...own, ...others];
        pickFor.set(n.brand, picks);
      }
      for (const t of picks) add(n, pair.type, t, t.brand === n.brand ? 1 : 0.5);
    }
  }
  return links.write(db);
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
