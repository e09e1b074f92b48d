/**
 * The key model numbers are compared by: upper case, letters and digits only. Retailers
 * write the same model as `SHPK-52Z95N-PR`, `shpk 52z95npr` or `SHPK.52Z95N/PR`; all three
 * have the key `SHPK52Z95NPR`. Ingest stores it (`products.model_key`); lookups, filters and
 * keyword search compare against it.
 */
export const modelKey = (model: string): string => model.toUpperCase().replace(/[^A-Z0-9]/g, '');

/**
 * True when a text looks like a model code rather than words: one run of 4 to 40 letters and
 * digits once separators are dropped, with at least one digit and one letter or separator.
 * (`52Z95N` is a code; `dishwasher` and `800` are not.)
 */
export function looksLikeModelCode(text: string): boolean {
  const key = modelKey(text);
  return key.length >= 4 && key.length <= 40 && /\d/.test(key) && /[A-Z]/.test(key);
}
