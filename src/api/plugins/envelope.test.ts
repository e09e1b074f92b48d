import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { meta, metaJson, newRequestId } from './envelope.js';

/** `meta` without the fields that change between two calls (time taken, timestamp). */
const steady = (json: string) => {
  const { responseTime, timestamp, ...rest } = JSON.parse(json) as Record<string, unknown>;
  expect(typeof responseTime).toBe('number');
  expect(Number.isNaN(Date.parse(timestamp as string))).toBe(false);
  return rest;
};

describe('metaJson', () => {
  it('is the JSON of meta(request), field for field and in order, whatever the extras', () => {
    fc.assert(
      fc.property(
        fc.option(fc.boolean(), { nil: undefined }),
        fc.option(fc.array(fc.string(), { maxLength: 2 }), { nil: undefined }),
        fc.option(fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }), { nil: undefined }),
        (cached, warnings, interpretation) => {
          const request = {
            id: newRequestId(),
            startedAt: performance.now(),
            metaExtras: { cached, warnings, interpretation },
          } as unknown as FastifyRequest;
          const fast = metaJson(request);
          const slow = JSON.stringify(meta(request));
          expect(Object.keys(JSON.parse(fast))).toEqual(Object.keys(JSON.parse(slow)));
          expect(steady(fast)).toEqual(steady(slow));
        },
      ),
    );
  });
});
