/** Worker thread entry of `DocumentPacker` (document-packer.ts): packs each batch it is sent. */
import { parentPort } from 'node:worker_threads';
import { type PackReply, type PackRequest, packBatch } from './pack-batch.js';

let dictionary = Buffer.alloc(0);
parentPort?.on('message', (message: { dictionary: Uint8Array } | PackRequest) => {
  if ('dictionary' in message) {
    dictionary = Buffer.from(message.dictionary);
    return;
  }
  const reply: PackReply = { batch: message.batch, ...packBatch(message.docs, message.texts, dictionary) };
  parentPort?.postMessage(reply, [reply.bytes.buffer as ArrayBuffer]);
});
parentPort?.postMessage('ready');
