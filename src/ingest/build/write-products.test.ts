import { describe, expect, it } from 'vitest';
import { collectionInterval } from './write-products.js';

describe('collectionInterval', () => {
  it('collects every 10,000 products (40 batches) in a small write', () => {
    expect(collectionInterval(10)).toBe(40);
    // the 35k demo: 156 batches of 250 products
    expect(collectionInterval(156)).toBe(40);
  });

  it('collects at most four times however large the write (each collection costs the live heap)', () => {
    for (const batches of [160, 561, 2240, 4000, 100_003]) {
      const interval = collectionInterval(batches);
      expect(Math.floor(batches / interval)).toBeLessThanOrEqual(4);
      expect(interval).toBeGreaterThanOrEqual(40);
    }
  });
});
