/** Dot product of matrix row at `base` with `q`, four lanes at a time. */
export function dot(data: Float32Array, base: number, q: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += data[base + i]! * q[i]!;
    s1 += data[base + i + 1]! * q[i + 1]!;
    s2 += data[base + i + 2]! * q[i + 2]!;
    s3 += data[base + i + 3]! * q[i + 3]!;
  }
  for (; i < dims; i++) s0 += data[base + i]! * q[i]!;
  return s0 + s1 + s2 + s3;
}

/**
 * The same over int8 components (search/vector-blob.ts); the caller multiplies by the row's scale.
 * A second copy on purpose: one function over both array types would make the hot loop's
 * element loads polymorphic.
 */
export function dotInt8(data: Int8Array, base: number, q: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dims; i += 4) {
    s0 += data[base + i]! * q[i]!;
    s1 += data[base + i + 1]! * q[i + 1]!;
    s2 += data[base + i + 2]! * q[i + 2]!;
    s3 += data[base + i + 3]! * q[i + 3]!;
  }
  for (; i < dims; i++) s0 += data[base + i]! * q[i]!;
  return s0 + s1 + s2 + s3;
}
