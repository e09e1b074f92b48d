import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readDelimited, readTsvLines, readWithCsvParse } from './delimited.js';
import type { RawRow } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'shelf-delimited-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileWith = (bytes: Uint8Array): string => {
  const path = join(dir, `feed-${files++}.tsv`);
  writeFileSync(path, bytes);
  return path;
};

const collect = async (rows: AsyncIterable<RawRow>) => {
  const out: RawRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
};
async function* chunked(bytes: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
    yield bytes.subarray(at, cut);
    at = cut;
  }
  yield bytes.subarray(at);
}

/** Hostile TSV text: tabs, both line ends and lone CRs, quotes, byte order marks, non-ASCII. */
const piece = fc.oneof(
  fc.constantFrom(
    'id',
    'title',
    'Price',
    'g:brand',
    'product detail',
    '__proto__',
    'constructor',
    'a',
    'é',
    '€ 5',
    '😀',
    ' ',
    '"',
    '""',
    '\t',
    '\t\t',
    '\n',
    '\n\n',
    '\r',
    '\r\n',
    '\uFEFF',
  ),
  fc.string({ maxLength: 4 }),
);
const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
const prefix = fc.constantFrom(
  [] as number[],
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xef, 0xbb],
  [0x0a],
  [0x0d, 0x0a],
);
const hostileTsv = fc
  .tuple(prefix, text)
  .map(([head, body]) => Buffer.concat([Buffer.from(head), Buffer.from(body)]));
/** Raw bytes, weighted to the ones that matter: tab, LF, CR, BOM bytes, UTF-8 lead and continuation bytes. */
const hostileBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xff, 0xfe, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x22),
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(0x61, 0x62, 0x69, 0x64),
    ),
    { maxLength: 120 },
  )
  .map((b) => Buffer.from(b));

describe('TSV feeds', () => {
  it('read the same rows as csv-parse, whatever the bytes (tabs, CR/LF, quotes, byte order marks)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileTsv, hostileBytes), async (bytes) => {
        const path = fileWith(bytes);
        expect(await collect(readDelimited(path, '\t'))).toEqual(await collect(readWithCsvParse(path, '\t')));
      }),
      { numRuns: 400 },
    );
  });

  it('split lines the same wherever the file is cut into chunks', async () => {
    // readTsvLines is only used where the first line end is `\n` (readDelimited checks)
    const lfFirst = fc.oneof(hostileTsv, hostileBytes).filter((b) => {
      const cr = b.indexOf(0x0d);
      const lf = b.indexOf(0x0a);
      return !(b[0] === 0xff && b[1] === 0xfe) && (cr < 0 || (lf >= 0 && lf < cr));
    });
    await fc.assert(
      fc.asyncProperty(lfFirst, fc.array(fc.nat(), { maxLength: 6 }), async (bytes, cuts) => {
        const path = fileWith(bytes);
        expect(await collect(readTsvLines(path, chunked(bytes, cuts)))).toEqual(
          await collect(readWithCsvParse(path, '\t')),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('read a Merchant Center TSV: header names normalized, line numbers, short and long rows', async () => {
    const path = fileWith(
      Buffer.from('\uFEFFid\tTitle\tg:price\n\nA1\tKettle\t5 USD\nA2\tToaster\nA3\tLamp\t9 USD\textra\n'),
    );
    expect(await collect(readDelimited(path, '\t'))).toEqual([
      { file: path, line: 3, fields: { id: 'A1', title: 'Kettle', price: '5 USD' } },
      { file: path, line: 4, fields: { id: 'A2', title: 'Toaster' } },
      { file: path, line: 5, fields: { id: 'A3', title: 'Lamp', price: '9 USD' } },
    ]);
  });

  it('a column named like an Object method (constructor, toString) is read under its name', async () => {
    const path = fileWith(Buffer.from('id\tconstructor\ttoString\nA1\tx\ty\n'));
    expect(await collect(readDelimited(path, '\t'))).toEqual([
      { file: path, line: 2, fields: { id: 'A1', constructor: 'x', to_string: 'y' } },
    ]);
  });

  it('read a CRLF TSV as csv-parse does (the record delimiter is \\r\\n)', async () => {
    const path = fileWith(Buffer.from('id\ttitle\r\nA1\tKettle\r\nA2\tTo\naster\r\n'));
    expect(await collect(readDelimited(path, '\t'))).toEqual([
      { file: path, line: 2, fields: { id: 'A1', title: 'Kettle' } },
      // csv-parse counts the lone \n as a line
      { file: path, line: 4, fields: { id: 'A2', title: 'To\naster' } },
    ]);
  });
});
