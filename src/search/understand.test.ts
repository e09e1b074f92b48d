import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { words } from './text.js';
import { typeNamedBy } from './understand.js';

const TYPES = [
  { id: 't-dish', slug: 'dishwasher', name: 'Dishwasher', synonyms: ['dish washer'] },
  { id: 't-det', slug: 'dishwasher-detergent', name: 'Dishwasher Detergent', synonyms: ['dish soap'] },
  { id: 't-wash', slug: 'washing-machine', name: 'Washing Machine', synonyms: ['washer', 'clothes washer'] },
  { id: 't-tv', slug: 'tv', name: 'TV', synonyms: ['television', 'smart tv'] },
  { id: 't-4k', slug: '4k-tv', name: '4K TV', synonyms: ['ultra hd television'] },
];

function catalog() {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE product_types (id TEXT, slug TEXT, name TEXT, schema_json TEXT);
    CREATE TABLE brands (id TEXT, slug TEXT, name TEXT);
    CREATE TABLE brand_aliases (alias TEXT, brand_id TEXT);`);
  for (const t of TYPES)
    db.prepare('INSERT INTO product_types VALUES (?, ?, ?, ?)').run(
      t.id,
      t.slug,
      t.name,
      JSON.stringify({ synonyms: t.synonyms }),
    );
  return db;
}

/** What the query names, by definition: the types of its longest phrase that is a run of its words. */
function longestNamed(text: string): Set<string> {
  const q = ` ${words(text).join(' ')} `;
  let best = 0;
  let ids = new Set<string>();
  for (const t of TYPES)
    for (const raw of [t.name, t.slug.replace(/-/g, ' '), ...t.synonyms]) {
      const phrase = words(raw).join(' ');
      for (const p of [phrase, `${phrase}s`]) {
        if (!q.includes(` ${p} `)) continue;
        if (p.length > best) {
          best = p.length;
          ids = new Set();
        }
        if (p.length === best) ids.add(t.id);
      }
    }
  return ids;
}

describe('typeNamedBy', () => {
  const db = catalog();

  it('names the type of the longest phrase in the query', () => {
    expect(typeNamedBy(db, 'Dishwasher')?.id).toBe('t-dish');
    expect(typeNamedBy(db, 'cheap dishwasher detergent pods')?.id).toBe('t-det');
    expect(typeNamedBy(db, 'samsung 4k tv 65 inch')?.id).toBe('t-4k');
    expect(typeNamedBy(db, 'front load washers')?.id).toBe('t-wash');
    expect(typeNamedBy(db, 'dishwashing')).toBeNull();
    expect(typeNamedBy(db, '')).toBeNull();
  });

  it('agrees with a scan of every phrase on any mix of phrase words and other words', () => {
    const vocabulary = [
      ...new Set(TYPES.flatMap((t) => words([t.name, t.slug, ...t.synonyms].join(' ')))),
      'washers',
      'tvs',
      'cheap',
      'under',
      '500',
      'samsung',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...vocabulary), { maxLength: 8 }), (list) => {
        const text = list.join(' ');
        const expected = longestNamed(text);
        const found = typeNamedBy(db, text);
        if (expected.size === 0) expect(found).toBeNull();
        else expect(expected.has(found?.id ?? '')).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
