import { type Db, LEAN_VERSION, nameSortKey, perConnection, schemaVersion, stmt } from '../catalog/index.js';

/**
 * The columns filters, facets and sorting need, for every product of a snapshot, held in
 * memory once per snapshot: filtering and counting 35k products in typed arrays takes well
 * under a millisecond, where the same GROUP BYs in SQL over a result set cost several.
 */
export interface ProductTable {
  /** row → products.rowid, in rowid order */
  rowids: Int32Array;
  rowOf: Map<number, number>;
  brand: (string | null)[];
  category: (string | null)[];
  categoryParent: (string | null)[];
  type: (string | null)[];
  price: Float64Array; // NaN = no price
  inStock: Uint8Array;
  tier: Uint8Array;
  retailers: string[][];
  /** name sort key (catalog nameSortKey) */
  name: string[];
  quality: Float64Array;
  created: string[];
  updated: string[];
}

export interface SpecValues {
  /** rowid → text values of this key */
  text: Map<number, string[]>;
  /** rowid → numeric value of this key */
  numeric: Map<number, number>;
}

const tables = perConnection<ProductTable>();
const specs = perConnection<SpecValues>();

export function productTable(db: Db): ProductTable {
  return tables(db, '', readProductTable);
}

function readProductTable(db: Db): ProductTable {
  const n = stmt(db, 'SELECT count(*) FROM products').pluck().get() as number;
  const t: ProductTable = {
    rowids: new Int32Array(n),
    rowOf: new Map(),
    brand: new Array(n),
    category: new Array(n),
    categoryParent: new Array(n),
    type: new Array(n),
    price: new Float64Array(n),
    inStock: new Uint8Array(n),
    tier: new Uint8Array(n),
    retailers: new Array(n),
    name: new Array(n),
    quality: new Float64Array(n),
    created: new Array(n),
    updated: new Array(n),
  };
  // Ids, timestamps and retailer lists repeat across products: each distinct value is kept
  // once (SQLite hands out a new string per row). On the 35k demo the table took 27 MB of
  // heap before; rows are streamed rather than read all at once, which held them all besides.
  const strings = new Map<string, string>();
  const intern = <T extends string | null>(v: T): T => {
    if (v === null) return v;
    const kept = strings.get(v);
    if (kept !== undefined) return kept as T;
    strings.set(v, v);
    return v;
  };
  const lists = new Map<string, string[]>();
  const NONE: string[] = [];
  const retailersOf = (joined: string | null): string[] => {
    if (!joined) return NONE;
    let list = lists.get(joined);
    if (!list) {
      list = joined.split(',').map(intern);
      lists.set(joined, list);
    }
    return list;
  };
  let i = 0;
  for (const r of stmt(
    db,
    `SELECT p.rowid, p.brand_id, p.category_id, c.parent_id, p.product_type_id, p.current_best_price, p.data_tier,
            p.name, p.quality_score, p.created_at, p.updated_at,
            COALESCE((SELECT max(o.in_stock) FROM offers o WHERE o.product_id = p.id), 0),
            (SELECT group_concat(o.retailer_id) FROM offers o WHERE o.product_id = p.id)
     FROM products p LEFT JOIN categories c ON c.id = p.category_id ORDER BY p.rowid`,
  )
    .raw()
    .iterate() as Iterable<
    [
      number,
      string | null,
      string | null,
      string | null,
      string | null,
      number | null,
      number,
      string,
      number,
      string,
      string,
      number,
      string | null,
    ]
  >) {
    // a count taken before the scan bounds it (the snapshot is read-only: they agree)
    if (i >= n) break;
    t.rowids[i] = r[0];
    t.rowOf.set(r[0], i);
    t.brand[i] = intern(r[1]);
    t.category[i] = intern(r[2]);
    t.categoryParent[i] = intern(r[3]);
    t.type[i] = intern(r[4]);
    t.price[i] = r[5] ?? Number.NaN;
    t.tier[i] = r[6];
    t.name[i] = nameSortKey(r[7]);
    t.quality[i] = r[8];
    t.created[i] = intern(r[9]);
    t.updated[i] = intern(r[10]);
    t.inStock[i] = r[11] ? 1 : 0;
    t.retailers[i] = retailersOf(r[12]);
    i++;
  }
  return t;
}

/** Values of one spec key for every product that has it (typed attributes, spec §2.10). */
export function specValues(db: Db, key: string): SpecValues {
  return specs(db, key, readSpecValues);
}

function readSpecValues(db: Db, key: string): SpecValues {
  const v: SpecValues = { text: new Map(), numeric: new Map() };
  for (const [rowid, value, numeric] of stmt(
    db,
    // keyed by product rowid since schema version 8 (catalog migrations/008-lean.ts)
    schemaVersion(db) >= LEAN_VERSION
      ? 'SELECT a.product_rowid, a.value, a.numeric_value FROM product_attributes a WHERE a.key = ?'
      : 'SELECT p.rowid, a.value, a.numeric_value FROM product_attributes a JOIN products p ON p.id = a.product_id WHERE a.key = ?',
  )
    .raw()
    .all(key) as [number, string, number | null][]) {
    const list = v.text.get(rowid);
    if (list) list.push(value);
    else v.text.set(rowid, [value]);
    if (numeric !== null && !v.numeric.has(rowid)) v.numeric.set(rowid, numeric);
  }
  return v;
}
