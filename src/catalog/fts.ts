/**
 * Turns free text into a safe FTS5 query: every word is quoted (so quotes, operators and
 * column filters in user input are plain text), words are ANDed, and the last word also
 * matches as a prefix (search-as-you-type). Returns null when nothing searchable is left.
 */
export function ftsQuery(
  text: string,
  options: { prefixLast?: boolean; operator?: 'AND' | 'OR' } = {},
): string | null {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length === 0) return null;
  const { prefixLast = true, operator = 'AND' } = options;
  const parts = words.slice(0, 32).map((w, i, all) => {
    const quoted = `"${w.toLowerCase()}"`;
    return prefixLast && i === all.length - 1 && w.length >= 2 ? `${quoted}*` : quoted;
  });
  return parts.join(` ${operator} `);
}
