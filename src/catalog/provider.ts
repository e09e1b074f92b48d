import { type FSWatcher, watch } from 'node:fs';
import { basename } from 'node:path';
import { type Db, openReadOnly } from './database.js';
import { DocumentCache } from './document-cache.js';
import { catalogDir, currentSnapshotPath, sweepPartialSnapshots } from './snapshot.js';

/** A published snapshot opened for reading. */
export interface CatalogHandle {
  db: Db;
  /** file name of the snapshot: changes on every publish (used in cache keys and ETags) */
  version: string;
  /** this snapshot's product documents kept in memory */
  documents: DocumentCache;
}

export interface CatalogProviderOptions {
  dataDir: string;
  /**
   * how often to check `CURRENT` besides file-system events, ms (default 500: a publish or a
   * `shelf catalog rollback` is served within a second even where file events are not delivered)
   */
  pollMs?: number;
  /** how long a replaced snapshot stays open for requests still using it, ms (default 30000) */
  graceMs?: number;
  /**
   * most bytes of product documents kept in memory per snapshot (0 none); 256 MiB for a
   * provider made without it, while `shelf serve` passes `SHELF_DOCUMENT_CACHE_MB` (32 MB unless set)
   */
  documentCacheBytes?: number;
  onSwap?: (handle: CatalogHandle) => void;
  onError?: (error: unknown) => void;
}

/**
 * Holds the published snapshot and swaps to a newer one when ingest publishes, without a
 * restart. Queries are synchronous, so a request that took a handle finishes on it; the old
 * connection is closed only after a grace period.
 */
export class CatalogProvider {
  #handle: CatalogHandle | null = null;
  #watcher: FSWatcher | null = null;
  #timer: NodeJS.Timeout | null = null;
  readonly #options: Required<Omit<CatalogProviderOptions, 'onSwap' | 'onError'>> &
    Pick<CatalogProviderOptions, 'onSwap' | 'onError'>;

  constructor(options: CatalogProviderOptions) {
    this.#options = { pollMs: 500, graceMs: 30_000, documentCacheBytes: 256 * 1024 * 1024, ...options };
  }

  /** The current snapshot, or null when none is published. */
  get current(): CatalogHandle | null {
    return this.#handle;
  }

  /** Opens the published snapshot (if any) and starts watching for new ones. */
  start(): this {
    try {
      // partial files of an ingest killed mid-write (never of one still running)
      sweepPartialSnapshots(this.#options.dataDir);
    } catch (error) {
      this.#options.onError?.(error);
    }
    this.refresh();
    try {
      this.#watcher = watch(catalogDir(this.#options.dataDir), () => this.refresh());
      this.#watcher.on('error', () => {});
    } catch {
      // the folder may not exist yet; polling covers it
    }
    this.#timer = setInterval(() => this.refresh(), this.#options.pollMs);
    this.#timer.unref();
    return this;
  }

  /** Re-reads `CURRENT`; opens and swaps to a new snapshot when it changed. */
  refresh(): boolean {
    try {
      const path = currentSnapshotPath(this.#options.dataDir);
      if (!path) return false;
      const version = basename(path);
      if (this.#handle?.version === version) return false;
      const next: CatalogHandle = {
        db: openReadOnly(path),
        version,
        // up to three quarters of the budget packed (a ninth of a decoded document's memory
        // each: the 35k demo's 39,000 documents in about 20 MB, so that a pass over every
        // product reads none from SQLite), the rest and what the packed ones leave unused
        // decoded (the documents asked for most, a map lookup each instead of an inflate)
        documents: new DocumentCache(
          this.#options.documentCacheBytes / 4,
          (this.#options.documentCacheBytes * 3) / 4,
        ),
      };
      const previous = this.#handle;
      this.#handle = next;
      if (previous) setTimeout(() => previous.db.close(), this.#options.graceMs).unref();
      this.#options.onSwap?.(next);
      return true;
    } catch (error) {
      this.#options.onError?.(error);
      return false;
    }
  }

  close(): void {
    this.#watcher?.close();
    if (this.#timer) clearInterval(this.#timer);
    this.#handle?.db.close();
    this.#handle = null;
  }
}
