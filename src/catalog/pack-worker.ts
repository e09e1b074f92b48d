/**
 * Worker thread of DocumentPacker (document-packer.ts): claims parts of each batch it is
 * sent from the batch's shared counter and packs them with the codec the calling thread uses.
 * Imports the light codec entry only: this thread never loads the database code.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { packDocument, packText } from './codec.js';

/** A batch sent to the worker. */
export interface PackRequest {
  id: number;
  docs: readonly string[];
  texts: readonly string[];
  /** the next part to claim, shared with the calling thread */
  next: Int32Array;
}

/**
 * What the worker packed of a batch: its parts end to end in one buffer (one transfer
 * instead of one per part), `ends[k]` where the k-th ends, `indices[k]` its place in the
 * batch (documents first, then texts).
 */
export interface PackShare {
  id: number;
  bytes: Uint8Array;
  ends: Uint32Array;
  indices: Uint32Array;
}
export type WorkerMessage = PackShare | { id: number; error: string };

const { port, posted } = workerData as { port: MessagePort; posted: Int32Array; dictionary: Uint8Array };
const dictionary = Buffer.from(workerData.dictionary);

port.on('message', ({ id, docs, texts, next }: PackRequest) => {
  const total = docs.length + texts.length;
  const parts: Buffer[] = [];
  const indices: number[] = [];
  let message: WorkerMessage;
  try {
    for (let i = Atomics.add(next, 0, 1); i < total; i = Atomics.add(next, 0, 1)) {
      indices.push(i);
      parts.push(
        i < docs.length
          ? packDocument(docs[i] as string, dictionary)
          : packText(texts[i - docs.length] as string),
      );
    }
    // claimed nothing (the calling thread packed it all): the caller does not wait for a post
    if (indices.length === 0) return;
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
    message = { id, bytes, ends, indices: Uint32Array.from(indices) };
    port.postMessage(message, [bytes.buffer, ends.buffer, message.indices.buffer as ArrayBuffer]);
  } catch (error) {
    if (indices.length === 0) return;
    port.postMessage({ id, error: String((error as Error)?.stack ?? error) } satisfies WorkerMessage);
  }
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
