/**
 * Release-identity words in titles: years, version numbers, editions, platforms, license
 * kinds and user counts. Software titles that share every other word still name different
 * products when these differ (`office 2007` vs `office 2008`, `pro` vs `standard`,
 * `mac` vs `win`, an upgrade vs the full version, `5-user` vs `1-user`).
 */
import { tokenize } from './tokens.js';

/** Edition tiers; two titles naming different tiers are different products. */
const TIERS = new Map<string, string>([
  ['standard', 'standard'],
  ['std', 'standard'],
  ['pro', 'pro'],
  ['professional', 'pro'],
  ['premium', 'premium'],
  ['premier', 'premier'],
  ['deluxe', 'deluxe'],
  ['basic', 'basic'],
  ['home', 'home'],
  ['business', 'business'],
  ['enterprise', 'enterprise'],
  ['ultimate', 'ultimate'],
  ['elite', 'elite'],
  ['plus', 'plus'],
  ['express', 'express'],
  ['lite', 'lite'],
  ['platinum', 'platinum'],
  ['gold', 'gold'],
  ['academic', 'academic'],
  ['student', 'student'],
  ['personal', 'personal'],
  ['corporate', 'corporate'],
  ['server', 'server'],
  ['workstation', 'workstation'],
  ['suite', 'suite'],
  ['ultra', 'ultra'],
  ['collector', 'collector'],
  ['collectors', 'collector'],
  ['special', 'special'],
  ['advanced', 'advanced'],
  ['essentials', 'essentials'],
  ['starter', 'starter'],
  ['extended', 'extended'],
  ['accountant', 'accountant'],
  ['nonprofit', 'nonprofit'],
  ['nonprofits', 'nonprofit'],
]);

const PLATFORMS = new Map<string, string>([
  ['mac', 'mac'],
  ['macintosh', 'mac'],
  ['osx', 'mac'],
  ['win', 'win'],
  ['windows', 'win'],
  ['linux', 'linux'],
]);

const LICENSES = new Map<string, string>([
  ['upgrade', 'upgrade'],
  ['upg', 'upgrade'],
  ['oem', 'oem'],
  ['academic', 'academic'],
  ['volume', 'volume'],
]);

/** Roman numerals used as version numbers (`warlords iii`, `crystal reports xi`). */
const ROMAN = new Map([
  ['ii', '2'],
  ['iii', '3'],
  ['iv', '4'],
  ['vi', '6'],
  ['vii', '7'],
  ['viii', '8'],
  ['ix', '9'],
  ['xi', '11'],
  ['xii', '12'],
]);

const COUNT_WORDS = /^(users?|u|seats?|licen[cs]es?|lic|pk|pack|computers?|clients?|nodes?|devices?)$/;

/** The release-identity facts of one title. */
export interface Edition {
  years: ReadonlySet<string>;
  /** Dotted or `v`-prefixed versions and other bare numbers, normalized (`6.0` → `6`). */
  numbers: ReadonlySet<string>;
  /** Short letter+digit release codes such as `cs3`, `x4`. */
  releaseCodes: ReadonlySet<string>;
  tiers: ReadonlySet<string>;
  platforms: ReadonlySet<string>;
  licenses: ReadonlySet<string>;
  /** User / seat / pack counts. */
  counts: ReadonlySet<string>;
}

function normalizeNumber(n: string): string {
  return n.replace(/(\.0+)+$/, '').replace(/^0+(?=\d)/, '');
}

/**
 * Numbers with a unit are measurements (`30' range`, `5.0 cu. ft.`, `7.2 channel`, `1GB`),
 * not release numbers; they are removed before reading versions.
 */
