import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameSortKey } from './name-keys.js';

const sorted = (names: string[]) => [...names].sort((a, b) => (nameSortKey(a) < nameSortKey(b) ? -1 : 1));

describe('nameSortKey', () => {
  it('sorts as people read: case and accents ignored, numbers in numeric order', () => {
    expect(sorted(['Zwilling', 'ecobee', 'eero', 'iRobot', 'Bosch', 'Électrolux'])).toEqual([
      'Bosch',
      'ecobee',
      'eero',
      'Électrolux',
      'iRobot',
      'Zwilling',
    ]);
    expect(sorted(['TV 100 inch', 'TV 65 inch', 'TV 9 inch', 'TV 065 inch x'])).toEqual([
      'TV 9 inch',
      'TV 65 inch',
      'TV 065 inch x',
      'TV 100 inch',
    ]);
  });

  it('orders numbers by value and ignores case, for any names', () => {
    fc.assert(
      fc.property(fc.nat(10 ** 9), fc.nat(10 ** 9), fc.stringMatching(/^[a-zA-Z ]{0,8}$/), (a, b, prefix) => {
        const [ka, kb] = [nameSortKey(`${prefix} ${a}`), nameSortKey(`${prefix} ${b}`)];
        expect(ka < kb ? -1 : ka > kb ? 1 : 0).toBe(Math.sign(a - b));
        expect(nameSortKey(prefix.toUpperCase())).toBe(nameSortKey(prefix.toLowerCase()));
      }),
    );
  });
});
