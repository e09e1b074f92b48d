/**
 * What a JSON schema allows, said in words ("one of: info, debug", "an integer from 1 to 100",
 * "a UUID"), for validation messages of the API and of the start-up configuration. A pattern
 * is never shown: a patterned string says what it allows through its `description`.
 */

interface SchemaLike {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: SchemaLike[];
  oneOf?: SchemaLike[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  description?: string;
  items?: SchemaLike;
}

const FORMATS: Record<string, string> = {
  uuid: 'a UUID',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (ISO 8601, e.g. 2026-11-21T04:00:00Z)',
  uri: 'an absolute URL',
  email: 'an email address',
};

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The constants a schema allows (const, enum, or a union of those), or null. */
export function allowedValues(schema: unknown): unknown[] | null {
  const s = schema as SchemaLike | undefined;
  if (!s || typeof s !== 'object') return null;
  if ('const' in s) return [s.const];
  if (Array.isArray(s.enum)) return s.enum;
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const out: unknown[] = [];
    for (const b of branches) {
      const values = allowedValues(b);
      if (!values) return null;
      out.push(...values);
    }
    return out;
  }
  return null;
}

function range(s: SchemaLike): string {
  const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? `more than ${s.exclusiveMinimum}` : undefined);
  const high =
    s.maximum ?? (s.exclusiveMaximum !== undefined ? `less than ${s.exclusiveMaximum}` : undefined);
  if (typeof low === 'number' && typeof high === 'number') return ` from ${low} to ${high}`;
  if (typeof low === 'number') return ` of at least ${low}`;
  if (typeof high === 'number') return ` of at most ${high}`;
  if (low) return ` ${low}${high ? ` and ${high}` : ''}`;
  if (high) return ` ${high}`;
  return '';
}

function length(s: SchemaLike, unit: string): string {
  if (s.minLength !== undefined && s.maxLength !== undefined && s.minLength > 0)
    return `, ${s.minLength} to ${s.maxLength} ${unit}`;
  if (s.maxLength !== undefined) return `, at most ${s.maxLength} ${unit}`;
  if (s.minLength !== undefined && s.minLength > 0) return `, at least ${s.minLength} ${unit}`;
  return '';
}

/**
 * What the schema allows, as a phrase that completes "must be …": "one of: a, b",
 * "an integer from 1 to 100", "a UUID", or the schema's description for a patterned string.
 */
export function describeAllowed(schema: unknown): string {
  const s = schema as SchemaLike | undefined;
  if (!s || typeof s !== 'object') return 'a valid value';
  const values = allowedValues(s);
  if (values) return values.length === 1 ? show(values[0]) : `one of: ${values.map(show).join(', ')}`;
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    const parts = branches.filter((b) => b.type !== 'null').map(describeAllowed);
    return [...new Set(parts)].join(', or ');
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
      return `an integer${range(s)}`;
    case 'number':
      return `a number${range(s)}`;
    case 'boolean':
      return 'true or false';
    case 'array': {
      const item = s.items ? describeAllowed(s.items) : 'values';
      const count = s.maxItems !== undefined ? ` (at most ${s.maxItems})` : '';
      return `a comma-separated list${count} of ${item}`;
    }
    case 'object':
      return 'an object';
    case 'string': {
      if (s.format && FORMATS[s.format]) return FORMATS[s.format]!;
      if (s.pattern) return s.description ?? `text in the documented form${length(s, 'characters')}`;
      return `text${length(s, 'characters')}`;
    }
    default:
      return s.description ?? 'a valid value';
  }
}
