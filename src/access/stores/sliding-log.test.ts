import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlidingLog } from './sliding-log.js';

describe('SlidingLog', () => {
  it('counts and resets exactly as a plain list of the times in the window (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            step: fc.integer({ min: -50, max: 400 }),
            add: fc.boolean(),
          }),
          { maxLength: 600 },
        ),
        fc.integer({ min: 1, max: 1_000 }),
        (events, windowMs) => {
          const log = new SlidingLog();
          let model: number[] = [];
          let now = 10_000;
          for (const { step, add } of events) {
            // the clock mostly moves on, sometimes steps back a little
            now += step;
            model = model.filter((t) => t > now - windowMs);
            expect(log.prune(now, windowMs)).toBe(model.length);
            expect(log.size).toBe(model.length);
            const oldest = model[0];
            expect(log.resetMs(now, windowMs)).toBe(
              oldest === undefined ? windowMs : Math.max(0, oldest + windowMs - now),
            );
            if (add) {
              log.add(now);
              model.push(now);
              model.sort((a, b) => a - b);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts right through 100,000 events in a window of 1,000 ms (the array is compacted as it goes)', () => {
    const log = new SlidingLog();
    for (let now = 0; now < 100_000; now++) {
      expect(log.prune(now, 1_000)).toBe(Math.min(now, 999));
      log.add(now);
    }
  });
});
