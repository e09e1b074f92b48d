import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogMigrations, migrate, openWritable } from '../../catalog/index.js';
import { buildRelationships, modelGeneration, newer } from './relationships.js';

describe('model generations', () => {
  it('reads the letter prefix and the first number', () => {
    expect(modelGeneration('QN65Q80C')).toEqual({ prefix: 'QN', number: 65 });
    expect(modelGeneration('SHPM88Z75N')).toEqual({ prefix: 'SHPM', number: 88 });
    expect(modelGeneration('XR-500')).toEqual({ prefix: 'XR', number: 500 });
    expect(modelGeneration(null)).toBeNull();
  });

  it('orders models of one series by generation, then by first-seen date', () => {
    expect(newer({ model: 'WF50', createdAt: '2020' }, { model: 'WF45', createdAt: '2024' })).toBe(1);
    expect(newer({ model: 'AB10', createdAt: '2025' }, { model: 'XY20', createdAt: '2024' })).toBe(1);
    expect(newer({ model: null, createdAt: '2024' }, { model: null, createdAt: '2024' })).toBe(0);
  });
});

describe('buildRelationships', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shelf-rel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('links similar, series, successor/predecessor and consumables', () => {
    const db = openWritable(join(dir, 'c.db'));
    migrate(db, catalogMigrations);
    db.exec(`
      INSERT INTO brands (id, slug, name, created_at) VALUES ('b1', 'acme', 'Acme', 'x'), ('b2', 'other', 'Other', 'x');
      INSERT INTO product_types (id, slug, name, path) VALUES ('t1', 'dishwasher', 'Dishwasher', 'D'),
        ('t2', 'dishwasher-detergent', 'Detergent', 'D');`);
    const add = db.prepare(
      `INSERT INTO products (id, slug, name, product_type_id, brand_id, current_best_price, model_number, data_json, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01', '2026-01-01')`,
    );
    const series = JSON.stringify({ series_name: '800 Series' });
    add.run('p1', 'p1', 'Acme DW 1', 't1', 'b1', 900, 'DW40', series);
    add.run('p2', 'p2', 'Acme DW 2', 't1', 'b1', 950, 'DW50', series);
    add.run('p3', 'p3', 'Acme DW 3', 't1', 'b1', 990, 'DW60', series);
    add.run('p4', 'p4', 'Other DW', 't1', 'b2', 3000, 'ZZ1', '{}');
    add.run('d1', 'd1', 'Other pods', 't2', 'b2', 20, null, '{}');
    add.run('d2', 'd2', 'Acme pods', 't2', 'b1', 25, null, '{}');
    buildRelationships(db, [{ from: 'dishwasher', to: 'dishwasher-detergent', type: 'consumable' }]);
    const of = (id: string, type: string) =>
      db
        .prepare(
          `SELECT q.id FROM relationships r JOIN products p ON p.rowid = r.product_rowid
           JOIN products q ON q.rowid = r.related_rowid WHERE p.id = ? AND r.type = ? ORDER BY r.score DESC, q.id`,
        )
        .pluck()
        .all(id, type);
    expect(of('p2', 'successor')).toEqual(['p3']);
    expect(of('p2', 'predecessor')).toEqual(['p1']);
    expect(of('p3', 'successor')).toEqual([]);
    expect(of('p1', 'series')).toEqual(['p2', 'p3']);
    // close in price first; the 3000 dishwasher is too far to be similar
    expect(of('p1', 'similar')).toEqual(['p2', 'p3']);
    // the product's own brand first
    expect(of('p1', 'consumable')).toEqual(['d2', 'd1']);
    db.close();
  });
});
