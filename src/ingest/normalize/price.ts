/**
 * Prices as feeds write them: "1299.00 USD", "$1,299.00", "1.299,00 EUR", "USD 12". Returns
 * the amount in major units and an ISO 4217 currency (defaulting to USD when none is given).
 */
export type PriceResult = { ok: true; amount: number; currency: string } | { ok: false; reason: string };

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  C$: 'CAD',
  A$: 'AUD',
};

export function parsePrice(raw: string, defaultCurrency = 'USD'): PriceResult {
  let text = raw.trim();
  if (text === '') return { ok: false, reason: 'price is empty' };
  let currency: string | null = null;
  // lower-case codes ("19.99 gbp") only when they are common ISO codes, so words stay words
  const code = text.match(/\b([A-Z]{3}|usd|eur|gbp|cad|aud|jpy|chf|sek|nok|dkk|mxn|inr|cny)\b/);
  if (code?.[1]) {
    currency = code[1].toUpperCase();
    text = text.replace(code[0], '');
  }
  for (const [symbol, iso] of Object.entries(SYMBOLS)) {
    if (text.includes(symbol)) {
      currency ??= iso;
      text = text.replace(symbol, '');
    }
  }
  text = text.replace(/\s/g, '');
  if (!/^\d[\d.,]*$/.test(text)) return { ok: false, reason: `price "${raw}" is not a number` };
  // the last separator followed by exactly 1–2 digits is the decimal mark
  const decimal = text.match(/[.,](\d{1,2})$/);
  const integerPart = decimal ? text.slice(0, -decimal[0].length) : text;
  if (!/^\d{1,3}([.,]\d{3})*$|^\d+$/.test(integerPart))
    return { ok: false, reason: `price "${raw}" is not a number` };
  const amount = Number(`${integerPart.replace(/[.,]/g, '')}.${decimal?.[1] ?? '0'}`);
  if (!Number.isFinite(amount) || amount > 10_000_000)
    return { ok: false, reason: `price "${raw}" is out of range` };
  return { ok: true, amount: Math.round(amount * 100) / 100, currency: currency ?? defaultCurrency };
}
