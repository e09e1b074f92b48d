import { Type } from 'typebox';

/** Boolean-like flags: true/false/1/0/yes/no in any case; anything else is a 400. */
export const Flag = Type.String({
  pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0|[Yy][Ee][Ss]|[Nn][Oo])$',
  description: 'true/false, 1/0 or yes/no (any case)',
});

/** include_legacy: the one switch for legacy (tier 3–4) products wherever products are listed. */
export const LegacyFlag = Type.String({
  pattern: (Flag as unknown as { pattern: string }).pattern,
  description: 'true/false, 1/0 or yes/no: also list legacy products (data tier 3–4); default false',
});

/** Reads a Flag value; undefined stays undefined so defaults apply. */
export function flag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return /^(true|1|yes)$/i.test(value);
}

export const Limit = (defaultValue: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 100,
    default: defaultValue,
    description: `page size, 1 to 100 (default ${defaultValue})`,
  });

export const CursorParam = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'nextCursor (or prevCursor) of a previous page',
});
export const UuidParam = Type.String({ format: 'uuid', description: 'UUID' });
/** A filter naming a brand, category, product type or group: its id or its slug. */
export const IdOrSlugParam = (what: string, more = '') =>
  Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[A-Za-z0-9-]+$',
    description: `${what} id (UUID) or slug${more}`,
  });
export const SlugParam = Type.String({
  pattern: '^[a-z0-9-]+$',
  minLength: 1,
  maxLength: 200,
  description: 'a slug: lower-case letters, digits and dashes, at most 200 characters',
});
export const SearchText = Type.String({ maxLength: 500 });
