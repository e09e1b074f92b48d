/**
 * One retailer listing as the resolver sees it. The ingest pipeline builds these after
 * normalizing and classifying a feed; the resolver never touches the database.
 */
export interface ResolveRecord {
  /** Unique listing key (retailer + item id). */
  key: string;
  /**
   * Retailer slug. Two records of one source are never merged unless they are the same item
   * (same GTIN, or same exact model number and brand).
   */
  source: string;
  title: string;
  description?: string | null;
  /** Canonical brand name if the feed gave one; when null the resolver infers it from the title. */
  brand?: string | null;
  /** Already validated, zero-padded GTIN-14, or null. */
  gtin?: string | null;
  /** Manufacturer part number from the feed; may be wrong or noisy. */
  mpn?: string | null;
  price?: number | null;
  /** Product type slug if classified. */
  productType?: string | null;
  specs?: Record<string, string>;
  itemGroupId?: string | null;
  color?: string | null;
  size?: string | null;
  /**
   * The product id this listing was on in the previous snapshot. The listing stays on that
   * product unless new evidence contradicts it (carry.ts), and the product keeps its id.
   */
  previousProduct?: string | null;
}

/** One real-world product: the listings that resolved to it. */
export interface ResolvedProduct {
  /** Keys of the records merged into this product, in input order. */
  keys: string[];
  /** Normalized model number (upper-case, separators removed), if one was found. */
  modelNumber: string | null;
  brand: string | null;
  /** 0..1; the weakest accepted match inside the cluster, 1 for a single listing. */
  confidence: number;
  /** How each listing (same order as {@link keys}) was joined to the product. */
  matches: ListingMatch[];
  /**
   * The previous snapshot's id this product keeps (the product most of its carried listings
   * were on), null for a new product; absent when the records named no previous products.
   * Each previous id goes to at most one product.
   */
  previousId?: string | null;
}

/** How one listing was matched to its product: the evidence shown on its offer. */
export interface ListingMatch {
  /** `gtin` and `model_number`: shared identifiers; `title_similarity`: learned score. */
  method: 'gtin' | 'model_number' | 'title_similarity' | 'single_listing';
  /** Match probability of the strongest accepted link at this listing (0–1). */
  confidence: number;
}

/** Products that are variants (color, size, region, configuration) of one another. */
export interface VariantGroup {
  /** Indexes into {@link ResolveResult.products}. */
  productIndexes: number[];
  baseModel: string | null;
  /** Which attributes differ between the members, e.g. `['color']`. */
  variantDimensions: string[];
  seriesName: string | null;
}

export interface ResolveResult {
  products: ResolvedProduct[];
  groups: VariantGroup[];
  /** What the matcher learned from this batch (null when learning is off). */
  learned?: LearnedModel | null;
}

/** What the learned matcher (learn.ts) estimated from one batch, for reports and tests. */
export interface LearnedModel {
  /** Estimated share of matches among candidate pairs. */
  matchShare: number;
  /** log(m/u) per feature level, `weights[feature][level]`; level 0 is always 0. */
  weights: number[][];
  iterations: number;
}

