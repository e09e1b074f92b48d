/**
 * What a listing is *for*: the clause of a title that names another product it serves
 * (`Ink Cartridge For PIXMA MP240 and MP480 Printers`, `Add-On Handset For The KXTG6700B
 * Phone System`, `Case compatible with iPhone 5`). Model numbers inside that clause belong
 * to the product served, not to the listing: a case for the `SD1000` is not the `SD1000`.
 * Matching them as the listing's own code is how an accessory merges with its main product
 * (the shared code scores as the strongest evidence of one item there is).
 */
import { brandsAgree } from './brand.js';
import { type CodeRules, DEFAULT_CODE_RULES, extractModelNumbers } from './model-number.js';

/**
 * Opens the clause naming the product served. `for` alone is enough: what follows it is
 * the product served, a platform (`for Mac`) or an audience (`for Kids`); only the codes in
 * it are treated differently, so a platform or audience costs nothing.
 */
const SERVES =
  /\b(?:for(?:\s+use\s+with)?|compatible\s+with|works\s+with|fits|designed\s+for|replacement\s+for)\b/i;

/**
 * Ends the clause: a dash or bar between spaces (`… For PS2 - 662248904115`), a bracket
 * (`… for 15.6" laptops (LAPS-116)`), a semicolon, or `with` / `w/` / `by` starting another
 * phrase. Commas do not end it: they separate the products served (`For PIXMA MP450, PIXMA
 * iP6210D and PIXMA iP6220D Printers`).
 */
const CLAUSE_END = /\s[-–|]\s|[([;]|\s(?:with|w\/|by)\s/i;

/** The codes of a title's "for …" clause; null when the title has none. */
export interface Serves {
  /** Model numbers that appear only inside the clause (not elsewhere in the title). */
  codes: string[];
}

const NO_CODES: Serves = { codes: [] };

/** Reads the {@link Serves} clause of a title. */
export function servesClause(title: string, rules: CodeRules = DEFAULT_CODE_RULES): Serves | null {
  const m = SERVES.exec(title);
  if (!m) return null;
  const after = title.slice(m.index + m[0].length);
  const end = after.search(CLAUSE_END);
  const clause = end < 0 ? after : after.slice(0, end);
  // Most clauses name a platform or audience (`for Mac`, `for Kids`): no digit, no code.
  if (!/\d/.test(clause)) return NO_CODES;
  const rest = `${title.slice(0, m.index)} ${end < 0 ? '' : after.slice(end)}`;
  const own = new Set(extractModelNumbers(rest, rules));
  return { codes: extractModelNumbers(clause, rules).filter((c) => !own.has(c)) };
}

/** What {@link servesTheOther} needs of each listing (a subset of its features). */
export interface AccessorySide {
  serves: Serves | null;
  /** The listing's own model numbers (title codes not in its clause, and its MPN). */
  ownCodes: readonly string[];
  brand: string;
}

/**
 * Whether one listing is an accessory of the other: its "for …" clause names the other's own
 * model number, the other names no product it serves, and the two share no own code. A hard
 * conflict, like model numbers that name two variants. One exception: an accessory with no
 * code of its own and the same brand as the other may be the listing writing its own code
 * last (`Universal Charger for Dell, HP Laptops APA32US` beside `Targus APA32US`), so it is
 * left to the other evidence.
 */
export function servesTheOther(a: AccessorySide, b: AccessorySide): boolean {
  if (!a.serves === !b.serves) return false;
  const [acc, main] = a.serves ? [a, b] : [b, a];
  const codes = acc.serves!.codes;
  if (codes.length === 0 || main.ownCodes.length === 0) return false;
  if (!codes.some((c) => main.ownCodes.includes(c))) return false;
  if (acc.ownCodes.some((c) => main.ownCodes.includes(c))) return false;
  return !(acc.ownCodes.length === 0 && acc.brand !== '' && brandsAgree(acc.brand, main.brand));
}
