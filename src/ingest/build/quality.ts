import type { Static } from 'typebox';
import type { QualityBreakdown as QualitySchema } from '../../schemas/index.js';
import type { AssembledProduct } from './assemble.js';

/** What `_quality_breakdown` shows (its schema: schemas/product.ts). */
export type QualityBreakdown = Static<typeof QualitySchema>;

const round = (n: number) => Math.round(n * 100) / 100;

type TypeDef = NonNullable<AssembledProduct['type']>['def'];
const NO_KEYS: ReadonlySet<string> = new Set();
/** Each product type's spec keys, built once a type (the write scores every product of it). */
const specKeysByType = new WeakMap<TypeDef, ReadonlySet<string>>();
function specKeysOf(def: TypeDef): ReadonlySet<string> {
  let keys = specKeysByType.get(def);
  if (!keys) {
    keys = new Set((def.specs ?? []).map((s) => s.key));
    specKeysByType.set(def, keys);
  }
  return keys;
}

/**
 * Scores a product 0–1 from how complete, valid and corroborated its data is. Tier 1 is
 * well-resolved data (score ≥ 0.6), tier 2 usable, tier 3 legacy (no current offer, or
 * discontinued everywhere), tier 4 too poor to show by default (score < 0.3).
 */
export function scoreQuality(
  p: AssembledProduct,
  hasKnowledge: boolean,
): { breakdown: QualityBreakdown; score: number; tier: number } {
  const fields = [p.description, p.gtin, p.modelNumber, p.brand, p.type, p.imageUrl];
  const completeness = fields.filter(Boolean).length / fields.length;
  const validKeys = p.type ? specKeysOf(p.type.def) : NO_KEYS;
  const specKeys = Object.keys(p.specs);
  const attributeScore =
    validKeys.size === 0
      ? specKeys.length > 0
        ? 0.5
        : 0
      : specKeys.filter((k) => validKeys.has(k)).length / validKeys.size;
  // valid: in the schema and a value that fits it (unit converted, controlled value matched)
  const validity =
    specKeys.length === 0
      ? 0.5
      : specKeys.filter((k) => validKeys.has(k) && p.specSources[k]?.valid !== false).length /
        specKeys.length;
  const corroborated = Object.values(p.specSources).filter((s) => s.retailers.length > 1).length;
  // Corroboration across retailers: the specs they agree on, and how sure resolution was
  // that their listings are one product (the weakest link, as shown on the offers' `match`).
  const specAgreement =
    specKeys.length === 0 ? (p.gtins.length > 0 ? 1 : 0.7) : corroborated / specKeys.length;
  let weakestMatch = 1;
  for (const m of p.matches.values()) weakestMatch = Math.min(weakestMatch, m.confidence);
  const crossValidation = p.listings.length < 2 ? 0.5 : 0.5 * specAgreement + 0.5 * weakestMatch;
  const breakdown: QualityBreakdown = {
    completeness: round(completeness),
    validity: round(validity),
    confidence: round(p.resolverConfidence * (p.type ? Math.max(0.5, p.typeConfidence) : 0.5)),
    crossValidation: round(crossValidation),
    attributeScore: round(attributeScore),
    nameScore: round(p.namingConfidence),
    knowledgeScore: hasKnowledge ? 1 : 0,
  };
  const score = round(
    0.25 * breakdown.completeness +
      0.1 * breakdown.validity +
      0.2 * breakdown.confidence +
      0.1 * breakdown.crossValidation +
      0.15 * breakdown.attributeScore +
      0.1 * breakdown.nameScore +
      0.1 * breakdown.knowledgeScore,
  );
  // legacy: no retailer offers it at a price any more, or every retailer says discontinued
  const hasCurrentOffer = p.listings.some(
    (l) => l.price !== null && l.availability !== 'discontinued' && !l.carriedFrom?.gone,
  );
  const tier = !hasCurrentOffer ? 3 : score < 0.3 ? 4 : score >= 0.6 ? 1 : 2;
  return { breakdown, score, tier };
}
