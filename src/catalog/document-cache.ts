import { LRUCache } from 'lru-cache';
import { FrequencySketch } from '../util/index.js';
import { type PackedDocument, PackedDocuments } from './packed-documents.js';

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

export type { PackedDocument } from './packed-documents.js';

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
  readonly #maxEntries: number;
  /** the decoded documents' own budget; they also take what the packed ones leave of theirs */
  readonly #maxBytes: number;
  readonly #packedBytes: number;
  readonly #packed: PackedDocuments | null;

  /**
   * `maxBytes` of decoded documents (0 keeps none) and `packedBytes` of packed ones (default
   * none), which the decoded ones may use while the packed ones do not: the whole budget is
   * used whether the catalog's packed documents fill their part or not. A packed document
   * takes about a ninth of the memory of its JSON (packed-documents.ts), so a budget split
   * between both holds far more products (all 39,000 documents of the 35k demo in about
   * 20 MB packed): a read that misses the decoded ones costs an inflate (~8 µs) instead of a
   * SQLite row and an inflate (about twice that).
   */
  constructor(maxBytesAsked: number, packedBytesAsked = 0) {
    // whole bytes: the LRU refuses a fractional budget (SHELF_DOCUMENT_CACHE_MB=0.05)
    const maxBytes = Math.floor(maxBytesAsked);
    const packedBytes = Math.floor(packedBytesAsked);
    this.#maxBytes = maxBytes;
    this.#packedBytes = packedBytes;
    this.#packed = packedBytes > 0 ? new PackedDocuments(packedBytes) : null;
    const mostBytes = maxBytes + packedBytes;
    // about 4 KB a document: the sketch counts for a few times the documents that fit
    this.#maxEntries = Math.max(1024, Math.ceil(mostBytes / 1024));
    this.#lru =
      maxBytes > 0
        ? new LRUCache({
            max: this.#maxEntries,
            maxSize: mostBytes,
            // string length counts one byte a character: a document with characters past
            // U+00FF takes two, which the budget then undercounts at most twofold
            sizeCalculation: (d, id) => sizeOf(id, d),
          })
        : null;
    const counted = Math.max(maxBytes > 0 ? Math.ceil(maxBytes / 4096) : 0, Math.ceil(packedBytes / 500));
    this.#asked = counted > 0 ? new FrequencySketch(counted) : null;
  }

  /** The decoded documents' limits now: their budget and what the packed ones leave unused. */
  #limits(): { maxSize: number; maxEntries: number } {
    const packed = this.#packed;
    return {
      maxSize: this.#maxBytes + (packed ? Math.max(0, this.#packedBytes - packed.size) : 0),
      maxEntries: this.#maxEntries,
    };
  }

  /** The kept document of product `id`; counts the request for admission either way. */
  get(id: string): KeptDocument | undefined {
    this.#asked?.increment(id);
    return this.#lru?.get(id);
  }

  /**
   * The packed document of product `id`, when kept (get counted the request already): its
   * bytes are a view, valid until the next `setPacked`.
   */
  getPacked(id: string): PackedDocument | undefined {
    return this.#packed?.get(id);
  }

  /**
   * Keeps a packed document just read from the snapshot, when admitted (as `set`). Its bytes
   * are copied (a Buffer from SQLite has a backing store of its own); the decoded documents
   * give back what they held of the room it takes.
   */
  setPacked(id: string, document: PackedDocument): void {
    const packed = this.#packed;
    if (!packed) return;
    const asked = this.#asked as FrequencySketch;
    const before = packed.size;
    packed.set(id, document, (victim) => asked.frequency(id) > asked.frequency(victim));
    const lru = this.#lru;
    if (lru && packed.size > before) {
      const { maxSize } = this.#limits();
      while (lru.calculatedSize > maxSize && lru.pop() !== undefined);
    }
  }

  /** Keeps a document just read, when it is admitted (see the class). */
  set(id: string, document: KeptDocument): void {
    const lru = this.#lru;
    if (!lru) return;
    // a document it holds already is replaced: admission decides between different ones
    const limits = this.#limits();
    const size = sizeOf(id, document);
    if (!lru.has(id) && !(this.#asked as FrequencySketch).admits(lru, limits, id, size)) return;
    lru.delete(id);
    if (size > limits.maxSize) return;
    // the LRU's own limit is the whole budget: past the decoded part, the least recent go
    while (lru.calculatedSize + size > limits.maxSize && lru.pop() !== undefined);
    lru.set(id, document);
  }

  /**
   * Whether `set` would keep a document of `jsonLength` characters that it does not hold now,
   * asked before a document read as bytes is made a string for it.
   */
  keeps(id: string, jsonLength: number, etag: string): boolean {
    const lru = this.#lru;
    if (!lru) return false;
    const limits = this.#limits();
    const size = documentSize(id, jsonLength, etag);
    if (size > limits.maxSize) return false;
    return lru.has(id) || (this.#asked as FrequencySketch).admits(lru, limits, id, size);
  }

  /** Bytes held (by the budget's count). */
  get size(): number {
    return (this.#lru?.calculatedSize ?? 0) + (this.#packed?.size ?? 0);
  }
}

// the knowledge text is shared between documents (one string per distinct text): not counted
const documentSize = (id: string, jsonLength: number, etag: string): number =>
  jsonLength + etag.length + id.length + OVERHEAD;
const sizeOf = (id: string, d: KeptDocument): number => documentSize(id, d.json.length, d.etag);
