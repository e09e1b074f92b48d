import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { PACK_LEVEL, packDocument } from './document-codec.js';

/**
 * Packs documents (document-codec.ts) on two threads, for writers that run inside one
 * synchronous SQLite transaction and so cannot await: `submit` hands a batch to a worker
 * and returns at once, so the caller goes on building the next batch; `take` packs what the
 * worker has not claimed yet on the calling thread (the two claim documents one at a time
 * from a shared counter, so neither waits while the other has work) and blocks
 * (Atomics.wait) until the worker's share is posted. Each document packed with the
 * dictionary costs ~100 µs, mostly deflate hashing the 32 KB dictionary again, which no zlib
 * API lets a caller keep. The bytes are packDocument's exactly (same level, dictionary and
 * zlib), so readers cannot tell which thread packed a document.
 */
export class DocumentPacker {
  readonly #dictionary: Buffer;
  readonly #worker: Worker | null;
  readonly #port: MessagePort | null;
  /** batches the worker has posted: incremented by it after each post */
  readonly #posted: Int32Array;
  #seen = 0;
  #submitted = 0;
  readonly #done = new Map<number, WorkerShare>();

  /**
   * @param threads worker threads beside the caller's (0: `take` packs everything itself);
   *   default one when the machine has another core, else 0
   */
  constructor(dictionary: Buffer, threads = availableParallelism() > 1 ? 1 : 0) {
    this.#dictionary = dictionary;
    this.#posted = new Int32Array(new SharedArrayBuffer(4));
    if (threads <= 0) {
      this.#worker = null;
      this.#port = null;
      return;
    }
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#worker = new Worker(WORKER, {
      eval: true,
      workerData: { port: port2, posted: this.#posted, level: PACK_LEVEL, dictionary },
      transferList: [port2],
    });
    // a packer left open must not keep the process alive
    this.#worker.unref();
  }

  /** Starts packing `texts`; the returned ticket gives them packed, in order, to {@link take}. */
  submit(texts: readonly string[]): PackTicket {
    const ticket = { id: this.#submitted++, texts, next: new Int32Array(new SharedArrayBuffer(4)) };
    this.#port?.postMessage({ id: ticket.id, texts, next: ticket.next });
    return ticket;
  }

  /** The packed documents of a ticket, in the order they were submitted; blocks until packed. */
  take(ticket: PackTicket): Buffer[] {
    const { texts, next } = ticket;
    const out = new Array<Buffer>(texts.length);
    for (let i = Atomics.add(next, 0, 1); i < texts.length; i = Atomics.add(next, 0, 1))
      out[i] = packDocument(texts[i] as string, this.#dictionary);
    if (this.#port) {
      const { bytes, lengths, indices } = this.#workerShare(ticket.id);
      let at = bytes.byteOffset;
      indices.forEach((i, k) => {
        const length = lengths[k] as number;
        out[i] = Buffer.from(bytes.buffer, at, length);
        at += length;
      });
    }
    return out;
  }

  /** What the worker packed of batch `id`, once it has posted it. */
  #workerShare(id: number): WorkerShare {
    const port = this.#port as MessagePort;
    for (;;) {
      const done = this.#done.get(id);
      if (done) {
        this.#done.delete(id);
        return done;
      }
      const message = receiveMessageOnPort(port)?.message as WorkerMessage | undefined;
      if (message) {
        if ('error' in message) throw new Error(`document packer: ${message.error}`);
        this.#done.set(message.id, message);
        continue;
      }
      // nothing posted since the last look: sleep until the worker counts a new batch (a
      // post it made before counting is then in the port); a dead worker never will
      if (Atomics.wait(this.#posted, 0, this.#seen, 1000) === 'timed-out' && this.#worker?.threadId === -1)
        throw new Error('document packer: the worker thread stopped');
      this.#seen = Atomics.load(this.#posted, 0);
    }
  }

  /** Stops the worker; tickets not taken are lost. */
  close(): void {
    this.#port?.close();
    void this.#worker?.terminate();
  }
}

/** A batch handed to {@link DocumentPacker.submit}. */
export interface PackTicket {
  readonly id: number;
  readonly texts: readonly string[];
  /** the next document to claim, shared with the worker */
  readonly next: Int32Array;
}

/** What the worker packed of a batch: its documents end to end, their lengths and positions. */
interface WorkerShare {
  id: number;
  bytes: Uint8Array;
  lengths: Uint32Array;
  indices: Uint32Array;
}
type WorkerMessage = WorkerShare | { error: string };

/**
 * The worker: plain JavaScript with Node's own modules only, so that it runs the same from
 * the TypeScript sources (tsx) and from the build. It packs as packDocument does (the level
 * comes from document-codec.ts), claiming documents from the batch's shared counter. The
 * result is copied into fresh buffers (Buffer.concat may return a slice of Node's shared
 * pool, which cannot be transferred).
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
const { port, posted, level } = workerData;
const dictionary = Buffer.from(workerData.dictionary.buffer, workerData.dictionary.byteOffset, workerData.dictionary.byteLength);
port.on('message', ({ id, texts, next }) => {
  try {
    const packed = [];
    const claimed = [];
    for (let i = Atomics.add(next, 0, 1); i < texts.length; i = Atomics.add(next, 0, 1)) {
      claimed.push(i);
      packed.push(deflateRawSync(texts[i], { level, dictionary }));
    }
    const lengths = new Uint32Array(packed.length);
    const indices = Uint32Array.from(claimed);
    let total = 0;
    packed.forEach((p, k) => { lengths[k] = p.length; total += p.length; });
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of packed) { bytes.set(p, at); at += p.length; }
    port.postMessage({ id, bytes, lengths, indices }, [bytes.buffer, lengths.buffer, indices.buffer]);
  } catch (error) {
    port.postMessage({ error: String((error && error.stack) || error) });
  }
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
`;
