/**
 * Fills a record out to its schema: every property the schema names is present, null where
 * the data does not say, nested objects alike (docs/api.md: "every documented field is always
 * present"). Properties the schema does not name are dropped; free-form objects (no
 * `properties`) are kept as they are.
 */
export function withNulls<T>(schema: unknown, value: unknown): T {
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (!properties || value === null || typeof value !== 'object' || Array.isArray(value)) return value as T;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties))
    out[key] = source[key] === undefined ? null : withNulls(property, source[key]);
  return out as T;
}
