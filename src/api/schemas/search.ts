import { Type } from 'typebox';
import { FieldsArray, Meta, namedObject, Pagination, Product, StringEnum } from '../../schemas/index.js';

const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 50,
  description: 'ids or slugs',
});
const Bound = Type.Number({ minimum: 0, maximum: 10_000_000 });
const Range = Type.Object(
  { min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) },
  { additionalProperties: false },
);
const Scalar = Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()]);
const SpecValue = Type.Union([Scalar, Type.Array(Scalar, { maxItems: 50 }), Range]);

export const SearchFilters = namedObject(
  'SearchFilters',
  {
    brand: Type.Optional(Ids),
    category: Type.Optional(Ids),
    product_type: Type.Optional(Ids),
    retailer: Type.Optional(Ids),
    price: Type.Optional(
      Type.Object({ min: Type.Optional(Bound), max: Type.Optional(Bound) }, { additionalProperties: false }),
    ),
    in_stock: Type.Optional(Type.Boolean()),
    data_tier: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 4 }), { maxItems: 4 })),
    specs: Type.Optional(
      Type.Record(
        Type.String({
          pattern: '^[a-z0-9_]+$',
          maxLength: 64,
          description: 'a spec key: lower-case letters, digits and underscores',
        }),
        SpecValue,
        {
          description: 'spec key → value, list of values, or {min, max}',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const Query = Type.String({ maxLength: 500, description: 'free text' });
const Mode = Type.Union([Type.Literal('keyword'), Type.Literal('semantic'), Type.Literal('hybrid')], {
  default: 'keyword',
  description:
    'keyword (BM25), semantic (vectors within understood constraints) or hybrid (keyword full matches first, then by meaning and words named)',
});
const Format = StringEnum(['json', 'schemaorg', 'ai'], {
  default: 'json',
  description:
    'json (full Product), schemaorg (schema.org Product JSON-LD) or ai (condensed AiProduct); facets and meta.interpretation are the same in every format',
});

export const AdvancedSearchBody = Type.Object(
  {
    query: Type.Optional(Query),
    mode: Type.Optional(Mode),
    filters: Type.Optional(SearchFilters),
    facets: Type.Optional(
      Type.Array(
        Type.String({
          pattern: '^(brand|category|product_type|retailer|price|spec:[a-z0-9_]+)$',
          description: 'brand, category, product_type, retailer, price or spec:<key>',
        }),
        {
          maxItems: 20,
          description: 'brand, category, product_type, retailer, price, spec:<key>',
        },
      ),
    ),
    sort: Type.Optional(
      Type.Object(
        {
          field: Type.Union(
            ['relevance', 'name', 'price', 'quality_score', 'created_at', 'updated_at'].map((f) =>
              Type.Literal(f),
            ),
          ),
          order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        },
        { additionalProperties: false },
      ),
    ),
    pagination: Type.Optional(
      Type.Object(
        {
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
          cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        },
        { additionalProperties: false },
      ),
    ),
    include_offers: Type.Optional(Type.Boolean()),
    format: Type.Optional(Format),
    fields: Type.Optional(FieldsArray),
  },
  { additionalProperties: false },
);

export const SemanticSearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 500 }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    filters: Type.Optional(SearchFilters),
    include_offers: Type.Optional(Type.Boolean()),
    format: Type.Optional(Format),
    fields: Type.Optional(FieldsArray),
  },
  { additionalProperties: false },
);

const FacetBucket = namedObject('FacetBucket', {
  id: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  count: Type.Integer(),
});

/** Search results: the product list envelope plus top-level `facets` beside `data`. */
export const SearchEnvelope = namedObject('SearchResults', {
  success: Type.Literal(true),
  data: Type.Array(Product),
  facets: Type.Record(Type.String(), Type.Array(FacetBucket)),
  meta: Meta,
  pagination: Pagination,
});
