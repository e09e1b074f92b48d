import { type TSchema, Type } from 'typebox';

/** A value that may be null: documented fields are always present, null when unknown. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Uuid = Type.String({ format: 'uuid', description: 'UUID' });
export const Slug = Type.String({ pattern: '^[a-z0-9-]+$', minLength: 1, maxLength: 200 });
export const Timestamp = Type.String({ description: 'ISO 8601 timestamp (UTC)' });
/** Free-form JSON object (profiles, specs, structured knowledge data). */
export const FreeObject = Type.Record(Type.String(), Type.Unknown());
