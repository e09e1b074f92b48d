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

/**
 * A product's stored document still packed (document-codec.ts, about a ninth of its JSON on
 * the 35k demo), with what a read adds to it: reading it back is one inflate, no SQLite row.
 */
export interface PackedDocument {
  packed: Uint8Array;
  knowledge: string | null;
  etag: string;
}

/** Bytes a kept document counts for besides its text (the entry, its key, the ETag). */
const OVERHEAD = 64;
/** A packed document's bytes are held by a Buffer view besides the entry: its object counts too. */
const PACKED_OVERHEAD = OVERHEAD + 96;

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
  readonly #packed: LRUCache<string, PackedDocument> | null;
  readonly #packedLimits: { maxSize: number; maxEntries: number };

  /**
   * `maxBytes` of decoded documents (0 keeps none) and `packedBytes` of packed ones (default
   * none). A packed document takes about a sixth of the memory of its JSON, so a budget split
   * between both holds far more products (all 35,000 of the demo in 16 MB packed): a read
   * that misses the decoded ones costs an inflate (~15 µs) instead of a SQLite row and an
   * inflate (~35 µs, measured loaded under `npm run bench`).
   */
  constructor(maxBytesAsked: number, packedBytesAsked = 0) {
    // whole bytes: the LRU refuses a fractional budget (SHELF_DOCUMENT_CACHE_MB=0.05)
    const maxBytes = Math.floor(maxBytesAsked);
    const packedBytes = Math.floor(packedBytesAsked);
    // about 4 KB a document: the sketch counts for a few times the documents that fit
    const maxEntries = Math.max(1024, Math.ceil(maxBytes / 1024));
    // about 700 bytes a packed document
    const packedEntries = Math.max(1024, Math.ceil(packedBytes / 256));
    this.#packedLimits = { maxSize: packedBytes, maxEntries: packedEntries };
    this.#packed =
      packedBytes > 0
        ? new LRUCache({
            max: packedEntries,
            maxSize: packedBytes,
            sizeCalculation: (d, id) => packedSizeOf(id, d),
          })
        : null;
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
    const counted = Math.max(maxBytes > 0 ? Math.ceil(maxBytes / 4096) : 0, Math.ceil(packedBytes / 700));
    this.#asked = counted > 0 ? new FrequencySketch(counted) : null;
  }

  /** The kept document of product `id`; counts the request for admission either way. */
  get(id: string): KeptDocument | undefined {
    this.#asked?.increment(id);
    return this.#lru?.get(id);
  }

  /** The packed document of product `id`, when kept (get counted the request already). */
  getPacked(id: string): PackedDocument | undefined {
    return this.#packed?.get(id);
  }

  /**
   * Keeps a packed document just read from the snapshot, when admitted (as `set`). Its bytes
   * are copied: a Buffer from SQLite has a backing store of its own, a copy this small comes
   * out of Node's shared pool.
   */
  setPacked(id: string, document: PackedDocument): void {
    const packed = this.#packed;
    if (!packed || packed.has(id)) return;
    const size = packedSizeOf(id, document);
    if ((this.#asked as FrequencySketch).admits(packed, this.#packedLimits, id, size))
      packed.set(id, { ...document, packed: Buffer.from(document.packed) });
  }

  /** Keeps a document just read, when it is admitted (see the class). */
  set(id: string, document: KeptDocument): void {
    const lru = this.#lru;
    if (!lru) return;
    // a document it holds already is replaced: admission decides between different ones
    if (lru.has(id) || (this.#asked as FrequencySketch).admits(lru, this.#limits, id, sizeOf(id, document)))
      lru.set(id, document);
  }

  /**
   * Whether `set` would keep a document of `jsonLength` characters that it does not hold now,
   * asked before a document read as bytes is made a string for it.
   */
  keeps(id: string, jsonLength: number, etag: string): boolean {
    const lru = this.#lru;
    if (!lru) return false;
    const size = documentSize(id, jsonLength, etag);
    return lru.has(id) || (this.#asked as FrequencySketch).admits(lru, this.#limits, id, size);
  }

  /** Bytes held (by the budget's count). */
  get size(): number {
    return (this.#lru?.calculatedSize ?? 0) + (this.#packed?.calculatedSize ?? 0);
  }
}

// the knowledge text is shared between documents (one string per distinct text): not counted
const documentSize = (id: string, jsonLength: number, etag: string): number =>
  jsonLength + etag.length + id.length + OVERHEAD;
const sizeOf = (id: string, d: KeptDocument): number => documentSize(id, d.json.length, d.etag);
const packedSizeOf = (id: string, d: PackedDocument): number =>
  d.packed.length + d.etag.length + id.length + PACKED_OVERHEAD;
