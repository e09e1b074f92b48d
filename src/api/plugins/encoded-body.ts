import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';

/** The content codings Shelf sends, in its order of preference when a client rates them equal. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/**
 * Brotli quality 4, chosen for speed: on pages of 20 product documents (78 KB) it took as
 * long as gzip level 6 or less (0.75–0.9×) for about the same size (within 3%); quality 5
 * was 7–10% smaller but took 1.3–1.5× as long, quality 9 fifty times as long. Every fresh
 * response pays it (`npm run bench` prints the table; docs/architecture.md keeps it).
 */
export const BROTLI_QUALITY = 4;
/** zlib's default level: the usual balance of speed and size. */
export const GZIP_LEVEL = 6;
/** Bodies smaller than this are sent as they are: the coding's framing and the time outweigh the saving. */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * The compressed start of a body, ended on a byte boundary without closing the stream
 * (a zlib sync flush, a brotli flush), so literal bytes can follow it: a cached body is
 * compressed once and each response appends its own `meta` without compressing again.
 */
export interface CompressedPrefix {
  bytes: Buffer;
  /** CRC-32 of the uncompressed bytes (the gzip trailer needs it) */
  crc: number;
  /** length of the uncompressed bytes */
  length: number;
}

/** gzip member header (RFC 1952): deflate, no flags, no mtime, OS unix, as Node writes it. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);

/** Compresses the start of a body, leaving the stream open for `finishEncoded`. */
export function compressPrefix(coding: Coding, raw: Buffer): CompressedPrefix {
  const bytes =
    coding === 'gzip'
      ? Buffer.concat([
          GZIP_HEADER,
          deflateRawSync(raw, { level: GZIP_LEVEL, finishFlush: constants.Z_SYNC_FLUSH }),
        ])
      : brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
          finishFlush: constants.BROTLI_OPERATION_FLUSH,
        });
  return { bytes, crc: coding === 'gzip' ? crc32(raw) : 0, length: raw.length };
}

/**
 * The whole encoded body: the compressed prefix, then `rest` as literal (uncompressed)
 * blocks of the same stream, then the stream's end. `rest` is the short part that changes
 * per response (meta) and what follows it; sending it uncompressed costs a few bytes and
 * no compression work.
 */
export function finishEncoded(coding: Coding, prefix: CompressedPrefix, rest: readonly Buffer[]): Buffer {
  const tail = rest.length === 1 ? (rest[0] as Buffer) : Buffer.concat(rest);
  if (coding === 'gzip') {
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(tail, prefix.crc), 0);
    trailer.writeUInt32LE((prefix.length + tail.length) % 2 ** 32, 4);
    return Buffer.concat([prefix.bytes, ...storedBlocks(tail), trailer]);
  }
  return Buffer.concat([prefix.bytes, ...uncompressedMetaBlocks(tail), BROTLI_LAST_EMPTY]);
}

/** Deflate stored blocks (RFC 1951 §3.2.4) holding `data`, the last one final: at least one block. */
function storedBlocks(data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  let at = 0;
  do {
    const length = Math.min(0xffff, data.length - at);
    const header = Buffer.alloc(5);
    header[0] = at + length === data.length ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    header.writeUInt16LE(length, 1);
    header.writeUInt16LE(~length & 0xffff, 3);
    blocks.push(header, data.subarray(at, at + length));
    at += length;
  } while (at < data.length);
  return blocks;
}

/** ISLAST = 1, ISLASTEMPTY = 1: ends a brotli stream (RFC 7932 §9.2). */
const BROTLI_LAST_EMPTY = Buffer.from([0x03]);

/**
 * Brotli uncompressed meta-blocks (RFC 7932 §9.2) holding `data`: ISLAST 0, MNIBBLES 4,
 * MLEN - 1 in 16 bits, ISUNCOMPRESSED 1, padded to the byte, then the bytes. At most 65,536
 * bytes each; an uncompressed meta-block cannot be the last, so none is written for no data.
 */
function uncompressedMetaBlocks(data: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 0x10000) {
    const length = Math.min(0x10000, data.length - at);
    const bits = ((length - 1) << 3) | (1 << 19);
    blocks.push(Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]));
    blocks.push(data.subarray(at, at + length));
  }
  return blocks;
}
