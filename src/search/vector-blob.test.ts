import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize } from './embeddings/builtin.js';
import { blobBytes, blobDims, fromBlob, toBlob, writeBlob } from './vector-blob.js';

const unit = (dims: number) =>
  fc
    .array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims })
    .filter((xs) => xs.some((x) => Math.abs(x) > 1e-3))
    .map((xs) => normalize(Float32Array.from(xs)));

const cosine = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

describe('int8 vector BLOBs', () => {
  it('a unit vector reads back within half a step per component, and its cosines within 0.01', () => {
    fc.assert(
      fc.property(unit(256), unit(256), (v, q) => {
        const blob = toBlob(v);
        expect(blob.length).toBe(4 + 256);
        expect(blobDims(blob.length, true)).toBe(256);
        const back = fromBlob(blob, true);
        const step = Math.max(...v.map(Math.abs)) / 127;
        for (let i = 0; i < v.length; i++)
          expect(Math.abs(back[i]! - v[i]!)).toBeLessThanOrEqual(step / 2 + 1e-7);
        expect(Math.abs(cosine(back, q) - cosine(v, q))).toBeLessThan(0.01);
      }),
    );
  });

  it('vectors written back to back in one buffer are each the BLOB of the vector alone', () => {
    fc.assert(
      fc.property(fc.array(unit(16), { minLength: 1, maxLength: 8 }), (vs) => {
        const bytes = blobBytes(16);
        // an odd offset: a worker's buffer need not be aligned for the float32 scale
        const all = new Uint8Array(1 + vs.length * bytes).fill(0xee);
        for (const [i, v] of vs.entries()) writeBlob(v, all, 1 + i * bytes);
        expect(all[0]).toBe(0xee);
        vs.forEach((v, i) => {
          expect(Buffer.from(all.subarray(1 + i * bytes, 1 + (i + 1) * bytes))).toEqual(toBlob(v));
        });
      }),
    );
  });

  it('a zero vector stays zero', () => {
    expect([...fromBlob(toBlob(new Float32Array(8)), true)]).toEqual(Array(8).fill(0));
  });

  it('reads the float32 BLOBs of snapshots before schema version 7', () => {
    const v = Float32Array.from([0.5, -0.25, 1, 0]);
    expect([...fromBlob(Buffer.from(v.buffer), false)]).toEqual([0.5, -0.25, 1, 0]);
    expect(blobDims(16, false)).toBe(4);
  });
});
