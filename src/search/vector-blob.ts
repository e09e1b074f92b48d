/**
 * Vectors as SQLite BLOBs. Since schema version 7 (catalog migrations/007-compact.ts) a
 * vector is stored as int8: a little-endian float32 scale, then one signed byte per
 * dimension, value = byte × scale, with the scale set by the largest magnitude (it maps to
 * ±127). Rounding moves each component by at most half a step, scale / 2; for the unit
 * vectors of search that changes a cosine by under 0.01 (vector-blob.test.ts). Before
 * version 7 a vector was its float32 array as is.
 */

/** Bytes of the scale before the components. */
const SCALE_BYTES = 4;

/** Bytes of the int8 BLOB of a vector of `dims` dimensions. */
export const blobBytes = (dims: number): number => SCALE_BYTES + dims;

/**
 * Writes the int8 BLOB of `v` into `out` at byte `at` ({@link blobBytes} bytes): many
 * vectors back to back in one buffer, which a worker thread can hand over without a copy.
 */
export function writeBlob(v: Float32Array, out: Uint8Array, at: number): void {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const scale = max > 0 ? max / 127 : 1;
  new DataView(out.buffer, out.byteOffset + at, SCALE_BYTES).setFloat32(0, scale, true);
  // |v / scale| ≤ 127 by the choice of scale, so every rounded component fits a signed byte
  const components = new Int8Array(out.buffer, out.byteOffset + at + SCALE_BYTES, v.length);
  for (let i = 0; i < v.length; i++) components[i] = Math.round(v[i]! / scale);
}

/** A vector as an int8 BLOB. */
export function toBlob(v: Float32Array): Buffer {
  const out = Buffer.alloc(blobBytes(v.length));
  writeBlob(v, out, 0);
  return out;
}

/** Dimensions of a stored vector of `bytes` bytes. */
export const blobDims = (bytes: number, int8: boolean): number => (int8 ? bytes - SCALE_BYTES : bytes / 4);

/** The scale of an int8 BLOB. */
export const blobScale = (blob: Buffer): number => blob.readFloatLE(0);

/** Copies an int8 BLOB's components into `out` at `offset` (the scale is read apart). */
export function copyInt8(blob: Buffer, out: Int8Array, offset: number): void {
  out.set(new Int8Array(blob.buffer, blob.byteOffset + SCALE_BYTES, blob.length - SCALE_BYTES), offset);
}

/** A stored vector as float32: int8 (schema version 7 on) or float32 (before). */
export function fromBlob(blob: Buffer, int8: boolean): Float32Array {
  if (int8) {
    const scale = blobScale(blob);
    const out = new Float32Array(blob.length - SCALE_BYTES);
    for (let i = 0; i < out.length; i++) out[i] = blob.readInt8(SCALE_BYTES + i) * scale;
    return out;
  }
  // copied: SQLite buffers need not be 4-byte aligned
  const out = new Float32Array(blob.length / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}
