import type { Worker } from 'node:worker_threads';
import { packDocument } from '../../catalog/index.js';
import { startWorker } from '../worker.js';
import { type PackReply, type PackRequest, splitBatch } from './pack-batch.js';

interface Batch {
  docs: string[] | null;
  state: 'queued' | 'worker' | 'done';
  packed: Buffer[] | null;
  /** settles when the worker is done with it: null when the worker failed (pack it here) */
  fromWorker: Promise<Buffer[] | null> | null;
}

/**
 * Packs documents (`catalog.packDocument`, with one dictionary) in batches on a worker
 * thread beside this one, so deflate runs on the second core while this thread writes rows:
 * packing was half of the write phase (issue 20). Batches are added ahead of use and taken
 * in order; the worker packs the oldest batch nobody has started, and a batch still queued
 * when it is taken is packed on this thread, so neither thread idles while the other is
 * behind. Where no worker starts (or it fails), everything is packed here. Either way a
 * document packs to the same bytes.
 */
export class DocumentPacker {
  readonly #dictionary: Buffer;
  readonly #batches: Batch[] = [];
  #worker: Worker | null = null;
  #busy = false;
  #ready = false;
  #workerBatches = 0;
  /** the first batch the worker may still take: it takes them in order */
  #cursor = 0;
  #settle: ((packed: Buffer[] | null) => void) | null = null;

  constructor(dictionary: Buffer, options: { worker?: boolean } = {}) {
    this.#dictionary = dictionary;
    if (options.worker === false) return;
    try {
      const worker = startWorker('build/pack-worker', null);
      worker.postMessage({ dictionary });
      worker.on('message', (reply: PackReply | 'ready') => {
        if (reply !== 'ready') return this.#done(splitBatch(reply));
        // until the worker has loaded (about a second from TypeScript sources) this thread packs
        this.#ready = true;
        this.#next();
      });
      for (const event of ['error', 'exit']) worker.on(event, () => this.#fail());
      this.#worker = worker;
    } catch {
      this.#worker = null;
    }
  }

  /** Queues a batch of JSON documents; returns its number for {@link take}. */
  add(docs: string[]): number {
    this.#batches.push({ docs, state: 'queued', packed: null, fromWorker: null });
    this.#next();
    return this.#batches.length - 1;
  }

  /** The packed documents of batch `batch`, in the order they were added. */
  async take(batch: number): Promise<Buffer[]> {
    const b = this.#batches[batch];
    if (!b) throw new Error(`no batch ${batch}`);
    if (b.state === 'worker') {
      const packed = await b.fromWorker;
      if (packed) b.packed = packed;
      else b.state = 'queued';
    }
    if (b.state === 'queued') {
      b.state = 'done';
      b.packed = (b.docs ?? []).map((d) => packDocument(d, this.#dictionary));
    }
    const packed = b.packed ?? [];
    // taken once: the batch's memory goes
    b.docs = null;
    b.packed = null;
    return packed;
  }

  /** How many batches the worker packed or is packing (the rest were packed on this thread). */
  get workerBatches(): number {
    return this.#workerBatches;
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#settle?.(null);
    await worker?.terminate();
  }

  #next(): void {
    if (!this.#worker || !this.#ready || this.#busy) return;
    while (this.#cursor < this.#batches.length && this.#batches[this.#cursor]!.state !== 'queued')
      this.#cursor++;
    const index = this.#cursor;
    const b = this.#batches[index];
    if (!b) return;
    b.state = 'worker';
    this.#busy = true;
    this.#workerBatches++;
    b.fromWorker = new Promise((resolve) => {
      this.#settle = (packed) => {
        b.state = packed ? 'done' : 'queued';
        if (packed) b.packed = packed;
        b.docs = packed ? null : b.docs;
        resolve(packed);
      };
    });
    const request: PackRequest = { batch: index, docs: b.docs ?? [] };
    this.#worker.postMessage(request);
  }

  #done(packed: Buffer[]): void {
    const settle = this.#settle;
    this.#settle = null;
    this.#busy = false;
    settle?.(packed);
    this.#next();
  }

  #fail(): void {
    this.#worker = null;
    const settle = this.#settle;
    this.#settle = null;
    this.#busy = false;
    settle?.(null);
  }
}
