import { modelKey } from '../../identifiers/index.js';
import { argMax, mostCommon } from '../../util/index.js';
import type { Listing } from '../listing.js';
import { gtinForms, slugify, stableUuid } from '../normalize/index.js';
import type { SpecValue } from '../normalize/spec-value.js';
import type { ListingMatch } from '../resolve/index.js';
import type { Classification } from './classify.js';
import type { PreviousCatalog } from './previous.js';
import type { Reference, TypeInfo } from './reference.js';
import type { ResolvedProduct } from './resolver.js';
import { type AttributeRow, mergeSpecs, type SpecSource } from './specs.js';

/** A product ready to be written: the merge of its listings. */
export interface AssembledProduct {
  id: string;
  slug: string;
  name: string;
  namingMethod: string;
  namingConfidence: number;
  description: string | null;
  gtin: string | null;
  gtins: string[];
  mpn: string | null;
  modelNumber: string | null;
  brand: { id: string; name: string; slug: string } | null;
  type: TypeInfo | null;
  typeConfidence: number;
  imageUrl: string | null;
  specs: Record<string, SpecValue>;
  specSources: Record<string, SpecSource>;
  variantAttributes: Record<string, string>;
  attributes: AttributeRow[];
  listings: Listing[];
  /** "800 Series" when the titles name a series */
  seriesName: string | null;
  createdAt: string;
  resolverConfidence: number;
  /** How each listing (by key) was matched to this product; shown on its offer. */
  matches: Map<string, ListingMatch>;
}

const majority = mostCommon;

const words = (t: string) => new Set(t.toLowerCase().match(/[a-z0-9]+/g) ?? []);

