import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IngestInputError, validateIngestOptions } from './run.js';

const base = { dataDir: '/tmp/shelf', feeds: [{ retailer: 'shop', path: 'shop.tsv' }] };
const isCalendarDay = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

describe('runIngest options', () => {
  it('accepts a day only when it is a calendar date, whatever the string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        ),
        (day) => {
          let error: unknown = null;
          try {
            validateIngestOptions({ ...base, day });
          } catch (e) {
            error = e;
          }
          if (isCalendarDay(day) && !day.startsWith('-')) expect(error).toBeNull();
          else expect(error).toBeInstanceOf(IngestInputError);
        },
      ),
    );
  });

  it('accepts only slugs as retailers, fed or removed', () => {
    fc.assert(
      fc.property(fc.string(), (retailer) => {
        const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(retailer);
        const check = () => validateIngestOptions({ dataDir: '/tmp/shelf', feeds: [], remove: [retailer] });
        if (slug) expect(check).not.toThrow();
        else expect(check).toThrow(IngestInputError);
      }),
    );
  });

  it('accepts only a whole number of listings, 0 or more, as spillAt', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.double(), fc.string()), (spillAt) => {
        const check = () => validateIngestOptions({ ...base, spillAt: spillAt as number });
        if (Number.isSafeInteger(spillAt) && (spillAt as number) >= 0) expect(check).not.toThrow();
        else expect(check).toThrow(/spillAt must be a whole number of listings/);
      }),
    );
  });
});
