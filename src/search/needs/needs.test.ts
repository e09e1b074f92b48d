import Database from 'better-sqlite3';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../catalog/index.js';
import type { NeedsDef } from '../../content/index.js';
import { buildNeedIndex } from './build.js';
import { inferTypes } from './infer.js';

const TYPES: [string, string, string[]][] = [
  ['dehumidifier', 'Dehumidifier', []],
  ['humidifier', 'Humidifier', []],
  ['sofa', 'Sofa', ['couch']],
  ['tv-mount', 'TV Mount', ['wall mount']],
];
const NEEDS: NeedsDef[] = [
  {
    product_type: 'dehumidifier',
    needs: ['remove moisture and dampness from the air'],
    problems: ['musty smell', 'damp basement', 'mold'],
    places: ['basement', 'crawl space'],
    users: ['homeowners'],
    words: ['humidity', 'moisture', 'damp'],
  },
  {
    product_type: 'humidifier',
    needs: ['add moisture to dry air'],
    problems: ['dry skin', 'dry throat at night'],
    places: ['bedroom', 'nursery'],
    users: ['babies'],
    words: ['mist', 'vapor'],
  },
  {
    product_type: 'sofa',
    needs: ['comfortable seating for the living room'],
    problems: ['worn out couch'],
    places: ['living room'],
    users: ['families'],
    words: ['couch', 'sectional', 'loveseat'],
  },
  {
    product_type: 'tv-mount',
    needs: ['hang a television on the wall'],
    problems: [],
    places: ['wall'],
    users: ['homeowners'],
    words: ['bracket', 'swivel'],
  },
];

/** Need understanding on a tiny snapshot built with the real word vectors and WordNet. */
describe('need understanding', () => {
  let db: Db;
  beforeAll(() => {
    const sqlite = new Database(':memory:');
    sqlite.exec(`CREATE TABLE product_types (id TEXT, slug TEXT, name TEXT, schema_json TEXT);
      CREATE TABLE search_vocabulary (term TEXT PRIMARY KEY, df INTEGER);`);
    for (const [slug, name, synonyms] of TYPES)
      sqlite
        .prepare('INSERT INTO product_types VALUES (?, ?, ?, ?)')
        .run(`id-${slug}`, slug, name, JSON.stringify({ synonyms }));
    buildNeedIndex(sqlite as unknown as Db, NEEDS);
    db = sqlite as unknown as Db;
  }, 120_000);

  it('maps a need in other words to the type whose need text it matches, and says why', () => {
    const [top] = inferTypes(db, 'the cellar is wet and smells moldy');
    expect(top?.slug).toBe('dehumidifier');
    expect(top!.confidence).toBeGreaterThan(0.5);
    // words matched through vectors or WordNet name the need word they reached
    expect(top!.matched.some((m) => m.includes('→'))).toBe(true);
  });

  it('tells apart needs that share words ("dry" vs "damp")', () => {
    expect(inferTypes(db, 'the baby wakes up with a dry throat')[0]?.slug).toBe('humidifier');
    expect(inferTypes(db, 'somewhere comfy to sit in the living room')[0]?.slug).toBe('sofa');
  });

  it('confidences are a distribution over the types, best first', () => {
    const all = inferTypes(db, 'hang the television on the wall', undefined, 10);
    expect(all[0]?.slug).toBe('tv-mount');
    const sum = all.reduce((s, t) => s + t.confidence, 0);
    expect(sum).toBeLessThanOrEqual(1.01);
    for (let i = 1; i < all.length; i++)
      expect(all[i - 1]!.confidence).toBeGreaterThanOrEqual(all[i]!.confidence);
  });

  it('any text gives a list (maybe empty) of known types, never an error', () => {
    const slugs = new Set(TYPES.map((t) => t[0]));
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const t of inferTypes(db, text)) {
          expect(slugs.has(t.slug)).toBe(true);
          expect(t.confidence).toBeGreaterThanOrEqual(0);
          expect(t.confidence).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a snapshot built without the need index infers nothing', () => {
    const bare = new Database(':memory:') as unknown as Db;
    expect(inferTypes(bare, 'the basement smells musty')).toEqual([]);
  });
});
