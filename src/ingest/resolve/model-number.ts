/**
 * Finding manufacturer model numbers in free text. A model number is a code that mixes
 * letters and digits (`PSLX350H`, `KXTS108W`) or a hyphenated digit code (`963293-0403`);
 * retailers write the same code with or without separators, so candidates are compared
 * in a normalized form: upper-case, separators removed.
 */

/** A number followed by a unit or counter is a measurement, not a model number. */
const UNIT_CODE =
  /^\d+(?:GB|MB|TB|KB|GHZ|MHZ|KHZ|HZ|W|WATTS?|V|VAC|VDC|A|MAH|MM|CM|M|IN|INCH|INCHES|FT|FEET|LB|LBS|OZ|MP|X|P|I|K|PK|PACK|PCS?|USERS?|U|RPM|DB|BIT|BITS|PORTS?|CH|CHANNEL|D|TH|ST|ND|RD|S|MBPS|GBPS|KBPS|PPM|DPI|MIN|HR|HRS|YR|YRS|YEARS?|DAYS?|CD|DVD|ML|L|G|KG|QT|GAL|SEC|MS|NITS?|LUMENS?|CLIENTS?|SEATS?|LIC|DISCS?|DISC|DISK)$/;

/**
 * Unit words written apart from their number. One letter is too ambiguous here (`3741001 A`
 * may be a catalogue number and a grade), so a unit needs two letters or more.
 */
const UNIT_WORD =
  /^(?:GB|MB|TB|KB|GHZ|MHZ|KHZ|HZ|WATTS?|VAC|VDC|MAH|MM|CM|IN|INCH|INCHES|FT|FEET|LBS?|OZ|MP|PK|PACK|PCS?|USERS?|RPM|DB|BITS?|PORTS?|MBPS|GBPS|KBPS|PPM|DPI|MIN|HRS?|HOURS?|YRS?|YEARS?|DAYS?|ML|KG|QT|GAL|GALLONS?|SEC|NITS?|LUMENS?|CLIENTS?|SEATS?|BTUH?|PAGES?|SHEETS?|CALORIES|MILES?)$/;

export function isUnitWord(chunk: string | undefined): boolean {
  return chunk !== undefined && UNIT_WORD.test(chunk.toUpperCase());
}

/** Version markers (`V11`, `R5`) identify a release, not a product. */
const VERSION_CODE = /^[VR]\d{1,2}$/;

/** Platform and standard names that look like codes. */
const STANDARD_CODES = new Set([
  'WIN32',
  'WIN64',
  'X64',
  'X86',
  'H264',
  'H265',
  'MPEG2',
  'MPEG4',
  'USB20',
  'USB30',
  'DDR2',
  'DDR3',
  'DDR4',
  'IEEE1394',
  '80211B',
  '80211G',
  '80211N',
  '80211AC',
]);

const HAS_DIGIT = /\d/;

/** Characters retailers insert inside codes (`PS-LX350H`, `KDL.40`). */
const SEPARATORS = /[-_.\s]/g;

/**
 * Normalizes a model number for comparison: upper-case, separators removed.
 * Returns an empty string when nothing alphanumeric is left.
 */
export function normalizeModelNumber(raw: string): string {
  return raw
    .normalize('NFKD')
    .toUpperCase()
    .replace(SEPARATORS, '')
    .replace(/[^A-Z0-9]/g, '');
}

/**
 * Whether a normalized code looks like a model number rather than a word, a number or a
 * measurement.
 */
export function isModelNumberLike(code: string): boolean {
  if (code.length < 4 || code.length > 24) return false;
  const hasDigit = /\d/.test(code);
  if (!hasDigit) return false;
  const hasLetter = /[A-Z]/.test(code);
  // Bare digit runs of six or more are catalogue numbers (`3741001`, `0101093600`); shorter
  // ones are quantities, years and versions.
  if (!hasLetter) return code.length >= 6;
  // A measurement's number is short (`500GB`, `1250W`, `10000MAH`); six digits or more before
  // a unit letter is a catalogue number with a suffix (`301199U`).
  if ((UNIT_CODE.test(code) && !/^\d{6,}/.test(code)) || VERSION_CODE.test(code)) return false;
  if (STANDARD_CODES.has(code)) return false;
  // Ordinal ranges (`4th-6th` grade) and bare measurements joined by hyphens.
  if (/^(\d+(ST|ND|RD|TH))+$/.test(code)) return false;
  // Ordinals and resolutions like 1080P are already units; long words with one digit
  // (`WINDOWS7`) are product names, not codes.
  const letters = code.replace(/\d/g, '').length;
  if (letters > 8 && code.length - letters === 1) return false;
  return true;
}

/**
 * A small count hyphenated to ordinary words (`2-Line`, `3-in-one`, `2-video`) describes the
 * product; it is not a code. Words in capitals (`CLI-8`) still read as codes. In a title
 * written all in capitals, case tells nothing, so the order does: a count comes first
 * (`4-SLICE`, `3-IN-ONE`), a code's letters do (`CLI-8`) — otherwise a retailer upper-casing
 * its titles would give its listings new model numbers that conflict with the others'.
 */
