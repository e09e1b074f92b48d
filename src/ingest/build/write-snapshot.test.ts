import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertOffer } from '../../../test/helpers/snapshot-rows.js';
import {
  CATALOG_SCHEMA_VERSION,
  catalogMigrations,
  type Db,
  dayNumber,
  LEAN_VERSION,
  migrate,
} from '../../catalog/index.js';
import { carryPriceHistory } from './write-snapshot.js';

const NOW = '2026-11-20T00:00:00Z';

/** A snapshot at `version` with retailer `r` and the offers `ids`, inserted in that order. */
function snapshot(path: string, version: number, ids: string[]): Db {
  const db = new Database(path);
  migrate(
    db,
    catalogMigrations.filter((m) => m.version <= version),
  );
  db.prepare("INSERT INTO retailers (id, slug, name, created_at) VALUES ('r', 'r', 'R', ?)").run(NOW);
  db.prepare(
    "INSERT INTO products (id, slug, name, created_at, updated_at) VALUES ('p', 'p', 'P', ?, ?)",
  ).run(NOW, NOW);
  for (const id of ids)
    insertOffer(db, { id, productId: 'p', retailerId: 'r', itemId: id, title: 'P', seenAt: NOW });
  return db;
}

const carried = (db: Db) =>
  db
    .prepare(
      `SELECT o.id AS offer, date(po.day * 86400, 'unixepoch') AS day, po.cents, po.original_cents, po.in_stock
       FROM price_observations po JOIN offers o ON o.rowid = po.offer_rowid ORDER BY o.id, po.day`,
    )
    .all();

describe('carryPriceHistory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shelf-carry-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Carries the price rows `rows` of a snapshot at `version` listing the offers `ids` into a
   * fresh snapshot that lists the offers b and a (another order), on 2026-11-20.
   */
  const carry = (version: number, ids: string[], rows: (string | number | null)[][]) => {
    const previous = snapshot(join(dir, 'prev.db'), version, ids);
    const row = previous.prepare('INSERT INTO price_observations VALUES (?, ?, ?, ?, ?)');
    for (const r of rows) row.run(...r);
    previous.close();
    const db = snapshot(join(dir, 'next.db'), CATALOG_SCHEMA_VERSION, ['b', 'a']);
    carryPriceHistory(db, join(dir, 'prev.db'), '2026-11-20');
    const result = carried(db);
    db.close();
    return result;
  };

  for (const version of [LEAN_VERSION, CATALOG_SCHEMA_VERSION])
    it(`matches rows by offer, not by rowid, and leaves out the day being written (schema version ${version})`, () => {
      // this run lists the offers in another order, and no longer has 'gone'
      const rows = [
        [1, dayNumber('2026-11-18'), 1000, null, 1],
        [2, dayNumber('2026-11-19'), 2000, 2500, 0],
        [2, dayNumber('2026-11-20'), 1900, 2500, 1],
        [3, dayNumber('2026-11-19'), 500, null, 1],
      ];
      expect(carry(version, ['a', 'b', 'gone'], rows)).toEqual([
        { offer: 'a', day: '2026-11-18', cents: 1000, original_cents: null, in_stock: 1 },
        { offer: 'b', day: '2026-11-19', cents: 2000, original_cents: 2500, in_stock: 0 },
      ]);
    });

  it('converts the rows of a snapshot from before schema version 8 (UUID, day text, prices)', () => {
    const rows = [
      ['a', '2026-11-18', 10.0, null, 1],
      ['b', '2026-11-19', 19.99, 24.95, 0],
      ['b', '2026-11-20', 18.0, null, 1],
    ];
    expect(carry(LEAN_VERSION - 1, ['a', 'b'], rows)).toEqual([
      { offer: 'a', day: '2026-11-18', cents: 1000, original_cents: null, in_stock: 1 },
      { offer: 'b', day: '2026-11-19', cents: 1999, original_cents: 2495, in_stock: 0 },
    ]);
  });
});
