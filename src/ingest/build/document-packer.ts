import type { Worker } from 'node:worker_threads';
import { packDocument, packText } from '../../catalog/index.js';
import { startWorker } from '../worker.js';
import { type Packed, type PackReply, type PackRequest, splitBatch } from './pack-batch.js';

interface Batch {
  work: { docs: string[]; texts: string[] } | null;
  state: 'queued' | 'worker' | 'done';
  packed: Packed | null;
  /** settles when the worker is done with it: null when the worker failed (pack it here) */
  fromWorker: Promise<Packed | null> | null;
}

/** Batches the worker holds at once: one to pack, one waiting, so it never waits for this thread. */
const IN_FLIGHT = 2;

/**
 * Packs documents (`catalog.packDocument`, with one dictionary) in batches on a worker
 * thread beside this one, so deflate runs on the second core while this thread writes rows:
 * packing was half of the write phase (issue 20). Batches are added ahead of use and taken
 * in order; the worker packs the oldest batches nobody has started, and a batch still queued
 * when it is taken is packed on this thread, so neither thread idles while the other is
 * behind. Where no worker starts (or it fails), everything is packed here. Either way a
 * document packs to the same bytes.
 */
export class DocumentPacker {
  readonly #dictionary: Buffer;
  readonly #batches: Batch[] = [];
  #worker: Worker | null = null;
  #ready = false;
  #workerBatches = 0;
  /** the first batch the worker may still take: it takes them in order */
  #cursor = 0;
  /** what settles each batch the worker holds, by batch number */
  readonly #settle = new Map<number, (packed: Packed | null) => void>();

  constructor(dictionary: Buffer, options: { worker?: boolean } = {}) {
    this.#dictionary = dictionary;
    if (options.worker === false) return;
    try {
      const worker = startWorker('build/pack-worker', null);
      worker.postMessage({ dictionary });
      worker.on('message', (reply: PackReply | 'ready') => {
        // until the worker has loaded (half a second from TypeScript sources) this thread packs
        if (reply === 'ready') this.#ready = true;
        else this.#settled(reply.batch, splitBatch(reply));
        this.#next();
      });
      for (const event of ['error', 'exit']) worker.on(event, () => this.#fail());
      this.#worker = worker;
    } catch {
      this.#worker = null;
    }
  }

  /**
   * Queues a batch: JSON documents packed with the dictionary and texts packed alone
   * (`packText`); returns its number for {@link take}.
   */
  add(docs: string[], texts: string[] = []): number {
    this.#batches.push({ work: { docs, texts }, state: 'queued', packed: null, fromWorker: null });
    this.#next();
    return this.#batches.length - 1;
  }

  /** The packed documents and texts of batch `batch`, each in the order they were added. */
  async take(batch: number): Promise<Packed> {
    const b = this.#batches[batch];
    if (!b) throw new Error(`no batch ${batch}`);
    // the worker's messages (ready, batches done) arrive as events: let them in before deciding
    // who packs this batch, or a caller that never waits would keep the worker from starting
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (b.state === 'worker') await b.fromWorker;
    if (b.state === 'queued') {
      b.state = 'done';
      b.packed = {
        docs: (b.work?.docs ?? []).map((d) => packDocument(d, this.#dictionary)),
        texts: (b.work?.texts ?? []).map(packText),
      };
    }
    const packed = b.packed ?? { docs: [], texts: [] };
    // taken once: the batch's memory goes
    b.work = null;
    b.packed = null;
    return packed;
  }

  /** How many batches the worker packed or is packing (the rest were packed on this thread). */
  get workerBatches(): number {
    return this.#workerBatches;
  }

  /** Stops the worker; batches it held are packed on this thread when taken. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#fail();
    await worker?.terminate();
  }

  #next(): void {
    while (this.#worker && this.#ready && this.#settle.size < IN_FLIGHT) {
      while (this.#cursor < this.#batches.length && this.#batches[this.#cursor]!.state !== 'queued')
        this.#cursor++;
      const index = this.#cursor;
      const b = this.#batches[index];
      if (!b) return;
      b.state = 'worker';
      this.#workerBatches++;
      b.fromWorker = new Promise((resolve) => {
        this.#settle.set(index, (packed) => {
          b.state = packed ? 'done' : 'queued';
          if (packed) {
            b.packed = packed;
            b.work = null;
          }
          resolve(packed);
        });
      });
      const request: PackRequest = { batch: index, docs: b.work?.docs ?? [], texts: b.work?.texts ?? [] };
      this.#worker.postMessage(request);
    }
  }

  #settled(batch: number, packed: Packed | null): void {
    const settle = this.#settle.get(batch);
    this.#settle.delete(batch);
    settle?.(packed);
  }

  #fail(): void {
    this.#worker = null;
    for (const batch of [...this.#settle.keys()]) this.#settled(batch, null);
  }
}
