/** float32 vectors as SQLite BLOBs (little-endian, as typed arrays lay them out). */
export const toBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** Copies a BLOB into an aligned Float32Array (SQLite buffers need not be 4-byte aligned). */
export function fromBlob(blob: Buffer): Float32Array {
  const out = new Float32Array(blob.length / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}
