import {
  type Db,
  DocumentPacker,
  dayNumber,
  documentDictionary,
  nameSortKey,
  storeDictionary,
  storedBreakdown,
  toCents,
} from '../../catalog/index.js';
import { modelKey } from '../../identifiers/index.js';
import { round2 } from '../../util/index.js';
import type { Listing } from '../listing.js';
import { slugify, stableUuid } from '../normalize/index.js';
import type { AssembledProduct } from './assemble.js';
import { BulkInsert } from './bulk-insert.js';
import { groupName } from './group-name.js';
import type { PreviousCatalog } from './previous.js';
import { scoreQuality } from './quality.js';
import type { Reference, TypeInfo } from './reference.js';
import type { VariantGroup } from './resolver.js';
import type { ScratchFile } from './scratch.js';

/** What the variant groups read of a product before any product is written. */
export interface ProductSummary {
  id: string;
  name: string;
  brand: AssembledProduct['brand'];
  type: TypeInfo | null;
  seriesName: string | null;
  /** the highest regular price of its listings (a sale listing's original price), if any */
  top: number | null;
  /** the lowest price a shopper pays now among its listings, if any */
  low: number | null;
}

/** The run's assembled products, by index: summaries in memory, the products on disk. */
export interface StoredProducts {
  summaries: ProductSummary[];
  add(index: number, product: AssembledProduct): void;
  load(index: number): AssembledProduct;
  /** the product is written: it will not be loaded again */
  forget(index: number): void;
}

/**
 * Assembled products kept in a scratch table until written (a product type is stored by slug
 * and comes back as the reference's own object).
 */
export function storedProducts(scratch: ScratchFile, reference: Reference): StoredProducts {
  const table = scratch.table<Omit<AssembledProduct, 'type'> & { type: string | null }>('products');
  const summaries: ProductSummary[] = [];
  const pick = (values: (number | null)[], best: (a: number, b: number) => number) =>
    values.reduce<number | null>((a, v) => (v === null ? a : a === null ? v : best(a, v)), null);
  return {
    summaries,
    add(index, p) {
      summaries[index] = {
        id: p.id,
        name: p.name,
        brand: p.brand,
        type: p.type,
        seriesName: p.seriesName,
        top: pick(
          p.listings.map((l) => l.originalPrice ?? l.price),
          Math.max,
        ),
        low: pick(
          p.listings.map((l) => l.price),
          Math.min,
        ),
      };
      table.put(index, { ...p, type: p.type?.slug ?? null });
    },
    load(index) {
      const stored = table.get(index);
      return { ...stored, type: stored.type === null ? null : reference.types.get(stored.type)! };
    },
    forget: (index) => table.forget(index),
  };
}

/** Products whose listings the listing dictionary is drawn from. */
const LISTING_SAMPLE = 200;
/**
 * Bytes of listing dictionary: deflate hashes the whole dictionary before every listing, so
 * its length is most of a listing's packing cost. Measured on the 3,000-product demo's 8,527
 * listings (level 9): 32 KB kept 27.9 % of the bytes at 121 µs CPU a listing, 16 KB 30.3 % at
 * 67 µs, 8 KB 32.7 % at 54 µs. On the 35k demo's 111,161 listings (level 6, one thread,
 * loaded machine): 16 KB kept 31.2 % at 63 µs, 8 KB 32.9 % at 47 µs, 4 KB 35.1 % at 39 µs;
 * 8 KB costs 1.7 MB more (0.04 KB a product) and saves 1.8 s of CPU. Listings are read back
 * only by the next ingest.
 */
const LISTING_DICTIONARY_BYTES = 8 * 1024;

/** Products whose listings are packed as one batch (see DocumentPacker). */
const BATCH_PRODUCTS = 250;
/**
 * Batches written between two collections (`collect`): 10,000 products at least, and at most
 * {@link COLLECTIONS} collections a write. A full collection costs time in proportion to the
 * live heap, which holds every product not yet written when they are kept in memory: at a
 * fixed interval the collections' cost grew with the square of the catalog (35k demo: 3
 * collections, 2.4 s in a loaded profile; 140k: 13, 45 s — 19× for 3.6× the products).
 */
const COLLECT_BATCHES = 40;
const COLLECTIONS = 4;

/** Batches between two of the write's garbage collections, for a write of `batches` batches. */
export const collectionInterval = (batches: number): number =>
  Math.max(COLLECT_BATCHES, Math.ceil(batches / COLLECTIONS));
/** Batches queued ahead of the one being written: the packing worker's work in hand. */
const AHEAD = 3;