const MEASUREMENT =
  /\b\d+(?:[.,/-]\d+)*\s*(?:'|"|''|in\b|inch(?:es)?\b|ft\b|feet\b|cu\.?\s*ft\b|cf\b|mm\b|cm\b|m\b|[kmgt]b\b|mp\b|megapixels?\b|channels?\b|ch\b|hours?\b|hrs?\b|watts?\b|w\b|lbs?\b|oz\b|[kmg]?hz\b|x\b|rpm\b|qt\b|cups?\b|pieces?\b|pc\.|pages?\b|mbps\b|ppm\b|dpi\b|volts?\b|v\b|amps?\b|mah\b)/gi;

/** Extracts the {@link Edition} facts from a title. */
export function extractEdition(title: string): Edition {
  const tokens = tokenize(title.replace(MEASUREMENT, ' ').replace(/(\d)\s*-\s*(?=[a-z])/gi, '$1 '));
  const edition = {
    years: new Set<string>(),
    numbers: new Set<string>(),
    releaseCodes: new Set<string>(),
    tiers: new Set<string>(),
    platforms: new Set<string>(),
    licenses: new Set<string>(),
    counts: new Set<string>(),
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const tier = TIERS.get(token);
    if (tier) edition.tiers.add(tier);
    const platform = PLATFORMS.get(token);
    if (platform) edition.platforms.add(platform);
    const license = LICENSES.get(token);
    if (license) edition.licenses.add(license);
    const glued = /^(\d{1,4})(users?|u|pk|pack|seats?|clients?)$/.exec(token);
    if (glued) {
      edition.counts.add(normalizeNumber(glued[1]!));
      continue;
    }
    if (/^\d+(\.\d+)*$/.test(token)) {
      if (next && COUNT_WORDS.test(next) && !token.includes('.')) {
        edition.counts.add(normalizeNumber(token));
        i++;
      } else if (/^(19[89]\d|20[0-4]\d)$/.test(token)) {
        edition.years.add(token);
      } else if (token.length <= 4 || token.includes('.')) {
        edition.numbers.add(normalizeNumber(token));
      }
      continue;
    }
    const roman = ROMAN.get(token);
    if (roman) {
      edition.numbers.add(roman);
      continue;
    }
    const version = /^v(\d+(?:\.\d+)*)$/.exec(token);
    if (version) {
      edition.numbers.add(normalizeNumber(version[1]!));
      continue;
    }
    if (/^[a-z]{1,3}\d{1,2}$/.test(token)) edition.releaseCodes.add(token);
  }
  // Most titles name few of these facts; share one empty set instead of keeping many.
  const shared = (set: Set<string>): ReadonlySet<string> => (set.size > 0 ? set : EMPTY);
  return {
    years: shared(edition.years),
    numbers: shared(edition.numbers),
    releaseCodes: shared(edition.releaseCodes),
    tiers: shared(edition.tiers),
    platforms: shared(edition.platforms),
    licenses: shared(edition.licenses),
    counts: shared(edition.counts),
  };
}

const EMPTY: ReadonlySet<string> = new Set();

function subset(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

function disjoint(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  for (const x of a) if (b.has(x)) return false;
  return true;
}

/** Release codes conflict only when they share the letter prefix (`cs2` vs `cs3`). */
function releaseConflict(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  for (const x of a) {
    const px = x.replace(/\d+$/, '');
    for (const y of b) if (x !== y && px === y.replace(/\d+$/, '') && !b.has(x)) return true;
  }
  return false;
}

/**
 * Evidence that two titles name different releases, as a penalty in log-odds units
 * (0 = no evidence). Hard conflicts (different year, version, platform, count, tier)
 * weigh more than one-sided mentions (one says `upgrade`, the other says nothing).
 */
export function editionConflict(a: Edition, b: Edition): number {
  let penalty = 0;
  if (disjoint(a.years, b.years)) penalty += 3;
  if (disjoint(a.numbers, b.numbers)) penalty += 2;
  // Sharing one number but each naming another (`series 3000 v10` / `series 4000 v10`).
  else if (!subset(a.numbers, b.numbers) && !subset(b.numbers, a.numbers)) penalty += 1.5;
  if (releaseConflict(a.releaseCodes, b.releaseCodes)) penalty += 3;
  // One names a release code and the other a version number (`cs3` / `6.5`): usually two
  // releases of one product line.
  else if (
    (a.releaseCodes.size > 0 && a.numbers.size === 0 && b.releaseCodes.size === 0 && b.numbers.size > 0) ||
    (b.releaseCodes.size > 0 && b.numbers.size === 0 && a.releaseCodes.size === 0 && a.numbers.size > 0)
  ) {
    penalty += 1;
  }
  if (disjoint(a.platforms, b.platforms)) penalty += 3;
  if (disjoint(a.counts, b.counts)) penalty += 3;
  if (disjoint(a.tiers, b.tiers)) penalty += 2;
  else if (a.tiers.size !== b.tiers.size) penalty += 0.5;
  for (const kind of ['upgrade', 'oem', 'academic']) {
    if (a.licenses.has(kind) !== b.licenses.has(kind)) penalty += kind === 'upgrade' ? 1.5 : 0.75;
  }
  return penalty;
}
