import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { normalizeAttributeName } from './attribute-names.js';
import type { RawRow } from './types.js';

/**
 * Streams a Merchant Center delimited feed (TSV or CSV) row by row; the header row names the
 * attributes. TSV feeds are read without quote handling, as Merchant Center writes them.
 *
 * A TSV feed whose lines end in `\n` is split by {@link readTsvLines} (a fifth of csv-parse's
 * CPU on the demo's feeds); any other (CR line ends, a UTF-16 byte order mark) goes to
 * csv-parse, whose rows the fast path reproduces exactly (delimited.test.ts pins the two
 * together on arbitrary input).
 */
export async function* readDelimited(path: string, delimiter: '\t' | ','): AsyncGenerator<RawRow> {
  if (delimiter === '\t') yield* readTsv(path);
  else yield* readWithCsvParse(path, delimiter);
}

/** csv-parse's reading of a feed: the reference every fast path must agree with. */
export async function* readWithCsvParse(path: string, delimiter: '\t' | ','): AsyncGenerator<RawRow> {
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

const LF = 0x0a;
const CR = 0x0d;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);

/**
 * A TSV feed read line by line when csv-parse would split it on `\n` alone, else by
 * csv-parse. csv-parse takes the first line end it meets (`\r\n`, `\n` or `\r`) as the record
 * delimiter of the whole file; when that is `\n`, every later `\r` is data. With quoting off
 * and columns relaxed a TSV record is then one `\n`-free line cut at each tab, so the bytes
 * before the first `\r` or `\n` decide the reader (a UTF-16 byte order mark makes csv-parse
 * decode UTF-16: left to it too).
 */
async function* readTsv(path: string): AsyncGenerator<RawRow> {
  const stream = createReadStream(path);
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // the start of the file, up to its first line end (or all of it)
  let head: Buffer = Buffer.alloc(0);
  let ended = false;
  for (;;) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
    if (head.indexOf(LF) >= 0 || head.indexOf(CR) >= 0) break;
  }
  const firstCr = head.indexOf(CR);
  const firstLf = head.indexOf(LF);
  const crFirst = firstCr >= 0 && (firstLf < 0 || firstCr < firstLf);
  if (crFirst || head.subarray(0, 2).equals(UTF16LE_BOM)) {
    stream.destroy();
    yield* readWithCsvParse(path, '\t');
    return;
  }
  async function* rest(): AsyncGenerator<Buffer> {
    yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  try {
    yield* readTsvLines(path, rest());
  } finally {
    stream.destroy();
  }
}

/**
 * The rows of a TSV file read as csv-parse reads it with the options of readWithCsvParse,
 * given that its first line end is `\n`: the UTF-8 byte order mark skipped, lines split on
 * `\n`, empty lines skipped, the first line the header, fields cut at tabs, fields past the
 * header's count dropped. A row's line number is csv-parse's count: 1 + every `\r` or `\n`
 * before the row's end (a stray `\r` in data counts as a line), except a `\r` that ends the
 * file. Bytes are decoded per line: tabs and line ends are ASCII, so a broken UTF-8 sequence
 * decodes to the same replacement characters as csv-parse's field by field decoding.
 */
export async function* readTsvLines(path: string, chunks: AsyncIterable<Buffer>): AsyncGenerator<RawRow> {
  let columns: string[] | null = null;
  let line = 1;
  let pending: Buffer | null = null;
  let first = true;
  /** the row of one line (without its `\n`), or null for the header and empty lines */
  const rowOf = (text: string, terminated: boolean): RawRow | null => {
    let crs = 0;
    for (let at = text.indexOf('\r'); at >= 0; at = text.indexOf('\r', at + 1)) crs++;
    const at = line + crs - (!terminated && text.endsWith('\r') ? 1 : 0);
    line += crs + 1;
    if (text === '') return null;
    const values = text.split('\t');
    if (columns === null) {
      columns = values.map(normalizeAttributeName);
      return null;
    }
    const fields: Record<string, string> = {};
    const n = Math.min(values.length, columns.length);
    for (let i = 0; i < n; i++) fields[columns[i] as string] = values[i] as string;
    return { file: path, line: at, fields };
  };
  for await (const chunk of chunks) {
    let buf: Buffer = pending === null ? chunk : Buffer.concat([pending, chunk]);
    if (first) {
      // csv-parse looks for the mark once it has three bytes (or the whole file, if shorter)
      if (buf.length < UTF8_BOM.length) {
        pending = buf;
        continue;
      }
      first = false;
      if (buf.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) buf = buf.subarray(UTF8_BOM.length);
    }
    const last = buf.lastIndexOf(LF);
    if (last < 0) {
      pending = buf;
      continue;
    }
    pending = last + 1 < buf.length ? buf.subarray(last + 1) : null;
    // up to the last line end: a multi-byte character is never cut, `\n` is ASCII
    for (const text of buf.toString('utf8', 0, last).split('\n')) {
      const row = rowOf(text, true);
      if (row) yield row;
    }
  }
  if (pending !== null) {
    // the last line, without a line end; or the whole of a file shorter than a byte order mark
    const texts = pending.toString('utf8').split('\n');
    for (const [i, text] of texts.entries()) {
      const row = rowOf(text, i < texts.length - 1);
      if (row) yield row;
    }
  }
}
