/**
 * Worker thread of DocumentPacker (document-packer.ts), shared by the packers: each sends a
 * port of its own (PackerPort). It claims parts of each batch sent on a port from the batch's
 * shared counter and packs them as the calling thread does (pack-batch.ts). Loads the light
 * codec only: this thread never loads the database code.
 */
import { parentPort } from 'node:worker_threads';
import { type PackerPort, type PackRequest, packPart, type WorkerMessage } from './pack-batch.js';

parentPort?.on('message', ({ port, posted, dictionary }: PackerPort) => {
  /** this packer's dictionaries, by number: the first, then those it adds */
  const dictionaries = [Buffer.from(dictionary)];
  port.on('message', (message: PackRequest | { dictionary: Uint8Array }) => {
    if ('dictionary' in message) {
      dictionaries.push(Buffer.from(message.dictionary));
      return;
    }
    if (pack(message, dictionaries, port)) {
      Atomics.add(posted, 0, 1);
      Atomics.notify(posted, 0);
    }
  });
});

/** Packs what it can claim of a batch and posts it; false when it claimed nothing (nothing posted). */
function pack(batch: PackRequest, dictionaries: readonly Buffer[], port: PackerPort['port']): boolean {
  const { id, next } = batch;
  const total = batch.docs.length + batch.texts.length;
  const parts: Buffer[] = [];
  const indices: number[] = [];
  try {
    for (let i = Atomics.add(next, 0, 1); i < total; i = Atomics.add(next, 0, 1)) {
      indices.push(i);
      parts.push(packPart(batch, i, dictionaries));
    }
    // claimed nothing (the calling thread packed it all): the caller does not wait for a post
    if (indices.length === 0) return false;
    const ends = new Uint32Array(parts.length);
    let at = 0;
    parts.forEach((p, k) => {
      at += p.length;
      ends[k] = at;
    });
    // a fresh buffer of its own (Buffer.concat may hand out a slice of the shared pool)
    const bytes = new Uint8Array(at);
    at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    const share = { id, bytes, ends, indices: Uint32Array.from(indices) } satisfies WorkerMessage;
    port.postMessage(share, [bytes.buffer, ends.buffer, share.indices.buffer as ArrayBuffer]);
  } catch (error) {
    if (indices.length === 0) return false;
    port.postMessage({ id, error: String((error as Error)?.stack ?? error) } satisfies WorkerMessage);
  }
  return true;
}
