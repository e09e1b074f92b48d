import { type Static, Type } from 'typebox';
import { FreeObject, Nullable, namedObject, Uuid } from './common.js';

/** What an entry and a brand's override of it both say. */
const EntryBody = {
  title: Type.String(),
  content: Type.String(),
  data: FreeObject,
  priority: Nullable(Type.String()),
  source: Nullable(Type.String()),
  source_url: Nullable(Type.String()),
};

export const KnowledgeOverride = namedObject('KnowledgeOverride', {
  id: Uuid,
  brand: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() }),
  type: Type.String(),
  ...EntryBody,
});

/** Knowledge entry (spec §2.16). */
export const KnowledgeEntry = namedObject('KnowledgeEntry', {
  id: Uuid,
  key: Type.String(),
  type: Type.String(),
  context: Type.String(),
  ...EntryBody,
  sort_order: Type.Integer(),
  product_type: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), slug: Type.String() })),
  brand_overrides: Type.Optional(Type.Array(KnowledgeOverride)),
});
export type KnowledgeEntry = Static<typeof KnowledgeEntry>;

/** Inline knowledge of one product (include_knowledge): the product type's entries with the brand's overrides. */
export const ProductKnowledge = namedObject('ProductKnowledge', {
  lifespan: Type.Array(KnowledgeEntry),
  maintenance: Type.Array(KnowledgeEntry),
  cost_of_ownership: Type.Array(KnowledgeEntry),
  buying_guide: Type.Array(KnowledgeEntry),
});
export type ProductKnowledge = Static<typeof ProductKnowledge>;
