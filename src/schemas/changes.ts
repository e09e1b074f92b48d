import { type Static, Type } from 'typebox';
import { Nullable, namedObject, Slug, StringEnum, Timestamp, Uuid } from './common.js';
import { Product } from './product.js';

/** The aspects of a product whose change the change feed reports (see docs/api.md). */
export const CHANGE_ASPECTS = ['name', 'price', 'stock', 'offers', 'specs', 'details'] as const;
export type ChangeAspect = (typeof CHANGE_ASPECTS)[number];

export const CHANGE_TYPES = ['added', 'changed', 'removed'] as const;

/** One entry of `GET /v2/changes`: a product added, changed or removed by a publish. */
export const ChangeItem = namedObject('ChangeItem', {
  seq: Type.Integer({ description: 'position in the change feed; increases with every change' }),
  version: Type.Integer({ description: 'the publish that recorded it; counts publishes up' }),
  published_at: Timestamp,
  type: StringEnum(CHANGE_TYPES, {
    description:
      'added (new product id), changed (see aspects) or removed (a tombstone: the id is gone from the catalog)',
  }),
  product_id: Uuid,
  slug: Slug,
  name: Type.String({ description: "the product's name (for removed: its last name)" }),
  aspects: Type.Array(StringEnum(CHANGE_ASPECTS), {
    description:
      'for changed: what changed — name, price (offer prices, best/min/max price), stock (availability), offers (offers added or removed, their title, URL or image), specs (specifications, variant attributes), details (description, identifiers, brand, type, group, image, data tier). Empty for added and removed.',
  }),
  merged_into: Nullable(
    Type.String({
      format: 'uuid',
      description: 'for removed: the product its listings now belong to (merged by entity resolution)',
    }),
  ),
  product: Type.Optional(
    Nullable({
      ...Product,
      description:
        "with include_product=true: the product's current document (the body of GET /v2/products/{id}), null when it is no longer in the catalog (removed, now or by a later publish)",
    }),
  ),
});
export type ChangeItem = Static<typeof ChangeItem>;
