import { type Db, perConnection, stmt } from './database.js';

/** Digits a number is padded to in a sort key: every number in a product name fits. */
const NUMBER_WIDTH = 12;

/**
 * The key a name sorts by: accents folded, case ignored, runs of digits compared as numbers
 * ("65 inch" before "100 inch"), spaces collapsed. Equal keys fall back to the row id.
 */
export function nameSortKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\d+/g, (digits) => {
      const n = digits.replace(/^0+(?=\d)/, '');
      return n.length > NUMBER_WIDTH ? n : n.padStart(NUMBER_WIDTH, '0');
    });
}

/** The tables whose names lists sort by, each with its key column. */
const NAMED_TABLES = ['products', 'product_groups', 'brands', 'product_types'] as const;
type NamedTable = (typeof NAMED_TABLES)[number];

/**
 * Fills the name sort keys of a snapshot being built, once its rows are written: of every
 * named table, or of `tables` where the writer of the others stored each row's key with it
 * (`nameSortKey(name)`; rewriting a large table's every row costs more than its writing did).
 */
export function writeNameKeys(db: Db, tables: readonly NamedTable[] = NAMED_TABLES): void {
  db.function('shelf_name_key', { deterministic: true }, (name: unknown) =>
    typeof name === 'string' ? nameSortKey(name) : null,
  );
  for (const table of tables) {
    if (!NAMED_TABLES.includes(table)) throw new Error(`writeNameKeys: ${table} has no name key`);
    db.exec(`UPDATE ${table} SET name_key = shelf_name_key(name)`);
  }
}

const keyed = perConnection<boolean>();
const hasNameKey = (db: Db, table: string) =>
  (stmt(db, 'SELECT count(*) FROM pragma_table_info(?) WHERE name = ?')
    .pluck()
    .get(table, 'name_key') as number) > 0;

/**
 * The expression a list of `table` (under `alias`) sorts by name with: the stored key, or the
 * name itself in a snapshot written before the keys existed.
 */
export function nameSortExpr(db: Db, table: NamedTable, alias: string): string {
  return keyed(db, table, hasNameKey) ? `${alias}.name_key` : `${alias}.name`;
}