/** The title that shares the most words with the other listings' titles: the consensus name. */
function chooseName(listings: Listing[]): { name: string; method: string; confidence: number } {
  if (listings.length === 1) return { name: listings[0]!.title, method: 'single_listing', confidence: 0.6 };
  const sets = listings.map((l) => words(l.title));
  let best = 0;
  let bestScore = -1;
  sets.forEach((s, i) => {
    let score = 0;
    sets.forEach((o, j) => {
      if (i === j) return;
      let shared = 0;
      for (const w of s) if (o.has(w)) shared++;
      score += shared / Math.max(1, new Set([...s, ...o]).size);
    });
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  const confidence = Math.min(0.95, 0.6 + (bestScore / (listings.length - 1)) * 0.35);
  return {
    name: listings[best]!.title,
    method: 'consensus_title',
    confidence: Math.round(confidence * 100) / 100,
  };
}

const titleCase = (s: string) => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());

/** The first headline number spec the product has, as shown ("65 in"). */
function headlineSpec(type: TypeInfo | null, specs: Record<string, SpecValue>): string | null {
  for (const def of type?.def.specs ?? []) {
    const v = specs[def.key];
    if (def.headline && def.type === 'number' && typeof v === 'string') return v;
  }
  return null;
}

interface NameParts {
  brand: string | null;
  modelNumber: string | null;
  typeName: string | null;
  /** the type's name and synonyms: a title naming any of them names the type */
  typeWords?: string[];
  seriesName: string | null;
  headline: string | null;
  color: string | null;
}

/** A title fit to be a product's name: names the brand and model, not shouted, not a stub. */
function isCleanTitle(title: string, parts: NameParts): boolean {
  const letters = title.replace(/[^A-Za-z]/g, '');
  const upper = letters.replace(/[^A-Z]/g, '').length;
  const squash = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return (
    title.length >= 15 &&
    title.length <= 150 &&
    !(letters.length > 10 && upper / letters.length > 0.6) &&
    (!parts.brand || squash(title).includes(squash(parts.brand))) &&
    (!parts.modelNumber || squash(title).includes(squash(parts.modelNumber))) &&
    namesType(title, parts)
  );
}

/** Whether a title names the product type, by its name's last word or by a synonym. */
function namesType(title: string, parts: NameParts): boolean {
  if (!parts.typeName) return true;
  const text = ` ${title.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
  const words = [parts.typeName.toLowerCase().split(' ').at(-1) ?? '', ...(parts.typeWords ?? [])];
  return words.some((w) => {
    const word = w
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
    return word !== '' && (text.includes(` ${word} `) || text.includes(` ${word}s `));
  });
}

/**
 * The product's canonical name. The retailers' consensus title when they agree and it is
 * clean; otherwise a name built from what the listings agree on: brand, series, model
 * number, headline spec, product type and color ("Bosch 800 Series SHPM88Z75N 42 dBA
 * Dishwasher, Stainless Steel").
 */
export function nameProduct(
  listings: Listing[],
  parts: NameParts,
): { name: string; method: string; confidence: number } {
  const consensus = chooseName(listings);
  const clean = isCleanTitle(consensus.name, parts);
  if (clean && (listings.length === 1 || consensus.confidence >= 0.75)) return consensus;
  if (parts.brand && parts.modelNumber && parts.typeName) {
    const name = [
      parts.brand,
      parts.seriesName,
      parts.modelNumber,
      parts.headline,
      parts.typeName + (parts.color ? `, ${titleCase(parts.color)}` : ''),
    ]
      .filter(Boolean)
      .join(' ');
    return { name, method: 'constructed_from_specs', confidence: listings.length > 1 ? 0.85 : 0.75 };
  }
  return { ...consensus, confidence: Math.round(consensus.confidence * (clean ? 1 : 0.7) * 100) / 100 };
}

/** A series a title names: "Bosch 800 Series SHPM88Z75N" → "800 Series". */
export const seriesFromTitle = (title: string): string | null => {
  const m = title.match(/\b([A-Za-z0-9+-]+)\s+series\b/i);
  return m && !/^(the|a|new)$/i.test(m[1]!) ? `${m[1]} Series` : null;
};

/** The display form of a GTIN-14: UPC-A when it fits, else EAN-13, else GTIN-14. */
export const displayGtin = (gtin14: string): string =>
  gtinForms(gtin14).find((f) => f.length === 12) ?? gtinForms(gtin14).find((f) => f.length === 13) ?? gtin14;

export interface AssembleContext {
  reference: Reference;
  previous: PreviousCatalog;
  /** each listing's product type, by listing key */
  classifications: { get(key: string): Classification | undefined };
  now: string;
  usedIds: Set<string>;
  /** Previous ids the resolver gave to products of this run; no other product takes them. */
  claimedIds?: Set<string>;
  usedSlugs: Set<string>;
}

/** Merges the listings of one resolved product into one product record. */
export function assembleProduct(
  resolved: ResolvedProduct,
  listings: Listing[],
  ctx: AssembleContext,
): AssembledProduct {
  const { reference, previous, classifications } = ctx;
  const brand =
    reference.brands.resolve(majority(listings.map((l) => l.brandName)) ?? resolved.brand) ??
    majority(listings.map((l) => reference.brands.fromTitle(l.title)));

  const typeVotes = new Map<TypeInfo, number>();
  for (const l of listings) {
    const c = classifications.get(l.key);
    if (c?.type) typeVotes.set(c.type, (typeVotes.get(c.type) ?? 0) + c.confidence);
  }
  const { best: type, score: typeScore } = argMax(typeVotes);

  const gtins = [...new Set(listings.map((l) => l.gtin14).filter((g): g is string => g !== null))];
  const merged = mergeSpecs(listings, type?.def ?? null);
  const mpn = majority(listings.map((l) => l.mpn));
  // show the model number as a feed wrote it when it is the resolver's model
  const modelNumber =
    mpn && resolved.modelNumber && modelKey(mpn) === resolved.modelNumber
      ? mpn
      : (resolved.modelNumber ?? mpn);
  const seriesName = majority(listings.map((l) => seriesFromTitle(l.title)));
  const named = nameProduct(listings, {
    brand: brand?.name ?? null,
    modelNumber,
    typeName: type?.name ?? null,
    typeWords: type?.def.synonyms ?? [],
    seriesName,
    headline: headlineSpec(type, merged.specs),
    color: merged.variantAttributes.color ?? null,
  });

  // the id this product had before: the one the resolver carried over (it gives each previous
  // id to one product), else most of its listings' previous product, else its GTIN's; an id
  // the resolver gave another product is never taken here
  const taken = (x: string) => ctx.usedIds.has(x) || (x !== resolved.previousId && !!ctx.claimedIds?.has(x));
  let id =
    resolved.previousId !== undefined
      ? resolved.previousId
      : majority(listings.map((l) => previous.productIdByListing.get(l.key)));
  if (!id) id = majority(gtins.map((g) => previous.productIdByGtin.get(g)));
  if (!id || taken(id)) {
    const identity =
      gtins[0] ??
      (brand && resolved.modelNumber
        ? `${brand.slug}:${resolved.modelNumber.toUpperCase()}`
        : [...listings.map((l) => l.key)].sort()[0]);
    id = stableUuid(`product:${identity}`);
    for (let n = 1; taken(id); n++) id = stableUuid(`product:${identity}:${n}`);
  }
  ctx.usedIds.add(id);

  let slug = previous.products.get(id)?.slug ?? '';
  if (!slug || ctx.usedSlugs.has(slug)) {
    const base = slugify(named.name, 70) || 'product';
    slug = ctx.usedSlugs.has(base) ? `${base}-${id.slice(0, 8)}` : base;
  }
  ctx.usedSlugs.add(slug);

  return {
    id,
    slug,
    name: named.name,
    namingMethod: named.method,
    namingConfidence: named.confidence,
    description: listings
      .map((l) => l.description)
      .reduce<string | null>((a, b) => ((b?.length ?? 0) > (a?.length ?? 0) ? b : a), null),
    gtin: gtins[0] ? displayGtin(gtins[0]) : null,
    gtins,
    mpn,
    modelNumber,
    brand,
    type,
    typeConfidence: Math.min(1, typeScore / listings.length),
    imageUrl: listings.find((l) => l.imageLink)?.imageLink ?? null,
    specs: merged.specs,
    specSources: merged.sources,
    variantAttributes: merged.variantAttributes,
    attributes: merged.attributes,
    listings,
    seriesName,
    createdAt: previous.products.get(id)?.created_at ?? ctx.now,
    resolverConfidence: resolved.confidence,
    matches: new Map(resolved.keys.map((key, i) => [key, resolved.matches[i]!])),
  };
}
