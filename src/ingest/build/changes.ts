import { hash as oneShotHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { CHANGE_ASPECTS, CHANGE_RETENTION_PUBLISHES, type Db, openReadOnly } from '../../catalog/index.js';

/** What {@link recordChanges} recorded for one publish. */
export interface ChangeSummary {
  /** the publish's number in the change log */
  version: number;
  /** true when there was no previous change log to compare with: nothing was recorded */
  baseline: boolean;
  added: number;
  changed: number;
  removed: number;
}

/**
 * The hash of each aspect the change feed reports, over the rows a product response is made
 * from (not the stored documents, whose format is another module's concern). Offers are in
 * id order, so the order rows were written in never counts as a change. `details` is what
 * the other aspects leave out (description, identifiers, brand, type, group, image, tier):
 * a client that keeps whole documents refetches on any aspect. Offers are read from
 * offer_rows by product rowid (retailer UUIDs joined back), not through the offers view, which
 * joins every offer's product back for its UUID only to group by it: the same rows, a tenth
 * less time.
 */
const FINGERPRINTS = `
INSERT INTO product_fingerprints (product_id, name, price, stock, offers, specs, details)
SELECT p.id,
  change_hash(p.name),
  change_hash(json_array(p.current_best_price, p.min_price, p.max_price, o.prices)),
  change_hash(ifnull(o.stock, '')),
  change_hash(ifnull(o.listings, '')),
  change_hash(json_array(p.specifications_json, p.variant_attributes_json)),
  change_hash(json_array(p.slug, p.description, p.gtin, p.mpn, p.model_number, p.brand_id,
    p.category_id, p.product_type_id, p.product_group_id, p.image_url, p.data_tier))
FROM products p LEFT JOIN (
  SELECT o.product_rowid,
    group_concat(json_array(o.id, o.price, o.original_price, o.currency), ',' ORDER BY o.id) AS prices,
    group_concat(json_array(o.id, o.in_stock, o.availability), ',' ORDER BY o.id) AS stock,
    group_concat(json_array(o.id, r.id, o.retailer_item_id, o.title, o.retailer_url, o.image_url), ',' ORDER BY o.id)
      AS listings
  FROM offer_rows o JOIN retailers r ON r.rowid = o.retailer_rowid GROUP BY o.product_rowid
) o ON o.product_rowid = p.rowid`;

// one-shot sha1 (the same digest as createHash's): a third less CPU over six calls a product
const hash = (text: string | null): string => oneShotHash('sha1', text ?? '', 'base64url').slice(0, 16);

/**
 * Writes this snapshot's product fingerprints, once: {@link keepUpdatedAt} needs them before
 * the product documents are written, {@link recordChanges} after everything else. Nothing
 * between the two changes a product or offer row, so one computation serves both.
 */
export function writeFingerprints(db: Db): void {
  if (db.prepare('SELECT 1 FROM product_fingerprints LIMIT 1').get()) return;
  db.function('change_hash', { deterministic: true }, (text: unknown) =>
    hash(text === null ? null : String(text)),
  );
  db.exec(FINGERPRINTS);
}

/**
 * Gives every product whose fingerprints equal the previous snapshot's the `updated_at` it
 * had there, so `updated_at` moves exactly when the change feed reports the product added or
 * changed (the row was written with the publish time). Runs after products and offers are
 * written and before anything copies `updated_at` into a document. A previous snapshot
 * without fingerprints (none, or an older schema) changes nothing: every product is new to
 * the feed. Returns how many products kept their time.
 */
export function keepUpdatedAt(db: Db, previousPath: string | null): number {
  writeFingerprints(db);
  if (previousPath === null || !existsSync(previousPath)) return 0;
  const aspects = CHANGE_ASPECTS.map((a) => `f.${a}`).join(", ' ', ");
  const current = new Map<string, string>();
  for (const r of db
    .prepare(`SELECT f.product_id AS id, concat_ws(' ', ${aspects}) AS fp FROM product_fingerprints f`)
    .iterate() as Iterable<{ id: string; fp: string }>)
    current.set(r.id, r.fp);
  const keep = db.prepare('UPDATE products SET updated_at = ? WHERE id = ?');
  const prev = openReadOnly(previousPath);
  let kept = 0;
  try {
    if (!prev.prepare("SELECT 1 FROM sqlite_master WHERE name = 'product_fingerprints'").get()) return 0;
    for (const r of prev
      .prepare(
        `SELECT f.product_id AS id, concat_ws(' ', ${aspects}) AS fp, p.updated_at
         FROM product_fingerprints f JOIN products p ON p.id = f.product_id`,
      )
      .iterate() as Iterable<{ id: string; fp: string; updated_at: string }>)
      if (current.get(r.id) === r.fp) kept += keep.run(r.updated_at, r.id).changes;
  } finally {
    prev.close();
  }
  return kept;
}

/**
 * Gives every product group whose row (every column but its timestamps) and member list
 * equal the previous snapshot's (attached as `prev`) the `updated_at` it had there, and every
 * retailer the `created_at` it had there: the writers stamp both with the publish time. Both
 * are read from their rows when served (no document copies them), so this runs with the
 * change log, where the previous snapshot is attached. Columns are compared by name over
 * those both schemas have, so a column a later migration adds is no change by itself.
 * Returns how many groups kept their time.
 */
function keepGroupTimes(db: Db): number {
  const columns = (schema: string, table: string) =>
    new Set(db.prepare('SELECT name FROM pragma_table_info(?, ?)').pluck().all(table, schema) as string[]);
  if (columns('prev', 'retailers').has('created_at'))
    db.exec(
      'UPDATE main.retailers AS r SET created_at = o.created_at FROM prev.retailers o WHERE o.id = r.id',
    );
  const previousGroups = columns('prev', 'product_groups');
  if (!previousGroups.has('updated_at')) return 0;
  const compared = [...columns('main', 'product_groups')].filter(
    (c) => previousGroups.has(c) && c !== 'id' && c !== 'created_at' && c !== 'updated_at',
  );
  // identifiers from the schemas themselves, quoted: no value is interpolated
  const same = compared.map((c) => `o."${c}" IS g."${c}"`).join(' AND ');
  const members = (schema: string) =>
    `(SELECT group_concat(id, ',' ORDER BY id) FROM ${schema}.products WHERE product_group_id = g.id)`;
  return db
    .prepare(
      `UPDATE main.product_groups AS g SET updated_at = o.updated_at
       FROM prev.product_groups o
       WHERE o.id = g.id AND ${same || '1'} AND ${members('main')} IS ${members('prev')}`,
    )
    .run().changes;
}

/**
 * Records what this publish changes against the previous published snapshot: writes the new
 * snapshot's product fingerprints, carries the previous snapshot's change log forward (its
 * last `retention` publishes, default {@link CHANGE_RETENTION_PUBLISHES}) and appends this publish's changes —
 * products added, changed (with the aspects that changed) and removed (tombstones with the
 * last id, and the product their listings went to when they were merged), and lets product
 * groups and retailers keep their times ({@link keepGroupTimes}). Runs in the
 * snapshot's writer, after every product, offer and listing is written. A previous snapshot
 * without a change log (none, or an older schema) makes this publish the baseline.
 */
export function recordChanges(
  db: Db,
  previousPath: string | null,
  run: { run_id: string; published_at: string },
  retention = CHANGE_RETENTION_PUBLISHES,
): ChangeSummary {
  writeFingerprints(db);
  const attached = previousPath !== null && existsSync(previousPath);
  if (attached) db.prepare('ATTACH DATABASE ? AS prev').run(previousPath);
  const hasLog =
    attached &&
    db
      .prepare(
        "SELECT count(*) FROM prev.sqlite_master WHERE name IN ('product_fingerprints', 'change_publishes', 'changes')",
      )
      .pluck()
      .get() === 3;
  try {
    // one transaction: the writer runs without a journal, and a commit per row is slow
    return db.transaction((): ChangeSummary => {
      if (attached) keepGroupTimes(db);
      if (!hasLog) {
        db.prepare(
          'INSERT INTO change_publishes (version, run_id, published_at, head_seq, baseline) VALUES (1, ?, ?, 0, 1)',
        ).run(run.run_id, run.published_at);
        return { version: 1, baseline: true, added: 0, changed: 0, removed: 0 };
      }
      const last = db
        .prepare('SELECT version, head_seq FROM prev.change_publishes ORDER BY version DESC LIMIT 1')
        .get() as { version: number; head_seq: number } | undefined;
      const version = (last?.version ?? 0) + 1;
      // the log keeps the last N publishes, this one included
      const oldest = version - retention + 1;
      db.prepare('INSERT INTO change_publishes SELECT * FROM prev.change_publishes WHERE version >= ?').run(
        oldest,
      );
      db.prepare('INSERT INTO changes SELECT * FROM prev.changes WHERE version >= ?').run(oldest);

      let seq = last?.head_seq ?? 0;
      const insert = db.prepare(
        `INSERT INTO changes (seq, version, type, product_id, slug, name, aspects_json, merged_into)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const counts = { added: 0, changed: 0, removed: 0 };
      const add = (
        type: keyof typeof counts,
        row: { id: string; slug: string; name: string },
        aspects: string[] = [],
        mergedInto: string | null = null,
      ) => {
        insert.run(++seq, version, type, row.id, row.slug, row.name, JSON.stringify(aspects), mergedInto);
        counts[type]++;
      };

      // removed: in the previous catalog, not in this one; merged when its listings moved
      const mergedInto = new Map<string, string>();
      // the product most of its listings went to
      for (const r of db
        .prepare(
          `SELECT pl.product_id AS old_id, nl.product_id AS new_id, count(*) AS n
         FROM prev.retailer_listings pl
         JOIN prev.retailers pr ON pr.id = pl.retailer_id
         JOIN main.retailers nr ON nr.slug = pr.slug
         JOIN main.retailer_listings nl
           ON nl.retailer_id = nr.id AND nl.retailer_item_id = pl.retailer_item_id
         WHERE pl.product_id NOT IN (SELECT id FROM main.products)
         GROUP BY pl.product_id, nl.product_id
         ORDER BY pl.product_id, n DESC, nl.product_id`,
        )
        .all() as { old_id: string; new_id: string }[])
        if (!mergedInto.has(r.old_id)) mergedInto.set(r.old_id, r.new_id);
      for (const row of db
        .prepare(
          'SELECT id, slug, name FROM prev.products WHERE id NOT IN (SELECT id FROM main.products) ORDER BY id',
        )
        .all() as { id: string; slug: string; name: string }[])
        add('removed', row, [], mergedInto.get(row.id) ?? null);

      for (const row of db
        .prepare(
          'SELECT id, slug, name FROM main.products WHERE id NOT IN (SELECT product_id FROM prev.product_fingerprints) ORDER BY id',
        )
        .all() as { id: string; slug: string; name: string }[])
        add('added', row);

      const differs = CHANGE_ASPECTS.map((a) => `n.${a} <> o.${a} AS differs_${a}`).join(', ');
      for (const row of db
        .prepare(
          `SELECT p.id, p.slug, p.name, ${differs}
         FROM main.product_fingerprints n
         JOIN prev.product_fingerprints o ON o.product_id = n.product_id
         JOIN main.products p ON p.id = n.product_id
         WHERE ${CHANGE_ASPECTS.map((a) => `n.${a} <> o.${a}`).join(' OR ')}
         ORDER BY p.id`,
        )
        .all() as ({ id: string; slug: string; name: string } & Record<string, number>)[])
        add(
          'changed',
          row,
          CHANGE_ASPECTS.filter((a) => row[`differs_${a}`] === 1),
        );

      db.prepare(
        'INSERT INTO change_publishes (version, run_id, published_at, head_seq, baseline) VALUES (?, ?, ?, ?, 0)',
      ).run(version, run.run_id, run.published_at, seq);
      return { version, baseline: false, ...counts };
    })();
  } finally {
    if (attached) db.exec('DETACH DATABASE prev');
  }
}
