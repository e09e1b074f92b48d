import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { readDelimited } from './delimited.js';
import type { RawRow } from './types.js';

export class FeedFormatError extends Error {}

/** Picks the reader by extension, or by sniffing the first line when the extension is unknown. */
export async function detectFormat(path: string): Promise<'tsv' | 'csv'> {
  const ext = extname(path).toLowerCase();
  if (ext === '.tsv' || ext === '.tab') return 'tsv';
  if (ext === '.csv') return 'csv';
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const firstLine = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    if (firstLine.includes('\t')) return 'tsv';
    if (firstLine.includes(',')) return 'csv';
  } finally {
    await handle.close();
  }
  throw new FeedFormatError(`${path}: unknown feed format (expected a TSV or CSV Merchant Center feed)`);
}

/** Streams the rows of a feed file of any supported format. */
export async function* readFeed(path: string): AsyncGenerator<RawRow> {
  const format = await detectFormat(path);
  yield* readDelimited(path, format === 'tsv' ? '\t' : ',');
}
