import { describe, expect, it } from 'vitest';
import { startFacts } from './facts.js';
import { type FactInput, recordFacts, resolveListings } from './resolve/index.js';
import { rec } from './resolve/records.fixture.js';

const RETAILERS = ['north', 'south', 'east'];
/** Listings with codes in titles, MPNs and descriptions, editions, quantities, colors, sizes and specs. */
const records = Array.from({ length: 2_600 }, (_, i) =>
  rec(
    `r${i}`,
    RETAILERS[i % 3]!,
    `Acme Widget ${Math.floor(i / 3)} WX-${1000 + Math.floor(i / 3)} 12 oz for KL${i % 40}${i % 6 === 0 ? ' 2024 Pro v2' : ''}`,
    {
      description: i % 5 === 0 ? `Replaces part RP-${i % 200}B. Version 2.1, 2024 edition.` : null,
      mpn: i % 2 === 0 ? `WX${1000 + Math.floor(i / 3)}` : null,
      color: i % 7 === 0 ? 'Midnight Black' : null,
      size: i % 11 === 0 ? 'Large' : null,
      specs: i % 4 === 0 ? { Capacity: `${i % 9} qt`, Material: 'Stainless Steel' } : {},
      brand: i % 3 === 0 ? 'Acme' : null,
    },
  ),
);
const inputOf = (r: FactInput): FactInput => ({
  title: r.title,
  description: r.description,
  mpn: r.mpn,
  color: r.color,
  size: r.size,
  specs: r.specs,
});

describe('resolver facts on a worker thread', () => {
  it('are the facts this thread computes, and resolve to the same products', async () => {
    const from = 600;
    const facts = startFacts(records.slice(from).map(inputOf), from);
    // every chunk is the worker's once it has ended
    await facts.ended;
    const taken = facts.take();
    expect(facts.fromWorker).toBe(records.length - from);
    expect(taken).toEqual(records.slice(from).map(recordFacts));
    const again = startFacts(records.slice(from).map(inputOf), from);
    try {
      expect(resolveListings(records, {}, again)).toEqual(resolveListings(records));
    } finally {
      again.close();
    }
  }, 60_000);

  it('are computed here when taken before the worker starts', () => {
    const facts = startFacts(records.map(inputOf), 0);
    const taken = facts.take();
    expect(taken).toEqual(records.map(recordFacts));
    expect(facts.fromWorker).toBeLessThan(records.length);
  });

  it('are computed here when the worker dies holding claimed chunks', async () => {
    const facts = startFacts(records.map(inputOf), 0, { entry: 'facts-worker-stall.fixture', stallMs: 200 });
    // the fixture has claimed every chunk and ended without posting one
    await facts.ended;
    expect(facts.take()).toEqual(records.map(recordFacts));
    expect(facts.fromWorker).toBe(0);
  }, 60_000);

  it('are not asked for when the run reads codes by other rules than the defaults they were computed by', () => {
    const computedElsewhere = {
      from: 0,
      take: () => {
        throw new Error('facts computed under the default code rules were taken');
      },
    };
    const rules = { statedModelIsCode: false };
    expect(resolveListings(records, rules, computedElsewhere)).toEqual(resolveListings(records, rules));
  });
});
