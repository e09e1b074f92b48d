import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { readDelimited } from './delimited.js';
import { readJsonArray, readNdjson } from './json.js';
import type { BadRow, RawRow } from './types.js';
import { readXml } from './xml.js';

export class FeedFormatError extends Error {}

export type FeedFormat = 'tsv' | 'csv' | 'xml' | 'json' | 'ndjson';

const BY_EXTENSION: Record<string, FeedFormat> = {
  '.tsv': 'tsv',
  '.tab': 'tsv',
  '.txt': 'tsv',
  '.csv': 'csv',
  '.xml': 'xml',
  '.rss': 'xml',
  '.atom': 'xml',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

/** Tells the format from the first bytes of a file. */
export function sniffFormat(head: string): FeedFormat | null {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<')) return 'xml';
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) {
    // NDJSON: the first line is a whole JSON object by itself
    const firstLine = text.split('\n')[0] ?? '';
    try {
      JSON.parse(firstLine);
      return 'ndjson';
    } catch {
      return 'json';
    }
  }
  const firstLine = text.split('\n')[0] ?? '';
  if (firstLine.includes('\t')) return 'tsv';
  if (firstLine.includes(',')) return 'csv';
  return null;
}

/**
 * Picks the reader by extension, checked against the first bytes: a file whose content
 * contradicts its extension (XML named `.csv`, NDJSON named `.json`) is read as what it is.
 */
export async function detectFormat(path: string): Promise<FeedFormat> {
  const sniffed = sniffFormat(await head(path, 8192));
  const byExt = BY_EXTENSION[extname(path).toLowerCase()];
  if (byExt && sniffed && familyOf(byExt) === familyOf(sniffed))
    return familyOf(byExt) === 'json' || extname(path).toLowerCase() === '.txt' ? sniffed : byExt;
  if (sniffed) return sniffed;
  if (byExt) return byExt;
  throw new FeedFormatError(
    'unknown feed format (expected a Merchant Center TSV, CSV, XML, JSON or NDJSON feed)',
  );
}

const familyOf = (f: FeedFormat) => (f === 'tsv' || f === 'csv' ? 'delimited' : f === 'xml' ? 'xml' : 'json');

/** Streams the rows of a feed file of any supported format. */
export async function* readFeed(path: string): AsyncGenerator<RawRow | BadRow> {
  const format = await detectFormat(path);
  switch (format) {
    case 'xml':
      yield* readXml(path);
      return;
    case 'json': {
      const topLevelArray = (await head(path, 64))
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('[');
      yield* readJsonArray(path, topLevelArray);
      return;
    }
    case 'ndjson':
      yield* readNdjson(path);
      return;
    default:
      yield* readDelimited(path, format === 'tsv' ? '\t' : ',');
  }
}

async function head(path: string, bytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
