import type { MessagePort } from 'node:worker_threads';
import { packDocument, packNumbered, packText } from './codec.js';

/** What a packer sends the shared worker once: its port, post counter and first dictionary. */
export interface PackerPort {
  port: MessagePort;
  /** batches the worker has posted on `port`: incremented by it after each post */
  posted: Int32Array;
  dictionary: Uint8Array;
}

/** A batch for DocumentPacker's worker (document-packer.ts, pack-worker.ts). */
export interface PackRequest {
  id: number;
  docs: readonly string[];
  texts: readonly string[];
  /**
   * each document's dictionary number: packed with packNumbered; without it every document
   * is packed with dictionary 0 (packDocument)
   */
  dictionaries?: readonly number[];
  /** the next part to claim (documents first, then texts), shared by the two threads */
  next: Int32Array;
}

/**
 * What the worker packed of a batch: its parts end to end in one buffer (one transfer
 * instead of one per part), `ends[k]` where the k-th ends, `indices[k]` its place in the batch.
 */
export interface PackShare {
  id: number;
  bytes: Uint8Array;
  ends: Uint32Array;
  indices: Uint32Array;
}

/** What the worker posts: a batch's share, or why it could not pack it. */
export type WorkerMessage = PackShare | { id: number; error: string };

/** Part `i` of a batch packed, on either thread: the same bytes wherever it is packed. */
export function packPart(
  batch: Omit<PackRequest, 'id' | 'next'>,
  i: number,
  dictionaries: readonly Buffer[],
): Buffer {
  const { docs, texts } = batch;
  if (i >= docs.length) return packText(texts[i - docs.length] as string);
  const doc = docs[i] as string;
  return batch.dictionaries
    ? packNumbered(doc, dictionaries, batch.dictionaries[i] as number)
    : packDocument(doc, dictionaries[0] as Buffer);
}
