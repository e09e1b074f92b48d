import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  catalogMigrations,
  type Db,
  ExpiredCursorError,
  encodeCursor,
  InvalidCursorError,
  listChanges,
  migrate,
  openReadOnly,
  openWritable,
} from '../../catalog/index.js';
import { recordChanges } from './changes.js';

type Products = Record<string, { name: string; specs?: Record<string, string>; group?: string }>;

describe('recordChanges', () => {
  let dir: string;
  let n = 0;
  beforeEach(() => {
    n = 0;
    dir = mkdtempSync(join(tmpdir(), 'shelf-changes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes a snapshot holding `products`, records its changes against `previous`; its path. */
  const publish = (products: Products, previous: string | null, retention?: number) => {
    const path = join(dir, `s${++n}.db`);
    const db: Db = openWritable(path);
    migrate(db, catalogMigrations);
    const insert = db.prepare(
      'INSERT INTO products (id, slug, name, specifications_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const [id, p] of Object.entries(products))
      insert.run(id, `slug-${id}`, p.name, JSON.stringify(p.specs ?? {}), '2026-01-01', `2026-01-0${n}`);
    // each publish stamps its groups and retailer with its own time, as the writers do
    const members = Object.values(products).flatMap((p) => (p.group ? [p.group] : []));
    const addGroup = db.prepare(
      'INSERT INTO product_groups (id, slug, name, variant_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const g of new Set(members))
      addGroup.run(g, `slug-${g}`, g, members.filter((m) => m === g).length, '2026-01-01', `2026-01-0${n}`);
    const setGroup = db.prepare('UPDATE products SET product_group_id = ? WHERE id = ?');
    for (const [id, p] of Object.entries(products)) if (p.group) setGroup.run(p.group, id);
    db.prepare("INSERT INTO retailers (id, slug, name, created_at) VALUES ('r1', 'r1', 'R1', ?)").run(
      `2026-01-0${n}`,
    );
    const summary = recordChanges(
      db,
      previous,
      { run_id: `${String(n).padStart(8, '0')}-run`, published_at: `t${n}` },
      retention,
    );
    db.close();
    return { path, summary };
  };
  const read = <T>(path: string, f: (db: Db) => T): T => {
    const db = openReadOnly(path);
    try {
      return f(db);
    } finally {
      db.close();
    }
  };

  it('records nothing when a publish changes nothing (a timestamp alone is no change)', () => {
    const a = publish({ p1: { name: 'One' } }, null);
    expect(a.summary).toEqual({ version: 1, baseline: true, added: 0, changed: 0, removed: 0 });
    const b = publish({ p1: { name: 'One' } }, a.path);
    expect(b.summary).toEqual({ version: 2, baseline: false, added: 0, changed: 0, removed: 0 });
  });

  it('names the aspects that changed, and keeps numbering across publishes', () => {
    const a = publish({ p1: { name: 'One' }, p2: { name: 'Two' }, p3: { name: 'Three' } }, null);
    const b = publish(
      { p1: { name: 'One renamed' }, p2: { name: 'Two', specs: { w: '1' } }, p4: { name: 'Four' } },
      a.path,
    );
    expect(b.summary).toMatchObject({ added: 1, changed: 2, removed: 1 });
    const c = publish({ p1: { name: 'One renamed' }, p4: { name: 'Four' } }, b.path);
    const all = read(c.path, (db) => listChanges(db, { limit: 100 }).changes);
    expect(all.map((x) => [x.seq, x.version, x.type, x.product_id, x.aspects])).toEqual([
      [1, 2, 'removed', 'p3', []],
      [2, 2, 'added', 'p4', []],
      [3, 2, 'changed', 'p1', ['name']],
      [4, 2, 'changed', 'p2', ['specs']],
      [5, 3, 'removed', 'p2', []],
    ]);
    expect(all[0]).toMatchObject({ name: 'Three', slug: 'slug-p3', merged_into: null, published_at: 't2' });
  });

  it('keeps updated_at of an unchanged product group and created_at of a retailer; moves a group whose members changed', () => {
    const times = (path: string) =>
      read(path, (db) => ({
        group: db.prepare("SELECT updated_at FROM product_groups WHERE id = 'g1'").pluck().get(),
        retailer: db.prepare("SELECT created_at FROM retailers WHERE id = 'r1'").pluck().get(),
      }));
    const a = publish(
      { p1: { name: 'One', group: 'g1' }, p2: { name: 'Two', group: 'g1' }, p3: { name: 'Three' } },
      null,
    );
    const b = publish(
      { p1: { name: 'One', group: 'g1' }, p2: { name: 'Two', group: 'g1' }, p3: { name: 'Three' } },
      a.path,
    );
    expect(times(b.path)).toEqual({ group: '2026-01-01', retailer: '2026-01-01' });
    // the same name and variant count, but another member
    const c = publish(
      { p1: { name: 'One', group: 'g1' }, p2: { name: 'Two' }, p3: { name: 'Three', group: 'g1' } },
      b.path,
    );
    expect(times(c.path)).toEqual({ group: '2026-01-03', retailer: '2026-01-01' });
  });

  it('keeps the last `retention` publishes: an older position expires, numbering carries on', () => {
    let last = publish({ p1: { name: 'v0' } }, null, 2).path;
    const heads: string[] = [];
    for (let i = 1; i <= 4; i++) {
      last = publish({ p1: { name: `v${i}` } }, last, 2).path;
      heads.push(read(last, (db) => listChanges(db, { since: 'now', limit: 1 }).page.nextCursor as string));
    }
    read(last, (db) => {
      const kept = listChanges(db, { limit: 100 }).changes;
      expect(kept.map((c) => [c.seq, c.version])).toEqual([
        [3, 4],
        [4, 5],
      ]);
      // the position after publish 4 is still in the log; after publish 2 it is not
      expect(listChanges(db, { since: heads[2], limit: 100 }).changes.map((c) => c.seq)).toEqual([4]);
      expect(() => listChanges(db, { since: heads[0], limit: 100 })).toThrow(ExpiredCursorError);
    });
  });

  it('answers any since with a page, InvalidCursorError or ExpiredCursorError, never anything else', () => {
    const a = publish({ p1: { name: 'One' } }, null);
    const b = publish({ p1: { name: 'Two' } }, a.path);
    read(b.path, (db) => {
      const since = fc.oneof(
        fc.string({ maxLength: 600 }),
        fc
          .record({
            value: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
            id: fc.string({ maxLength: 70 }),
          })
          .map(({ value, id }) => encodeCursor({ kind: 'keyset', value, id, offset: 0 })),
        fc
          .record({ seq: fc.integer({ min: -5, max: 10 }), version: fc.integer({ min: 0, max: 4 }) })
          .map(({ seq, version }) =>
            encodeCursor({
              kind: 'keyset',
              value: seq,
              id: `${version}.${String(version).padStart(8, '0')}`,
              offset: 0,
            }),
          ),
      );
      fc.assert(
        fc.property(since, (text) => {
          try {
            const { changes, page } = listChanges(db, { since: text, limit: 10 });
            expect(page.nextCursor).toEqual(expect.any(String));
            expect(changes.length).toBeLessThanOrEqual(1);
          } catch (error) {
            expect(error instanceof InvalidCursorError || error instanceof ExpiredCursorError).toBe(true);
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