/**
 * Writes products with their offers, GTINs, attributes, today's prices and listings, each
 * product and group with its name sort key (catalog nameSortKey). The
 * listings' JSON and the products' spec sources are packed on a worker thread
 * (DocumentPacker) a few batches ahead of the rows being written, so deflate and the
 * inserts overlap. The products are read back from their scratch table a batch at a time
 * (in id order), so only the batches in hand are in memory; the variant groups are written
 * first, from the summaries.
 */
export async function writeProducts(
  db: Db,
  stored: StoredProducts,
  groups: VariantGroup[],
  ctx: {
    reference: Reference;
    previous: PreviousCatalog;
    day: string;
    now: string;
    typesWithKnowledge: Set<string>;
    /**
     * a full garbage collection, called every {@link COLLECT_BATCHES} batches or more (at most
     * {@link COLLECTIONS} times): the products written are garbage, and V8 would let them pile
     * up to a multiple of the live heap
     */
    collect?: () => void;
  },
): Promise<void> {
  const summaries = stored.summaries;
  const groupIdOf = writeGroups(db, summaries, groups, ctx);
  const groupOf = new Map<number, VariantGroup>();
  for (const g of groups) for (const i of g.productIndexes) groupOf.set(i, g);
  const insertProduct =
    db.prepare(`INSERT INTO products (id, slug, name, description, gtin, mpn, model_number, model_key, brand_id,
    category_id, product_type_id, product_group_id, image_url, variant_attributes_json, specifications_json, spec_sources_json,
    data_json, quality_score, quality_breakdown_json, data_tier, source_type, naming_method, naming_confidence, category_profile_key,
    classification_confidence, current_best_price, min_price, max_price, avg_price, created_at, updated_at, name_key)
    VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  // rows nothing reads back during the write go in many to a statement (bulk-insert.ts)
  const insertGtin = new BulkInsert(db, 'INSERT OR IGNORE INTO product_gtins (gtin14, product_id)', 2);
  // offers and listings name their product and retailer by rowid (migrations/009-integer-keys.ts)
  const insertOffer =
    db.prepare(`INSERT INTO offer_rows (id, product_rowid, retailer_rowid, retailer_item_id, title, price, original_price,
    currency, in_stock, availability, retailer_url, image_url, first_seen_at, last_seen_at, gtin, match_method,
    match_confidence) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const retailerRowid = new Map(
    (db.prepare('SELECT slug, rowid FROM retailers').raw().all() as [string, number][]).filter(([slug]) =>
      ctx.reference.retailerIdBySlug.has(slug),
    ),
  );
  const insertObservation = new BulkInsert(
    db,
    'INSERT OR REPLACE INTO price_observations (offer_rowid, day, cents, original_cents, in_stock)',
    5,
  );
  const insertListing = new BulkInsert(
    db,
    'INSERT OR IGNORE INTO listing_rows (retailer_rowid, retailer_item_id, product_rowid, offer_rowid, listing_json, last_seen_at)',
    6,
  );
  const insertAttribute = new BulkInsert(
    db,
    'INSERT OR IGNORE INTO product_attributes (product_rowid, key, value, numeric_value, unit, role)',
    6,
  );
  const flushRows = () => {
    for (const insert of [insertGtin, insertObservation, insertListing, insertAttribute]) insert.flush();
  };

  /**
   * Writes one product (with its spec sources packed), its GTINs, offers, today's prices and
   * attributes; returns its rowid and its offers' rowids by retailer.
   */
  const writeProduct = (
    index: number,
    p: AssembledProduct,
    specSources: Buffer,
  ): { productRowid: number | bigint; offerRowids: Map<string, number | bigint> } => {
    // one offer per retailer: a retailer listing the same item twice keeps its cheaper listing
    const byRetailer = new Map<string, (typeof p.listings)[number]>();
    for (const l of p.listings) {
      if (l.carriedFrom?.gone) continue;
      const seen = byRetailer.get(l.retailer);
      if (!seen || (l.price ?? Infinity) < (seen.price ?? Infinity)) byRetailer.set(l.retailer, l);
    }
    const offers = [...byRetailer.values()];
    const prices = offers.map((o) => o.price).filter((x): x is number => x !== null);
    const inStockPrices = offers
      .filter((o) => o.availability === 'in_stock' && o.price !== null)
      .map((o) => o.price as number);
    const best = inStockPrices.length
      ? Math.min(...inStockPrices)
      : prices.length
        ? Math.min(...prices)
        : null;
    const quality = scoreQuality(p, p.type ? ctx.typesWithKnowledge.has(p.type.slug) : false);
    const key = p.modelNumber ? modelKey(p.modelNumber) : null;

    const { lastInsertRowid: productRowid } = insertProduct.run(
      p.id,
      p.slug,
      p.name,
      p.description,
      p.gtin,
      p.mpn,
      p.modelNumber,
      key || null,
      p.brand?.id ?? null,
      p.type?.categoryId ?? null,
      p.type?.id ?? null,
      groupIdOf.get(index) ?? null,
      p.imageUrl,
      JSON.stringify(p.variantAttributes),
      JSON.stringify(p.specs),
      specSources,
      JSON.stringify({
        listing_count: p.listings.length,
        retailer_count: offers.length,
        series_name: p.seriesName ?? groupOf.get(index)?.seriesName ?? null,
        base_model: groupOf.get(index)?.baseModel ?? null,
        classification_confidence: round2(p.typeConfidence),
        resolver_confidence: p.resolverConfidence,
      }),
      quality.score,
      storedBreakdown(quality.breakdown),
      quality.tier,
      p.listings.every((l) => l.sourceType === 'synthetic') ? 'synthetic' : 'retailer_feed',
      p.namingMethod,
      p.namingConfidence,
      p.type?.slug ?? null,
      round2(p.typeConfidence),
      best,
      prices.length ? Math.min(...prices) : null,
      prices.length ? Math.max(...prices) : null,
      prices.length ? round2(prices.reduce((a, b) => a + b, 0) / prices.length) : null,
      p.createdAt,
      ctx.now,
      nameSortKey(p.name),
    );

    for (const g of p.gtins) insertGtin.add(g, p.id);
    const offerRowids = new Map<string, number | bigint>();
    for (const o of offers) {
      const retailer = retailerRowid.get(o.retailer);
      if (retailer === undefined) continue;
      const offerId = stableUuid(`offer:${o.retailer}:${o.itemId}`);
      const inStock = o.availability === 'in_stock' ? 1 : 0;
      const match = p.matches.get(o.key);
      const { lastInsertRowid: offerRowid } = insertOffer.run(
        offerId,
        productRowid,
        retailer,
        o.itemId,
        o.title,
        o.price,
        o.originalPrice,
        o.currency,
        inStock,
        o.availability,
        o.link,
        o.imageLink,
        ctx.previous.offerFirstSeen.get(offerId) ?? ctx.now,
        o.carriedFrom?.lastSeenAt ?? ctx.now,
        o.gtin14,
        match?.method ?? 'single_listing',
        match?.confidence ?? 1,
      );
      offerRowids.set(o.retailer, offerRowid);
      // a carried-over offer was not seen today: its history keeps the days it was
      if (o.price !== null && !o.carriedFrom)
        insertObservation.add(
          offerRowid,
          dayNumber(ctx.day),
          toCents(o.price),
          o.originalPrice === null ? null : toCents(o.originalPrice),
          inStock,
        );
    }
    for (const a of p.attributes)
      insertAttribute.add(productRowid, a.key, a.value, a.numericValue, a.unit, a.role);
    return { productRowid, offerRowids };
  };

  // in id order: the products, offers and GTINs of one product sit together, and the id
  // indexes grow at their right edge, with full pages in key order (faster seeks than the
  // half-empty pages that random inserts leave)
  const order = summaries.map((_, i) => i);
  order.sort((a, b) => compareIds(summaries[a]!, summaries[b]!));
  // listings are packed with a dictionary of the first few hundred (catalog/document-codec.ts)
  const listingDictionary = documentDictionary(
    order.slice(0, LISTING_SAMPLE).flatMap((i) => stored.load(i).listings.map(listingJson)),
  ).subarray(-LISTING_DICTIONARY_BYTES);
  storeDictionary(db, 'listings', listingDictionary);
  const batches: number[][] = [];
  for (let i = 0; i < order.length; i += BATCH_PRODUCTS) batches.push(order.slice(i, i + BATCH_PRODUCTS));
  // a small catalog packs in less time than a worker takes to load (half a second from sources)
  const packer = new DocumentPacker(listingDictionary, { worker: batches.length > AHEAD });
  const collectEvery = collectionInterval(batches.length);
  // the products of the batches queued for packing, read back from the scratch table
  const loaded: AssembledProduct[][] = [];
  const queue = (b: number) => {
    const batch = batches[b];
    if (!batch) return;
    const of = batch.map((i) => stored.load(i));
    loaded[b] = of;
    packer.add(
      of.flatMap((p) => p.listings.map(listingJson)),
      of.map((p) => JSON.stringify(p.specSources)),
    );
  };
  try {
    for (let b = 0; b < Math.min(AHEAD, batches.length); b++) queue(b);
    for (const [b, batch] of batches.entries()) {
      queue(b + AHEAD);
      const packed = await packer.take(b);
      const of = loaded[b]!;
      const written = batch.map((index, k) => writeProduct(index, of[k]!, packed.texts[k]!));
      let next = 0;
      of.forEach((p, k) => {
        const { productRowid, offerRowids } = written[k]!;
        for (const l of p.listings) {
          const listingJson = packed.docs[next++];
          const retailer = retailerRowid.get(l.retailer);
          if (retailer === undefined) continue;
          const offerRowid = l.carriedFrom?.gone ? undefined : offerRowids.get(l.retailer);
          insertListing.add(
            retailer,
            l.itemId,
            productRowid,
            offerRowid ?? null,
            listingJson,
            l.carriedFrom?.lastSeenAt ?? ctx.now,
          );
        }
      });
      flushRows();
      loaded[b] = [];
      for (const index of batch) stored.forget(index);
      if (ctx.collect && (b + 1) % collectEvery === 0) ctx.collect();
    }
  } finally {
    await packer.close();
  }
}

/** A listing as stored (retailer_listings.listing_json): all but where it was carried from. */
const listingJson = (l: Listing): string => {
  // a fresh listing has no `carriedFrom` (and JSON leaves out an undefined one): no copy needed
  if (l.carriedFrom === undefined) return JSON.stringify(l);
  const { carriedFrom, ...stored } = l;
  return JSON.stringify(stored);
};

function writeGroups(
  db: Db,
  products: readonly ProductSummary[],
  groups: VariantGroup[],
  ctx: { previous: PreviousCatalog; now: string },
): Map<number, string> {
  const insert =
    db.prepare(`INSERT INTO product_groups (id, slug, name, description, base_model, series_name, variant_dimensions_json,
    original_msrp, current_market_value, product_status, brand_id, category_id, product_type_id, variant_count, created_at, updated_at,
    name_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`);
  const groupIdOf = new Map<number, string>();
  const usedSlugs = new Set<string>();
  const usedIds = new Set<string>();
  for (const group of mergeOverlapping(groups)) {
    const members = group.productIndexes
      .map((i) => products[i])
      .filter((p): p is ProductSummary => p !== undefined);
    if (members.length < 2) continue;
    const first = members[0]!;
    const identity =
      group.baseModel && first.brand
        ? `${first.brand.slug}:${group.baseModel}`
        : members
            .map((m) => m.id)
            .sort()
            .join(',');
    let id = stableUuid(`group:${identity}`);
    for (let n = 1; usedIds.has(id); n++) id = stableUuid(`group:${identity}:${n}`);
    usedIds.add(id);
    const name = groupName(members, group);
    let slug = ctx.previous.groups.get(id)?.slug ?? (slugify(name, 70) || 'group');
    if (usedSlugs.has(slug)) slug = `${slug}-${id.slice(0, 8)}`;
    usedSlugs.add(slug);
    // each member's highest regular and lowest current price: the group's are theirs
    const prices = members.map((m) => m.top).filter((x): x is number => x !== null);
    const current = members.map((m) => m.low).filter((x): x is number => x !== null);
    const dims = group.variantDimensions.length
      ? group.variantDimensions
      : (first.type?.def.variant_dimensions ?? []);
    insert.run(
      id,
      slug,
      name,
      null,
      group.baseModel,
      group.seriesName,
      JSON.stringify(dims),
      prices.length ? Math.max(...prices) : null,
      current.length ? Math.min(...current) : null,
      'active',
      first.brand?.id ?? null,
      first.type?.categoryId ?? null,
      first.type?.id ?? null,
      members.length,
      ctx.previous.groups.get(id)?.created_at ?? ctx.now,
      ctx.now,
      nameSortKey(name),
    );
    for (const i of group.productIndexes) groupIdOf.set(i, id);
  }
  return groupIdOf;
}

/** Groups that share a product are one group (e.g. two retailers' item groups of the same variants). */
function mergeOverlapping(groups: VariantGroup[]): VariantGroup[] {
  const owner = new Map<number, VariantGroup>();
  // each merged group's members as a set too: a membership test per product, not a scan
  const membersOf = new Map<VariantGroup, Set<number>>();
  const merged: VariantGroup[] = [];
  for (const group of groups) {
    const hits = [
      ...new Set(
        group.productIndexes.map((i) => owner.get(i)).filter((g): g is VariantGroup => g !== undefined),
      ),
    ];
    let target = hits[0];
    if (!target) {
      target = { ...group, productIndexes: [] };
      merged.push(target);
      membersOf.set(target, new Set());
    }
    const members = membersOf.get(target)!;
    for (const other of hits.slice(1)) {
      for (const i of other.productIndexes) {
        target.productIndexes.push(i);
        members.add(i);
        owner.set(i, target);
      }
      other.productIndexes = [];
    }
    target.baseModel ??= group.baseModel;
    target.seriesName ??= group.seriesName;
    target.variantDimensions = [...new Set([...target.variantDimensions, ...group.variantDimensions])];
    for (const i of group.productIndexes)
      if (!members.has(i)) {
        target.productIndexes.push(i);
        members.add(i);
        owner.set(i, target);
      }
  }
  return merged.filter((g) => g.productIndexes.length > 0);
}

const compareIds = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