/** Tuning knobs; every field has a default meant to work on unseen data. */
export interface ResolveOptions {
  /** Minimum match probability for two listings to be merged. Default 0.5. */
  threshold?: number;
  /**
   * Lower bar for a pair where each listing is the other's best candidate from that
   * retailer. Default 0.25.
   */
  mutualBestThreshold?: number;
  /** Blocking keys shared by more records than this are ignored. Default 100. */
  maxBlockSize?: number;
  /** How many rarest keys of each record are used to find candidates. Default 8. */
  probesPerRecord?: number;
  /** Candidates kept per record before full scoring. Default 10. */
  candidatesPerRecord?: number;
  /** Learn the match weights from the batch by EM (see learn.ts). Default true. */
  learn?: boolean;
  /**
   * While learning, treat the candidates of one listing toward one retailer as rivals for a
   * single partner (one-to-one). Default true.
   */
  oneToOne?: boolean;
  /**
   * A pair that shares no identifier (no GTIN, no model number; `title_similarity`) is kept
   * only as far as the learned matcher also supports it: its probability becomes the lower of
   * the fixed score and the learned posterior. Raises precision on every evaluated set, costs
   * recall where titles are the only evidence (docs/ingest.md). Default false.
   */
  titleOnlyVeto?: boolean;
  /**
   * A `title_similarity` pair that is not the best candidate of both of its listings (each
   * toward the other's retailer) — a second choice, left when a listing's first choice is
   * taken or is better matched elsewhere — keeps its fixed score only if the learned
   * one-to-one posterior also accepts it. On feeds where most listings have no partner,
   * second choices are the likeliest wrong merges (docs/ingest.md). Default true.
   */
  secondChoiceVeto?: boolean;
  /**
   * A `title_similarity` pair whose feeds both state a brand, and different ones, keeps its
   * fixed score only if the learned posterior also accepts it: look-alike accessories of two
   * makers (docs/ingest.md). Default true.
   */
  statedBrandVeto?: boolean;
  /**
   * When both listings' own model numbers conflict, a code they share beside them (a series,
   * a standard, a spec written like a code) does not make them one model: the pair is a
   * conflict (score.ts, `ScoreRules`). Default true.
   */
  ownCodeDecides?: boolean;
  /**
   * `statedBrandVeto` for pairs matched on a model number too: two makers' listings sharing a
   * code (a spec or standard written like one) keep their fixed score only if the learned
   * posterior accepts them (docs/ingest.md, wave 7). Needs `statedBrandVeto`. Default true.
   */
  statedBrandVetoCodes?: boolean;
  /**
   * A code found in the other listing's text counts only where it ends at a token boundary
   * there (`NV276` is not read inside `NV276BL`) (score.ts, `ScoreRules`). Default true.
   */
  codeEndsAtBoundary?: boolean;
  /**
   * One code being the other plus a suffix (`NV276` / `NV276BL`) names two variants when the
   * listings' colors differ (score.ts, `ScoreRules`). Default true.
   */
  suffixColorDecides?: boolean;
  /**
   * Codes that differ only in their letters after the last digit, one a color code of the
   * color both listings name and the other no suffix code (`NNH965BK` / `NNH965BF`, both
   * black), are one model under two suffix conventions, not two variants (score.ts,
   * `ScoreRules`). Default false: it gains 6 of Abt-Buy's true pairs, but the demo's finishes
   * break it (`…SS` Stainless Steel / `…BSS` Black Stainless Steel, `…BL` Black / `…MB`
   * Matte Black): color families are too coarse to tell one finish from another, and
   * leave-one-set-out chooses it off (docs/ingest.md, session 13).
   */
  colorSuffixConventions?: boolean;
  /**
   * A code written in the other listing's title as two or more whole words (`SP565UZ` /
   * `SP-565 UZ`, `MDRAS50G` / `MDR AS50G`) is the same code, not only a code found in its
   * text (score.ts, `ScoreRules`). Default true.
   */
  splitCodeIsSame?: boolean;
  /**
   * With `ownCodeDecides`, a shared code that is one listing's primary model number plus a
   * letter suffix (`TXSR706B` beside its `TXSR706`) counts as that listing's own (score.ts,
   * `ScoreRules`). Default true.
   */
  ownCodeWithSuffix?: boolean;
  /**
   * A UPC or EAN (12 or 13 digits) in one title whose item reference, the digits before the
   * check digit after the maker's prefix, the other title writes as a number of 5 to 7 digits
   * (`743840830153` / `83015`) is the same code (score.ts, `ScoreRules`). Default true.
   */
  gtinItemNumber?: boolean;
  /**
   * A number followed by a unit word (`100000 BTU/h`, `100000 pages`) is a quantity, not a
   * catalogue number (model-number.ts, `CodeRules`). Default true.
   */
  numberBeforeUnitIsQuantity?: boolean;
  /**
   * A feed's stated model number mixing letters and digits is a code even where free text
   * would read it as a measurement (`66Ms`) (model-number.ts, `CodeRules`). Default true.
   */
  statedModelIsCode?: boolean;
  /**
   * Blocking also keys each title code by its stem (cut after its last digit: `SRSA212BK` and
   * `SRSA212/BLK` both give `SRSA212`) and a code joined to the short capitals word before it
   * (`MDR EX55` gives `MDREX55`): candidates only, scoring unchanged (features.ts,
   * `codeStems`). Default false: it makes 8 more of Abt-Buy's true pairs candidates and,
   * with `stemRivalsApart`, merges one more through the ingest, but resolver alone it still
   * moves Abt-Buy both ways and Amazon-Google's orphaned copies down, so leave-one-set-out
   * chooses it off (docs/ingest.md, session 12).
   */
  codeStemKeys?: boolean;
  /**
   * With `codeStemKeys`: the pairs only the stem keys make candidates (found by blocking once
   * more without them) are judged by the weights learned from the other pairs and compete
   * with every rival at their slots, but take no part in learning and are no rivals of the
   * other pairs (learn.ts `added`); the stem keys also stay out of the titles' IDF. So the
   * added candidates cannot move the posterior of a pair that was a candidate without them,
   * except through the blocking itself (its per-record probes rank keys by df). Default true;
   * no effect while `codeStemKeys` is off.
   */
  stemRivalsApart?: boolean;
  /**
   * A `title_similarity` pair where one listing names its own model number and the other
   * names none keeps its fixed score only if the learned posterior also accepts it: a code
   * the other listing does not state is no evidence for the pair, and where most listings have
   * no partner such pairs are look-alikes (a dryer's code against a retailer's generic "XL
   * Capacity Electric Dryer"). Chosen by every held-out set under leave-one-set-out (mean
   * F0.5); costs Amazon-Google 0.005 of F1 (docs/ingest.md, session 12). Default true.
   */
  oneCodeVeto?: boolean;
  /**
   * A pair whose titles name different colors or one unit with different quantities (soft
   * evidence of two variants of one line, score.ts `variantClash`) merges only above the
   * threshold, never as a mutual best match below it. Where a large retailer lists a whole
   * line without model numbers, a listing whose own variant it lacks otherwise takes a
   * sibling (`eval:er --demo-pairs --uncoded`: 36 of 360 wrong merges); on Abt-Buy,
   * Amazon-Google and the demo no merge below the threshold carries such a clash
   * (docs/ingest.md, session 13). Default true.
   */
  clashNotMutualBest?: boolean;
}
