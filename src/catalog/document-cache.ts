import { LRUCache } from 'lru-cache';
import { FrequencySketch } from '../util/index.js';

/** A product's default response body as stored at ingest, with its ETag. */
export interface ProductDocument {
  json: string;
  etag: string;
}

/**
 * A product's stored document as kept: its list form (the body of a search or list page
 * item), the `_knowledge` meta a single-product body adds (one string shared by every
 * product with the same text), and the ETag of the single-product body.
 */
export interface KeptDocument {
  json: string;
  knowledge: string | null;
  etag: string;
}

/** Bytes a kept document counts for besides its text (the entry, its key, the ETag). */
const OVERHEAD = 64;

/**
 * Product documents kept in memory for one snapshot, within a byte budget. A document read
 * from SQLite costs a B-tree walk and an inflate with its type's dictionary (about 25 µs of
 * a product read on the 35k demo); kept, a read is a map lookup. The 35k demo's documents
 * take about 140 MB decoded, the default budget 32 MB (docs/operations.md), so which ones
 * stay matters: least recently used out, but a new document is taken only while there is
 * room or when it is asked for more often, recently, than the one it would push out
 * (TinyLFU, util/frequency.ts). A pass over every product (a crawler, `npm run bench`)
 * then keeps the documents it found instead of replacing each before it is asked for
 * again, which left a plain LRU with no hits at all. A new snapshot gets a new, empty cache.
 */
export class DocumentCache {
  readonly #lru: LRUCache<string, KeptDocument> | null;
  readonly #asked: FrequencySketch | null;
  readonly #limits: { maxSize: number; maxEntries: number };

  /** `maxBytes` 0 keeps nothing. */
  constructor(maxBytes: number) {
    // about 4 KB a document: the sketch counts for a few times the documents that fit
    const maxEntries = Math.max(1024, Math.ceil(maxBytes / 1024));
    this.#limits = { maxSize: maxBytes, maxEntries };
    this.#lru =
      maxBytes > 0
        ? new LRUCache({
            max: maxEntries,
            maxSize: maxBytes,
            // string length counts one byte a character: a document with characters past
            // U+00FF takes two, which the budget then undercounts at most twofold
            sizeCalculation: (d, id) => sizeOf(id, d),
          })
        : null;
    this.#asked = maxBytes > 0 ? new FrequencySketch(Math.ceil(maxBytes / 4096)) : null;
  }

  /** The kept document of product `id`; counts the request for admission either way. */
  get(id: string): KeptDocument | undefined {
    if (!this.#lru) return undefined;
    (this.#asked as FrequencySketch).increment(id);
    return this.#lru.get(id);
  }

  /** Keeps a document just read, when it is admitted (see the class). */
  set(id: string, document: KeptDocument): void {
    const lru = this.#lru;
    if (!lru) return;
    // a document it holds already is replaced: admission decides between different ones
    if (lru.has(id) || (this.#asked as FrequencySketch).admits(lru, this.#limits, id, sizeOf(id, document)))
      lru.set(id, document);
  }

  /** Bytes held (by the budget's count). */
  get size(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}

// the knowledge text is shared between documents (one string per distinct text): not counted
const sizeOf = (id: string, d: KeptDocument): number => d.json.length + d.etag.length + id.length + OVERHEAD;
