import { MessageChannel, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { type FactInput, type FactSource, type RecordFacts, recordFacts } from './resolve/index.js';
import { startWorker } from './worker.js';

/** Records a claim covers: small enough that the two threads finish close together. */
const CHUNK = 1_024;
/** `state[NEXT]`: the next chunk to claim; `state[POSTED]`: chunks the worker has posted. */
const NEXT = 0;
const POSTED = 1;
/**
 * How long `take` waits without a chunk from the worker before it computes the worker's
 * claimed chunks itself. A chunk takes about 0.1 s on the worker (1,024 records of the 35k
 * demo); this is two orders of magnitude above that, so only a dead or stuck worker meets it.
 */
const STALL_MS = 15_000;

/** What the worker posts for one chunk: its facts ({@link encodeFacts}, as JSON), or why it could not compute them. */
type ChunkMessage = { chunk: number; facts: string } | { chunk: number; error: string };

/** An edition, quantities and colors in arrays; null for an edition that states nothing. */
type EncodedFacts = [
  RecordFacts['titleCodes'],
  string,
  RecordFacts['descCodes'],
  RecordFacts['serves'],
  [string, string[]][] | null,
  [string, readonly number[]][] | null,
  string[],
  string,
  string,
  RecordFacts['specPairs'],
];

/**
 * One record's facts as plain arrays, for one `JSON.stringify` a chunk: structured clone
 * rebuilds every Set and Map one entry at a time on the receiving thread (an edition is seven
 * sets): 5.8 s for the 111,000 listings of the 35k demo, against 0.7–1.1 s to parse them as
 * JSON (loaded machine). Quantities are finite numbers, which JSON keeps exactly.
 */
export function encodeFacts(f: RecordFacts): EncodedFacts {
  const edition = Object.entries(f.edition) as [string, ReadonlySet<string>][];
  return [
    f.titleCodes,
    f.mpn,
    f.descCodes,
    f.serves,
    edition.every(([, values]) => values.size === 0) ? null : edition.map(([k, v]) => [k, [...v]]),
    f.measures ? [...f.measures] : null,
    [...f.colors],
    f.colorValue,
    f.sizeValue,
    f.specPairs,
  ];
}

const EMPTY_EDITION = recordFacts({ title: '' }).edition;

/** `colors`: one set per distinct list of colors (the resolver keeps one anyway, features.ts). */
function decodeFacts(e: EncodedFacts, colors: Map<string, ReadonlySet<string>>): RecordFacts {
  const colorKey = e[6].join(',');
  let colorSet = colors.get(colorKey);
  if (!colorSet) {
    colorSet = new Set(e[6]);
    colors.set(colorKey, colorSet);
  }
  return {
    titleCodes: e[0],
    mpn: e[1],
    descCodes: e[2],
    serves: e[3],
    edition: e[4]
      ? (Object.fromEntries(e[4].map(([k, v]) => [k, new Set(v)])) as unknown as RecordFacts['edition'])
      : EMPTY_EDITION,
    measures: e[5] ? new Map(e[5]) : null,
    colors: colorSet,
    colorValue: e[7],
    sizeValue: e[8],
    specPairs: e[9],
  };
}

/** How {@link startFacts} runs; the defaults are the ingest's, the rest is for tests. */
export interface FactsOptions {
  /** how long `take` waits for a claimed chunk before computing it itself (default 15 s) */
  stallMs?: number;
  /** the worker's entry module beside this one (default `facts-worker`) */
  entry?: string;
}

/** A {@link FactSource} fed by a worker thread; `close` ends the worker (idempotent). */
export interface FactsWorker extends FactSource {
  close(): void;
  /** settles when the worker thread has ended (at once when none could start) */
  readonly ended: Promise<void>;
  /** how many records' facts `take` got from the worker (the rest it computed itself) */
  readonly fromWorker: number;
}

/**
 * Starts computing the resolver's per-record facts (resolve/features.ts, `recordFacts`) of the
 * records from `from` on on a worker thread, while this one goes on with classification, the
 * resolver records and the first records' features (issue 20: the second core idled through
 * resolve). The two threads claim chunks of records from one shared counter, so when the
 * resolver asks (`take`) this thread computes whatever the worker has not started and waits
 * only for the chunk in hand: a worker that is slow to start, or never does, costs no more than
 * computing here. The facts are the same values either way (pure functions of the record).
 */
export function startFacts(given: FactInput[], from: number, options: FactsOptions = {}): FactsWorker {
  const stallMs = options.stallMs ?? STALL_MS;
  // let go of when taken: it holds the listings' texts, which must not outlive assembly
  let inputs = given;
  const chunks = Math.ceil(inputs.length / CHUNK);
  const state = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const { port1, port2 } = new MessageChannel();
  let worker: Worker | null = null;
  let ended = Promise.resolve();
  try {
    const started = startWorker(options.entry ?? 'facts-worker', { inputs: given, chunk: CHUNK, state });
    started.postMessage({ port: port2 }, [port2]);
    // an error in the worker leaves its chunks to this thread (take); it must not end the process
    started.on('error', () => {});
    ended = new Promise((resolve) => started.once('exit', () => resolve()));
    started.unref();
    worker = started;
  } catch {
    worker = null;
  }
  let fromWorker = 0;
  const close = () => {
    inputs = [];
    port1.close();
    void worker?.terminate();
    worker = null;
  };
  return {
    from,
    close,
    ended,
    get fromWorker() {
      return fromWorker;
    },
    take(): readonly RecordFacts[] {
      const facts = new Array<RecordFacts>(inputs.length);
      const colors = new Map<string, ReadonlySet<string>>();
      const computeHere = (c: number) => {
        for (let k = c * CHUNK; k < Math.min(inputs.length, (c + 1) * CHUNK); k++)
          facts[k] = recordFacts(inputs[k]!);
      };
      // what the worker has not claimed yet is computed here
      const done = new Uint8Array(chunks);
      let here = 0;
      for (let c = Atomics.add(state, NEXT, 1); c < chunks; c = Atomics.add(state, NEXT, 1)) {
        computeHere(c);
        done[c] = 1;
        here++;
      }
      // the rest the worker claimed: wait for each (it posts before it counts)
      let received = here;
      let waitedSince = performance.now();
      while (received < chunks) {
        const posted = Atomics.load(state, POSTED);
        const message = receiveMessageOnPort(port1)?.message as ChunkMessage | undefined;
        if (!message) {
          if (performance.now() - waitedSince > stallMs) break;
          Atomics.wait(state, POSTED, posted, 1_000);
          continue;
        }
        if ('facts' in message) {
          const at = message.chunk * CHUNK;
          const chunk = JSON.parse(message.facts) as EncodedFacts[];
          for (let k = 0; k < chunk.length; k++) facts[at + k] = decodeFacts(chunk[k]!, colors);
          fromWorker += chunk.length;
        } else computeHere(message.chunk);
        done[message.chunk] = 1;
        received++;
        waitedSince = performance.now();
      }
      // a worker that stopped posting (it died without an error event this thread could see
      // while it waits): what it claimed and never posted is computed here
      if (received < chunks) for (let c = 0; c < chunks; c++) if (!done[c]) computeHere(c);
      close();
      return facts;
    },
  };
}