function isCountedWord(chunk: string, shouted: boolean): boolean {
  const parts = chunk.split(/[-_.]+/);
  if (parts.length < 2) return false;
  const numbers = parts.filter((p) => /\d/.test(p));
  if (numbers.length === 0 || !numbers.every((p) => /^\d{1,2}$/.test(p))) return false;
  if (shouted) return /^\d{1,2}$/.test(parts[0]!) && parts.some((p) => /^[A-Za-z]{3,}$/.test(p));
  return parts.some((p) => /^[A-Za-z]{3,}$/.test(p) && p !== p.toUpperCase());
}

/** Which optional code-reading rules are on (`ResolveOptions` of the same names). */
export interface CodeRules {
  /** A number followed by a unit word (`100000 BTU/h`, `100000 pages`) is a quantity, not a code. */
  numberBeforeUnitIsQuantity: boolean;
  /**
   * A feed's stated model number of four characters or more is a code when it mixes letters
   * and digits, even where free text would read it as a measurement (`66Ms`: milliseconds).
   */
  statedModelIsCode: boolean;
}

export const DEFAULT_CODE_RULES: CodeRules = { numberBeforeUnitIsQuantity: true, statedModelIsCode: true };

/**
 * Whether a feed's stated model number (normalized) is one: as in free text, or with
 * {@link CodeRules.statedModelIsCode} any code of 4 to 24 characters mixing letters and digits
 * that is not a version (`V2`) or a standard name (`DDR3`): the feed says it is the model, so
 * a unit it looks like (`66MS`) is not read into it. Shorter stated codes (`GR4`, `Z9I`) stay
 * out, as in free text: on a structured Abt-Buy (Abt's trailing code as its model column) they
 * met the other side's catalogue numbers as "codes of two schemes" and cost 4 right pairs.
 */
export function isStatedModelNumber(code: string, rules: CodeRules = DEFAULT_CODE_RULES): boolean {
  if (isModelNumberLike(code)) return true;
  if (!rules.statedModelIsCode || code.length < 4 || code.length > 24) return false;
  return /\d/.test(code) && /[A-Z]/.test(code) && !VERSION_CODE.test(code) && !STANDARD_CODES.has(code);
}

/**
 * Model-number candidates found in text, normalized and de-duplicated, in order of
 * appearance. `'Sony Turntable - PSLX350H'` and `'Sony PS-LX350H'` both give `PSLX350H`.
 */
export function extractModelNumbers(text: string, rules: CodeRules = DEFAULT_CODE_RULES): string[] {
  const found = new Set<string>();
  // Slashes and whitespace end a code (`PSLX350H/ Belt Drive`, `10/100`); hyphens and dots
  // inside a chunk are separators within one code.
  // A short tail after a slash is a variant suffix of the code before it (`DSCW120/P`,
  // `SRSA212/BLK`); keep it attached so color variants stay distinct.
  // A `#` inside a code joins a finish or color number (`CST214F#01`, `WST709W#45SB`).
  const joined = text
    .replace(/\b([A-Za-z0-9][A-Za-z0-9-]*\d[A-Za-z0-9-]*)\/([A-Za-z][A-Za-z0-9]{0,3})\b(?!\/)/g, '$1$2')
    .replace(/\b([A-Za-z0-9-]*\d[A-Za-z0-9-]*)#([A-Za-z0-9]{1,6})\b/g, '$1$2');
  const shouted = !/[a-z]/.test(text);
  const chunks = joined.split(/[\s/,;:()[\]{}"'|+*&!?<>=#]+/);
  for (let k = 0; k < chunks.length; k++) {
    const chunk = chunks[k]!;
    // Every model number has a digit (isModelNumberLike), so a chunk without one is a word.
    if (!HAS_DIGIT.test(chunk)) continue;
    const trimmed = chunk.replace(/^[-_.]+|[-_.]+$/g, '');
    if (!trimmed) continue;
    // A number followed by a unit word is a quantity (`100000 BTU/h`, `100000 pages`), not a
    // catalogue number, however many digits it has.
    if (rules.numberBeforeUnitIsQuantity && /^\d+$/.test(trimmed) && isUnitWord(chunks[k + 1])) continue;
    // Versions and releases (`v.17.0`, `r11.5`, `v4.0c`, `v.8by`) name a release, not a product.
    if (/^[vr]\.?\s?\d+(?:\.\d+)+[a-z]?$/i.test(trimmed) || /^v\.\d/i.test(trimmed)) continue;
    // Prices, decimals and version ranges (`1299.99`, `8.0-2004`) are not catalogue numbers.
    if (/^[\d.,$-]+$/.test(trimmed) && /[.,]/.test(trimmed)) continue;
    if (isCountedWord(trimmed, shouted)) continue;
    const code = normalizeModelNumber(trimmed);
    const hadSeparator = /[-_.]/.test(trimmed);
    if (isModelNumberLike(code)) {
      found.add(code);
      continue;
    }
    // `Wireless-G WET54G` style chunks: a hyphenated word plus code; try the parts.
    if (hadSeparator) {
      for (const part of trimmed.split(/[-_.]+/)) {
        const partCode = normalizeModelNumber(part);
        if (isModelNumberLike(partCode)) found.add(partCode);
      }
    }
  }
  return [...found];
}
