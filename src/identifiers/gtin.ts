/**
 * GTINs (UPC-A 12, EAN-13, GTIN-8, GTIN-14) validated by their GS1 check digit and stored
 * as GTIN-14 (left-padded with zeros), so a product listed by UPC-A at one retailer and by
 * EAN-13 at another is found by either form.
 */
export type GtinResult = { ok: true; gtin14: string } | { ok: false; reason: string };

/** GS1 check digit of the digits before it (mod-10, weights 3 and 1 from the right). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Validates a GTIN in any of its forms; spaces and dashes are ignored. */
export function parseGtin(raw: string): GtinResult {
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return { ok: false, reason: 'GTIN must contain digits only' };
  if (![8, 12, 13, 14].includes(digits.length))
    return { ok: false, reason: `GTIN has ${digits.length} digits (8, 12, 13 or 14 expected)` };
  if (/^0+$/.test(digits)) return { ok: false, reason: 'GTIN is all zeros' };
  const check = gs1CheckDigit(digits.slice(0, -1));
  if (check !== Number(digits.at(-1)))
    return { ok: false, reason: `GTIN check digit is wrong (expected ${check})` };
  return { ok: true, gtin14: toGtin14(digits) };
}

/** Every form a GTIN-14 can be written in (14, 13, 12 and 8 digits where the padding allows). */
export function gtinForms(gtin14: string): string[] {
  const forms = [gtin14];
  for (const len of [13, 12, 8]) {
    const cut = gtin14.length - len;
    if (/^0*$/.test(gtin14.slice(0, cut))) forms.push(gtin14.slice(cut));
  }
  return forms;
}

/** The GTIN-14 form of 8 to 14 digits (left-padded with zeros): the form the catalog stores. */
export const toGtin14 = (digits: string): string => digits.padStart(14, '0');
