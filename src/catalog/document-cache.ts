import { LRUCache } from 'lru-cache';

/** A product's default response body as stored at ingest, with its ETag. */
export interface ProductDocument {
  json: string;
  etag: string;
}

/**
 * Product documents kept in memory for one snapshot, least recently used out past a byte
 * budget. A document read from SQLite costs a B-tree walk and overflow pages spread over a
 * 1 GB file; under load, with other work evicting CPU caches, that was about 20 µs of a
 * product read (77–86 µs against 59–63 µs with this cache, same machine state). The whole
 * 35k demo is about 140 MB. A new snapshot gets a new, empty cache.
 */
export class DocumentCache {
  readonly #lru: LRUCache<string, ProductDocument> | null;

  /** `maxBytes` 0 keeps nothing. */
  constructor(maxBytes: number) {
    this.#lru =
      maxBytes > 0
        ? new LRUCache({
            maxSize: maxBytes,
            // string length counts one byte a character: a document with characters past
            // U+00FF takes two, which the budget then undercounts at most twofold
            sizeCalculation: (d, id) => d.json.length + d.etag.length + id.length + 64,
          })
        : null;
  }

  get(id: string): ProductDocument | undefined {
    return this.#lru?.get(id);
  }

  set(id: string, document: ProductDocument): void {
    this.#lru?.set(id, document);
  }

  /** Bytes held (by the budget's count). */
  get size(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}
