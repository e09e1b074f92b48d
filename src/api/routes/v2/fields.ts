import { type Db, perConnection, typeSpecs } from '../../../catalog/index.js';
import {
  allowedFields,
  describeFields,
  type FieldTree,
  fieldTree,
  MAX_FIELDS,
  Product,
  parseFieldList,
  resolvePath,
} from '../../../schemas/index.js';
import { AppError, invalidParam } from '../../errors.js';

/** Free-form objects of a product keyed by spec key: a key beneath them must be one the catalog knows. */
const KEYED_BY_SPEC = new Set(['specifications', '_spec_sources']);
const PRODUCT_FIELDS = allowedFields(Product);

const specKeyMemo = perConnection<Set<string>>();
/** Every spec key of this snapshot's product types (products carry only these). */
const specKeys = (db: Db): Set<string> =>
  specKeyMemo(db, 'all', () => new Set([...typeSpecs(db).values()].flat().map((d) => d.key)));

/**
 * The product field selection asked for by `fields` (query text or body array), checked
 * against the Product schema and the catalog's spec keys, with `id` always kept (also on each
 * variant when variants are narrowed); undefined when no selection was asked for. Unknown
 * fields, or a selection with a format other than json, are a 400 naming them.
 */
export function productSelection(
  db: Db,
  input: string | readonly string[] | undefined,
  format: string | undefined,
): FieldTree | undefined {
  if (input === undefined) return undefined;
  if (format !== undefined && format !== 'json')
    throw invalidParam(
      'fields',
      `applies to format=json only: the ${format} format has its own fixed shape (leave out fields or format)`,
    );
  const paths = parseFieldList(input);
  if (paths.length === 0) throw invalidParam('fields', 'must name at least one field');
  if (paths.length > MAX_FIELDS) throw invalidParam('fields', `names at most ${MAX_FIELDS} fields`);
  const unknown = paths.filter((path) => {
    const found = resolvePath(Product, path);
    if (!found) return true;
    const [object, key] = found.free;
    return (
      object !== undefined &&
      KEYED_BY_SPEC.has(object.replace(/^variants\./, '')) &&
      !specKeys(db).has(key as string)
    );
  });
  if (unknown.length) {
    const message = `names unknown fields: ${unknown.join(', ')}. Allowed: ${describeFields(PRODUCT_FIELDS)}, where <key> of specifications is a spec key (GET /v2/product-types/{slug}/attributes lists them)`;
    throw new AppError('VALIDATION_ERROR', `fields ${message}`, [
      { field: 'fields', message, unknown, allowed: PRODUCT_FIELDS },
    ]);
  }
  const tree = fieldTree(paths);
  tree.id = true;
  if (typeof tree.variants === 'object') tree.variants.id = true;
  return tree;
}

/**
 * Product fields that only appear when a flag asks for them, and that flag. Naming one in
 * `fields` asks for it, as Best Buy's `show=` does: `fields=offers.price` alone has offers.
 * `knowledge` is left out: it is plan-gated, and its flag is asked for explicitly.
 */
const FLAG_OF_FIELD = {
  offers: 'include_offers',
  signals: 'include_signals',
  attributes: 'include_attributes',
  variants: 'include_variants',
} as const;
type ImpliedFlag = (typeof FLAG_OF_FIELD)[keyof typeof FLAG_OF_FIELD];

/** `query` with the flags the selection implies set to true (only those the route takes, `flags`). */
export function withImpliedFlags<Q extends Partial<Record<ImpliedFlag, string>>>(
  query: Q,
  selection: FieldTree | undefined,
  flags: readonly ImpliedFlag[],
): Q {
  if (!selection) return query;
  const out = { ...query };
  for (const [field, flag] of Object.entries(FLAG_OF_FIELD) as [string, ImpliedFlag][])
    if (Object.hasOwn(selection, field) && flags.includes(flag)) out[flag] = 'true' as Q[ImpliedFlag];
  return out;
}

/** The `fields` check of a route for checkRequest (shared.ts): reads `fields` and `format`. */
export const selectionCheck = (db: Db, input: { fields?: string | readonly string[]; format?: string }) => ({
  reads: ['fields', 'format'],
  check: () => productSelection(db, input.fields, input.format),
});
