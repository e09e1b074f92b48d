import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BulkInsert } from './bulk-insert.js';

const SCHEMA = `
  CREATE TABLE listings (retailer INTEGER NOT NULL, item TEXT NOT NULL, body BLOB, seen TEXT, UNIQUE (retailer, item));
  CREATE TABLE prices (offer INTEGER NOT NULL, day INTEGER NOT NULL, cents INTEGER, PRIMARY KEY (offer, day)) WITHOUT ROWID;
`;
const open = () => {
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  return db;
};
const dump = (db: Database.Database) => ({
  listings: db.prepare('SELECT rowid, * FROM listings ORDER BY rowid').raw().all(),
  prices: db.prepare('SELECT * FROM prices ORDER BY offer, day').raw().all(),
});

/** a listing row with keys from a small range, so that rows collide */
const listing = fc.tuple(
  fc.integer({ min: 1, max: 3 }),
  fc.constantFrom('a', 'b', 'c', 'd', 'é'),
  fc.option(fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b))),
  fc.option(fc.string()),
);
const price = fc.tuple(
  fc.integer({ min: 1, max: 4 }),
  fc.integer({ min: 0, max: 3 }),
  fc.option(fc.integer()),
);

describe('bulk insert', () => {
  it('leaves the tables as one statement a row does, rowids and conflicts included, flushed anywhere', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            listing.map((row) => ({ listing: row })),
            price.map((row) => ({ price: row })),
          ),
          {
            maxLength: 200,
          },
        ),
        fc.array(fc.nat({ max: 200 }), { maxLength: 5 }),
        (rows, flushes) => {
          const one = open();
          const many = open();
          const insertListing = one.prepare(
            'INSERT OR IGNORE INTO listings (retailer, item, body, seen) VALUES (?,?,?,?)',
          );
          const insertPrice = one.prepare('INSERT OR REPLACE INTO prices (offer, day, cents) VALUES (?,?,?)');
          const bulkListing = new BulkInsert(
            many,
            'INSERT OR IGNORE INTO listings (retailer, item, body, seen)',
            4,
          );
          const bulkPrice = new BulkInsert(many, 'INSERT OR REPLACE INTO prices (offer, day, cents)', 3);
          rows.forEach((row, i) => {
            if ('listing' in row) {
              insertListing.run(row.listing);
              bulkListing.add(...row.listing);
            } else {
              insertPrice.run(row.price);
              bulkPrice.add(...row.price);
            }
            if (flushes.includes(i)) {
              bulkListing.flush();
              bulkPrice.flush();
            }
          });
          bulkListing.flush();
          bulkPrice.flush();
          expect(dump(many)).toEqual(dump(one));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses a row with the wrong number of values, naming both', () => {
    const bulk = new BulkInsert(open(), 'INSERT INTO prices (offer, day, cents)', 3);
    expect(() => bulk.add(1, 2)).toThrow(/2 values for 3 columns/);
  });
});
