import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { normalizeAttributeName } from './attribute-names.js';
import type { RawRow } from './types.js';

/**
 * Streams a Merchant Center delimited feed (TSV or CSV) row by row; the header row names the
 * attributes. TSV feeds are read without quote handling, as Merchant Center writes them.
 */
export async function* readDelimited(path: string, delimiter: '\t' | ','): AsyncGenerator<RawRow> {
  const parser = createReadStream(path).pipe(
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      quote: delimiter === ',' ? '"' : false,
      info: true,
      columns: (header: string[]) => header.map(normalizeAttributeName),
    }),
  );
  for await (const record of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    yield { file: path, line: record.info.lines, fields: record.record };
  }
}
