/**
 * Worker thread of DocumentPacker (document-packer.ts): claims parts of each batch it is
 * sent from the batch's shared counter and packs them as the calling thread does
 * (pack-batch.ts). Loads the light codec only: this thread never loads the database code.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { type PackRequest, packPart, type WorkerMessage } from './pack-batch.js';

const { port, posted } = workerData as { port: MessagePort; posted: Int32Array; dictionary: Uint8Array };
/** the packer's dictionaries, by number: the first from workerData, the rest as added */
const dictionaries = [Buffer.from(workerData.dictionary)];

port.on('message', (message: PackRequest | { dictionary: Uint8Array }) => {
  if ('dictionary' in message) {
    dictionaries.push(Buffer.from(message.dictionary));
    return;
  }
  const { id, next } = message;
  const total = message.docs.length + message.texts.length;
  const parts: Buffer[] = [];
  const indices: number[] = [];
  try {
    for (let i = Atomics.add(next, 0, 1); i < total; i = Atomics.add(next, 0, 1)) {
      indices.push(i);
      parts.push(packPart(message, i, dictionaries));
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
    const share = { id, bytes, ends, indices: Uint32Array.from(indices) } satisfies WorkerMessage;
    port.postMessage(share, [bytes.buffer, ends.buffer, share.indices.buffer as ArrayBuffer]);
  } catch (error) {
    if (indices.length === 0) return;
    port.postMessage({ id, error: String((error as Error)?.stack ?? error) } satisfies WorkerMessage);
  }
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
});
