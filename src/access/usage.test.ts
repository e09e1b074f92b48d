import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { monthOf, msToMonthEnd } from './usage.js';

describe('monthOf and msToMonthEnd', () => {
  // they remember the last month asked about: any order of moments must still get its own
  it('give the UTC month of any moment, and the time to its end, in any order of asking', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4_102_444_800_000 }), { maxLength: 50 }), (moments) => {
        for (const now of moments) {
          const d = new Date(now);
          expect(monthOf(now)).toBe(d.toISOString().slice(0, 7));
          expect(msToMonthEnd(now)).toBe(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - now);
        }
      }),
    );
  });

  it('tell the last moment of a month from the first of the next', () => {
    const next = Date.UTC(2026, 11, 1);
    expect(monthOf(next - 1)).toBe('2026-11');
    expect(msToMonthEnd(next - 1)).toBe(1);
    expect(monthOf(next)).toBe('2026-12');
    expect(monthOf(next - 1)).toBe('2026-11');
  });
});
