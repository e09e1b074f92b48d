import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressible, negotiateEncoding, parseAcceptEncoding } from './compression.js';
import { compressPrefix, finishEncoded } from './encoded-body.js';

const CODING = fc.constantFrom('br', 'gzip', 'identity', 'deflate', 'zstd', '*', 'x-gzip');
const Q = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);
/** Accept-Encoding elements: a coding, maybe with a q-value, in random case and spacing. */
const ELEMENTS = fc.uniqueArray(fc.record({ coding: CODING, q: fc.option(Q, { nil: undefined }) }), {
  selector: (e) => (e.coding === 'x-gzip' ? 'gzip' : e.coding),
  maxLength: 6,
});
const render = (elements: { coding: string; q?: number }[], spaced: boolean) =>
  elements
    .map((e) => (e.q === undefined ? e.coding : `${e.coding}${spaced ? ' ; ' : ';'}q=${e.q}`))
    .join(spaced ? ' , ' : ',');

/** RFC 9110 §12.5.3 weight of `coding` under a parsed header: named, else `*`, else identity's default. */
function weightOf(weights: Map<string, number>, coding: string): number {
  const star = weights.get('*');
  const lowest = weights.size ? Math.min(...weights.values()) : 1;
  return weights.get(coding) ?? star ?? (coding === 'identity' ? lowest : 0);
}

describe('negotiateEncoding', () => {
  it('answers a coding of the highest weight, never one weighted 0 unless identity is the fallback', () => {
    fc.assert(
      fc.property(ELEMENTS, fc.boolean(), (elements, spaced) => {
        const header = render(elements, spaced);
        const chosen = negotiateEncoding(header);
        const weights = parseAcceptEncoding(header);
        const best = Math.max(...(['br', 'gzip', 'identity'] as const).map((c) => weightOf(weights, c)));
        if (best === 0) expect(chosen).toBe('identity');
        else expect(weightOf(weights, chosen)).toBe(best);
        // ties go to br, then gzip
        if (best > 0 && weightOf(weights, 'br') === best) expect(chosen).toBe('br');
      }),
    );
  });

  it('answers a repeated header as the first time, also past the headers it remembers', () => {
    const headers = Array.from(
      { length: 300 },
      (_, i) => `gzip;q=0.${i % 10}, br;q=0.${(i * 7) % 10}, x-${i}`,
    );
    const first = headers.map(negotiateEncoding);
    expect(headers.map(negotiateEncoding)).toEqual(first);
    expect(first.slice(0, 10)).toEqual([
      'identity',
      'br',
      'br',
      'gzip',
      'br',
      'br',
      'gzip',
      'br',
      'gzip',
      'gzip',
    ]);
  });

  it('does not depend on the order of the elements nor on case', () => {
    fc.assert(
      fc.property(ELEMENTS, (elements) => {
        const header = render(elements, false);
        expect(negotiateEncoding(render([...elements].reverse(), true))).toBe(negotiateEncoding(header));
        expect(negotiateEncoding(header.toUpperCase())).toBe(negotiateEncoding(header));
      }),
    );
  });

  it('never throws and answers a known coding for any header text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (header) => {
        expect(['br', 'gzip', 'identity']).toContain(negotiateEncoding(header));
      }),
    );
  });

  it('reads the usual headers as browsers and tools send them', () => {
    expect(negotiateEncoding(undefined)).toBe('identity');
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('br;q=2, gzip')).toBe('gzip'); // q above 1 is malformed: left out
  });
});

describe('compressible', () => {
  it('takes JSON, text, XML and SVG, not SSE nor archives', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/ld+json',
      'text/html',
      'image/svg+xml',
    ])
      expect([type, compressible(type)]).toEqual([type, true]);
    for (const type of ['text/event-stream', 'application/gzip', 'image/png'])
      expect([type, compressible(type)]).toEqual([type, false]);
  });
});

describe('compressPrefix + finishEncoded', () => {
  const decode = (coding: 'br' | 'gzip', bytes: Buffer) =>
    (coding === 'gzip' ? gunzipSync(bytes) : brotliDecompressSync(bytes)).toString();

  it('decode to the prefix followed by the literal rest, for any texts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('br' as const, 'gzip' as const),
        fc.string({ unit: 'binary', maxLength: 3000 }),
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 3 }),
        (coding, head, rest) => {
          const out = finishEncoded(
            coding,
            compressPrefix(coding, Buffer.from(head)),
            rest.map((r) => Buffer.from(r)),
          );
          expect(decode(coding, out)).toBe(head + rest.join(''));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hold literal parts longer than one stored block (64 KiB) and one prefix reused for many bodies', () => {
    for (const coding of ['br', 'gzip'] as const) {
      const prefix = compressPrefix(coding, Buffer.from(`{"data":[${'1,'.repeat(40_000)}1]`));
      for (const meta of ['x'.repeat(70_000), '', '"meta":{}}']) {
        const text = decode(coding, finishEncoded(coding, prefix, [Buffer.from(meta)]));
        expect(text).toBe(`{"data":[${'1,'.repeat(40_000)}1]${meta}`);
      }
    }
  });
});
