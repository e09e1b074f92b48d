import { existsSync } from 'node:fs';
import { type Db, openReadOnly } from '../../catalog/index.js';

/** What the previous published snapshot knew, so ids and slugs stay stable across runs. */
export interface PreviousCatalog {
  path: string | null;
  productIdByListing: Map<string, string>;
  productIdByGtin: Map<string, string>;
  products: Map<string, { slug: string; created_at: string }>;
  groups: Map<string, { id: string; slug: string; created_at: string }>;
}

export function readPrevious(path: string | null): PreviousCatalog {
  const empty: PreviousCatalog = {
    path: null,
    productIdByListing: new Map(),
    productIdByGtin: new Map(),
    products: new Map(),
    groups: new Map(),
  };
  if (!path || !existsSync(path)) return empty;
  let db: Db | null = null;
  try {
    db = openReadOnly(path);
    const prev: PreviousCatalog = { ...empty, path };
    const listingTable = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'retailer_listings'").get()
      ? 'retailer_listings'
      : 'offers';
    for (const r of db
      .prepare(
        `SELECT r.slug, o.retailer_item_id, o.product_id FROM ${listingTable} o JOIN retailers r ON r.id = o.retailer_id`,
      )
      .iterate() as Iterable<{ slug: string; retailer_item_id: string; product_id: string }>) {
      prev.productIdByListing.set(`${r.slug}:${r.retailer_item_id}`, r.product_id);
    }
    for (const r of db.prepare('SELECT gtin14, product_id FROM product_gtins').iterate() as Iterable<{
      gtin14: string;
      product_id: string;
    }>) {
      prev.productIdByGtin.set(r.gtin14, r.product_id);
    }
    for (const r of db.prepare('SELECT id, slug, created_at FROM products').iterate() as Iterable<{
      id: string;
      slug: string;
      created_at: string;
    }>) {
      prev.products.set(r.id, { slug: r.slug, created_at: r.created_at });
    }
    for (const r of db.prepare('SELECT id, slug, created_at FROM product_groups').iterate() as Iterable<{
      id: string;
      slug: string;
      created_at: string;
    }>) {
      prev.groups.set(r.id, { id: r.id, slug: r.slug, created_at: r.created_at });
    }
    return prev;
  } catch {
    return empty;
  } finally {
    db?.close();
  }
}
