import {
  type Static,
  type TObject,
  type TObjectOptions,
  type TProperties,
  type TSchema,
  Type,
} from 'typebox';

/**
 * A value that may be null: documented fields are always present, null when unknown.
 * Written as `type: [T, 'null']` rather than `anyOf`, so that fast-json-stringify serializes
 * it with a type check instead of validating each alternative (measured: anyOf made the
 * product response several times slower to serialize).
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const type = (schema as { type?: unknown }).type;
  if (typeof type !== 'string') return Type.Union([schema, Type.Null()]);
  // a named schema's copy keeps its title: the OpenAPI document makes it the component or null
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
};

export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
/** The id, name and slug every named resource starts with (spread into its object schema). */
export const NamedFields = { id: Uuid, name: Type.String(), slug: Type.String() };
export const Slug = Type.String({
  pattern: '^[a-z0-9-]+$',
  minLength: 1,
  maxLength: 200,
  description: 'a slug: lower-case letters, digits and dashes',
});
export const Timestamp = Type.String({ description: 'ISO 8601 timestamp (UTC)' });
/** Free-form JSON object (profiles, specs, structured knowledge data). */
export const FreeObject = Type.Record(Type.String(), Type.Unknown());

/**
 * A string out of a fixed list, as one JSON Schema `enum`: a wrong value gives one
 * validation issue naming the field and the allowed values (a union of literals gives one
 * issue per literal).
 */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { default?: T[number]; description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** The names given by {@link namedObject}: each is one component of the OpenAPI document. */
export const COMPONENT_NAMES = new Set<string>();

/**
 * A shared object schema with a name: its `title`, by which the OpenAPI document makes it
 * one component (`#/components/schemas/<name>`) referenced wherever it is used
 * (api/schemas/components.ts), and the generated client one named type. A title, not an
 * `$id`: an `$id` would make fast-json-stringify and Ajv refuse any schema that embeds it
 * twice (a product's offers and its variants' offers). Validation and serialization ignore
 * titles.
 */
export function namedObject<T extends TProperties>(
  name: string,
  properties: T,
  options: TObjectOptions = {},
) {
  COMPONENT_NAMES.add(name);
  return Type.Object(properties, { ...options, title: name });
}

/** Named schemas that extend another: name → the name of the schema they extend. */
export const COMPONENT_BASES = new Map<string, string>();

/**
 * A named schema that is `base` with more properties (a product is a variant with variants):
 * validation and serialization see one plain object, while the OpenAPI document writes it
 * as `allOf` of the base's component and the added properties, so the generated client has
 * one type for the shared fields instead of two copies that can drift apart.
 */
export function namedExtension<B extends TProperties, T extends TProperties>(
  name: string,
  base: TObject<B>,
  properties: T,
  options: TObjectOptions = {},
) {
  const baseName = (base as { title?: unknown }).title;
  if (typeof baseName !== 'string' || !COMPONENT_NAMES.has(baseName))
    throw new Error(`${name} must extend a named schema`);
  COMPONENT_BASES.set(name, baseName);
  return namedObject(name, { ...base.properties, ...properties } as B & T, options);
}
