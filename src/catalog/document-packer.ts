import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { startWorker } from '../util/index.js';
import {
  type PackerPort,
  type PackRequest,
  type PackShare,
  packPart,
  type WorkerMessage,
} from './pack-batch.js';

/** What a batch packs to: its documents and its texts, each in the order they were added. */
export interface Packed {
  docs: Buffer[];
  texts: Buffer[];
}

type Batch = Omit<PackRequest, 'id'>;

/**
 * The one document packer of ingest: packs batches of JSON documents with its dictionary
 * (`packDocument`) or with one of its numbered dictionaries each (`packNumbered`), and texts
 * alone (`packText`), on two threads, for writers that run
 * inside a synchronous SQLite transaction. `add` hands a batch to the worker thread
 * (pack-worker.ts) and returns at once, so the caller goes on building or writing; `take`
 * packs on the calling thread what the worker has not claimed yet (the two claim parts one
 * at a time from a counter they share, so neither idles while the other has work) and blocks
 * (Atomics.wait) only until the worker's share of that batch is posted. A worker that has not
 * loaded yet (half a second from TypeScript sources) claims nothing: the caller packs it all.
 * Either thread packs with the same codec, so a part packs to the same bytes wherever it was
 * packed; a batch the worker failed on is packed on the calling thread. Packers share one
 * worker thread (see packWorker), each through a port of its own.
 */
export class DocumentPacker {
  /** the dictionaries by number: the constructor's, then those added */
  readonly #dictionaries: Buffer[];
  readonly #worker: Worker | null = null;
  #port: MessagePort | null = null;
  /** batches the worker has posted: incremented by it after each post */
  readonly #posted = new Int32Array(new SharedArrayBuffer(4));
  #seen = 0;
  readonly #batches: (Batch | undefined)[] = [];
  /** what the worker posted, by batch, until taken */
  readonly #shares = new Map<number, PackShare | { error: string }>();
  #workerBatches = 0;

  /**
   * @param options.worker false to pack everything on the calling thread; by default a worker
   *   starts when the machine has another core
   */
  constructor(dictionary: Buffer, options: { worker?: boolean } = {}) {
    this.#dictionaries = [dictionary];
    if (options.worker === false || availableParallelism() < 2) return;
    this.#worker = packWorker();
    if (!this.#worker) return;
    const { port1, port2 } = new MessageChannel();
    this.#worker.postMessage({ port: port2, posted: this.#posted, dictionary } satisfies PackerPort, [port2]);
    this.#port = port1;
  }

  /** Adds a dictionary for the batches added after it; returns its number (the constructor's is 0). */
  addDictionary(dictionary: Buffer): number {
    this.#dictionaries.push(dictionary);
    this.#port?.postMessage({ dictionary });
    return this.#dictionaries.length - 1;
  }

  /**
   * Queues a batch: documents packed with dictionary 0 (packDocument), or, given
   * `dictionaries` (one number a document), each with its own (packNumbered); texts packed
   * alone. Returns the batch's number.
   */
  add(docs: readonly string[], texts: readonly string[] = [], dictionaries?: readonly number[]): number {
    const id = this.#batches.length;
    const batch: Batch = { docs, texts, next: new Int32Array(new SharedArrayBuffer(4)) };
    if (dictionaries) batch.dictionaries = dictionaries;
    this.#batches.push(batch);
    this.#port?.postMessage({ id, ...batch } satisfies PackRequest);
    return id;
  }

  /** The packed documents and texts of batch `id`; blocks until the worker's share is posted. Once per batch. */
  take(id: number): Packed {
    const batch = this.#batches[id];
    if (!batch) throw new Error(`document packer: no batch ${id} to take`);
    this.#batches[id] = undefined;
    const { docs, next } = batch;
    const total = docs.length + batch.texts.length;
    const out = new Array<Buffer>(total);
    let packedHere = 0;
    for (let i = Atomics.add(next, 0, 1); i < total; i = Atomics.add(next, 0, 1)) {
      out[i] = this.#pack(batch, i);
      packedHere++;
    }
    if (packedHere < total) {
      const share = this.#workerShare(id);
      if ('error' in share) {
        // the worker failed on this batch: what it claimed is packed here (and fails here too
        // if the input is at fault)
        for (let i = 0; i < total; i++) out[i] ??= this.#pack(batch, i);
      } else {
        this.#workerBatches++;
        let start = 0;
        share.indices.forEach((i, k) => {
          const end = share.ends[k] as number;
          out[i] = Buffer.from(share.bytes.buffer, share.bytes.byteOffset + start, end - start);
          start = end;
        });
      }
    }
    return { docs: out.slice(0, docs.length), texts: out.slice(docs.length) };
  }

  /** How many batches the worker packed a share of. */
  get workerBatches(): number {
    return this.#workerBatches;
  }

  /**
   * Lets the worker go (it stays for the next packer); what it holds of batches not taken is
   * lost, and later batches are packed on the calling thread.
   */
  async close(): Promise<void> {
    if (!this.#port) return;
    this.#port.close();
    this.#port = null;
    releaseWorker();
  }

  #pack(batch: Batch, i: number): Buffer {
    return packPart(batch, i, this.#dictionaries);
  }

  /** What the worker packed of batch `id`, once it has posted it. */
  #workerShare(id: number): PackShare | { error: string } {
    const port = this.#port;
    if (!port) throw new Error(`document packer: closed before batch ${id} was taken`);
    for (;;) {
      const share = this.#shares.get(id);
      if (share) {
        this.#shares.delete(id);
        return share;
      }
      const message = receiveMessageOnPort(port)?.message as WorkerMessage | undefined;
      if (message) {
        this.#shares.set(message.id, message);
        continue;
      }
      // nothing posted since the last look: sleep until the worker counts a new post (a post
      // made before counting is then in the port); a worker seen to have died never will
      if (Atomics.wait(this.#posted, 0, this.#seen, 1000) === 'timed-out' && this.#worker?.threadId === -1)
        throw new Error('document packer: the worker thread stopped');
      this.#seen = Atomics.load(this.#posted, 0);
    }
  }
}

/**
 * The packers' worker thread: started by the first packer that wants one (half a second of
 * loading from the TypeScript sources) and kept for the next, unreferenced, so it never keeps
 * the process alive. null where it cannot start; a worker that failed is replaced. Once no
 * packer has used it for IDLE_MS it stops, so a server that ingests daily does not hold it.
 */
let shared: Worker | null = null;
let users = 0;
let idle: NodeJS.Timeout | null = null;
const IDLE_MS = 30_000;
function releaseWorker(): void {
  if (--users > 0 || !shared) return;
  const worker = shared;
  idle = setTimeout(() => {
    if (shared === worker && users === 0) {
      shared = null;
      void worker.terminate();
    }
  }, IDLE_MS);
  idle.unref();
}
function packWorker(): Worker | null {
  if (idle) clearTimeout(idle);
  idle = null;
  if (!shared || shared.threadId === -1) {
    try {
      const worker = startWorker(import.meta.url, 'pack-worker', null);
      worker.unref();
      const forget = () => {
        if (shared === worker) shared = null;
      };
      worker.on('error', forget);
      worker.on('exit', forget);
      shared = worker;
    } catch {
      shared = null;
    }
  }
  if (shared) users++;
  return shared;
}
