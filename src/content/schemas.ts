import { type Static, Type } from 'typebox';

/** Schemas of the authored data files in `data/` (see data/README.md). */
const Slug = Type.String({ pattern: '^[a-z0-9-]+$', minLength: 1 });
const Text = Type.String({ minLength: 1 });
const OptText = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const Free = Type.Record(Type.String(), Type.Unknown());
/** What every named entry (category, product type, brand, retailer) has: a URL slug and a display name. */
const Named = { slug: Slug, name: Text };

export const CategoryFile = Type.Array(
  Type.Object({
    ...Named,
    parent: Type.Union([Slug, Type.Null()]),
    icon: OptText,
    is_featured: Type.Optional(Type.Boolean()),
    description: OptText,
  }),
);
export type CategoryDef = Static<typeof CategoryFile>[number];

export const SPEC_TYPES = ['number', 'string', 'boolean', 'enum', 'list'] as const;

/**
 * Real-world range of a numeric spec, in the spec's canonical unit: every value a real product
 * is sold with lies in [min, max]; `typical` is the most common value; `values` lists the
 * discrete values the market actually uses (TV sizes, platform voltages), `weights` their
 * relative frequency; `step` the precision values are quoted in. See data/README.md.
 */
export const SpecRange = Type.Object(
  {
    min: Type.Number(),
    max: Type.Number(),
    typical: Type.Number(),
    step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    values: Type.Optional(Type.Array(Type.Number(), { minItems: 1 })),
    weights: Type.Optional(Type.Array(Type.Number({ minimum: 0 }), { minItems: 1 })),
  },
  { additionalProperties: false },
);
export type SpecRange = Static<typeof SpecRange>;

export const SpecDef = Type.Object({
  key: Type.String({ pattern: '^[a-z0-9_]+$' }),
  label: Text,
  type: Type.Union([
    Type.Literal('number'),
    Type.Literal('string'),
    Type.Literal('boolean'),
    Type.Literal('enum'),
    Type.Literal('list'),
  ]),
  unit: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  values: Type.Optional(Type.Array(Type.String())),
  /** enum specs: how common each of `values` is on the shelf (one relative weight each; equal when absent) */
  weights: Type.Optional(Type.Array(Type.Number({ minimum: 0 }), { minItems: 1 })),
  /** boolean specs: the share of products on the shelf that have the feature (0–1; half when absent) */
  share: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  aliases: Type.Optional(Type.Array(Type.String())),
  headline: Type.Optional(Type.Boolean()),
  range: Type.Optional(SpecRange),
});
export type SpecDef = Static<typeof SpecDef>;

export const ProductTypeFile = Type.Array(
  Type.Object({
    ...Named,
    subcategory: Slug,
    google_product_category: Type.Object({ id: Type.Union([Type.Integer(), Type.String()]), path: Text }),
    synonyms: Type.Optional(Type.Array(Type.String())),
    identity_dimensions: Type.Array(Type.String()),
    variant_dimensions: Type.Array(Type.String()),
    specs: Type.Array(SpecDef),
    controlled_values: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({
          marketplace_handle: Type.String(),
          marketplace_name: Type.String(),
          values: Type.Array(Type.String()),
        }),
      ),
    ),
    price_range: Type.Optional(
      Type.Object({ low: Type.Number(), typical: Type.Number(), high: Type.Number() }),
    ),
    model_patterns: Type.Optional(
      Type.Array(
        Type.Object({
          brand: Type.String(),
          regex: Type.String(),
          example: Type.Optional(Type.String()),
          decodes: Type.Optional(Free),
        }),
      ),
    ),
  }),
);
export type ProductTypeDef = Static<typeof ProductTypeFile>[number];

export const KNOWLEDGE_TYPES = [
  'maintenance_schedule',
  'lifespan',
  'tip',
  'cost_of_ownership',
  'failure_modes',
  'buying_guide',
  'install_checklist',
  'error_code',
] as const;
export const KNOWLEDGE_CONTEXTS = ['home', 'office', 'general'] as const;
const KnowledgeType = Type.Union(KNOWLEDGE_TYPES.map((t) => Type.Literal(t)));

export const KnowledgeFile = Type.Object({
  product_type: Slug,
  entries: Type.Array(
    Type.Object({
      key: Slug,
      type: KnowledgeType,
      context: Type.Union(KNOWLEDGE_CONTEXTS.map((t) => Type.Literal(t))),
      title: Text,
      content: Text,
      priority: Type.Optional(Type.String()),
      source: OptText,
      source_url: OptText,
      sort_order: Type.Optional(Type.Number()),
      data: Type.Optional(Free),
    }),
  ),
  brand_overrides: Type.Optional(
    Type.Array(
      Type.Object({
        brand: Slug,
        overrides: Type.Optional(Type.Union([Slug, Type.Null()])),
        type: KnowledgeType,
        title: Text,
        content: Text,
        priority: Type.Optional(Type.String()),
        source: OptText,
        source_url: OptText,
        data: Type.Optional(Free),
      }),
    ),
  ),
});
export type KnowledgeFile = Static<typeof KnowledgeFile>;

export const BrandFile = Type.Array(
  Type.Object({
    ...Named,
    aliases: Type.Optional(Type.Array(Type.String())),
    website_url: OptText,
    logo_url: OptText,
    description: OptText,
    product_types: Type.Optional(Type.Array(Slug)),
    /** the brand's real product lines (series), entry line first (the demo generator prices by it) */
    lines: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Text,
            product_types: Type.Array(Slug, { minItems: 1 }),
            /** share of the brand's products of these types in this line; lines without one split the rest */
            share: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** cordless battery platforms: every tool of the listed types runs on one of them */
    battery_platforms: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: Text,
            voltage: Type.Number({ exclusiveMinimum: 0 }),
            product_types: Type.Array(Slug, { minItems: 1 }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    profile: Type.Optional(Free),
  }),
);
export type BrandDef = Static<typeof BrandFile>[number];

export const RetailerFile = Type.Array(
  Type.Object({
    ...Named,
    domain: OptText,
    logo_url: OptText,
    is_active: Type.Optional(Type.Boolean()),
    title_style: Type.Optional(Type.String()),
    categories: Type.Optional(Type.Array(Type.String())),
    profile: Type.Optional(Free),
  }),
);
export type RetailerDef = Static<typeof RetailerFile>[number];

/** Product type pairs whose products relate: `to` is an accessory or a consumable of `from`. */
export const RelatedTypesFile = Type.Array(
  Type.Object({
    from: Slug,
    to: Slug,
    type: Type.Union([Type.Literal('accessory'), Type.Literal('consumable')]),
    note: Type.Optional(Type.String()),
  }),
);
export type RelatedTypeDef = Static<typeof RelatedTypesFile>[number];

/** A spec value a rule names: an enum or string value, a number, a boolean. */
const RuleValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
/** What a rule allows of one spec: a number interval and/or a list of allowed values. */
const RuleConstraint = Type.Object(
  {
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    values: Type.Optional(Type.Array(RuleValue, { minItems: 1 })),
    not: Type.Optional(Type.Array(RuleValue, { minItems: 1 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type RuleConstraint = Static<typeof RuleConstraint>;

/**
 * Specs of one product type that belong together (`taxonomy/spec-rules.json`, see
 * data/README.md): conditional ranges (`when` every named spec — or `brand`, the brand slug —
 * matches, `then` each named spec keeps to its constraint), monotone relations between two numeric specs (or a spec and the
 * product's quality), bounds of one spec by another, and what the price follows.
 */
export const SpecRulesFile = Type.Array(
  Type.Object(
    {
      product_type: Slug,
      rules: Type.Optional(
        Type.Array(
          Type.Object(
            {
              when: Type.Record(Type.String(), Type.Union([RuleValue, RuleConstraint]), { minProperties: 1 }),
              /** null: the spec does not apply (an electric range has no burner BTU) */
              // biome-ignore lint/suspicious/noThenProperty: the rule language's own word, read from JSON, never awaited
              then: Type.Record(Type.String(), Type.Union([RuleValue, RuleConstraint, Type.Null()]), {
                minProperties: 1,
              }),
              note: Type.Optional(Type.String()),
            },
            { additionalProperties: false },
          ),
        ),
      ),
      relations: Type.Optional(
        Type.Array(
          Type.Object(
            {
              spec: Type.String(),
              increases_with: Type.Optional(Type.String()),
              decreases_with: Type.Optional(Type.String()),
              /** the spec never exceeds this other numeric spec (HDMI 2.1 ports ≤ HDMI ports) */
              at_most: Type.Optional(Type.String()),
              /** the spec is never below this other numeric spec (surge ≥ running watts) */
              at_least: Type.Optional(Type.String()),
              /** the spec is the sum of these numeric specs (total capacity = fresh food + freezer; an absent part counts 0) */
              sum_of: Type.Optional(Type.Array(Type.String(), { minItems: 2 })),
              note: Type.Optional(Type.String()),
            },
            { additionalProperties: false },
          ),
        ),
      ),
      /** why the type needs no rules (one numeric spec, nothing that constrains another) */
      no_rules: Type.Optional(Type.String()),
      price: Type.Optional(
        Type.Object(
          {
            /** spec → elasticity: price ∝ (value / typical) ^ elasticity */
            increases_with: Type.Optional(Type.Record(Type.String(), Type.Number())),
            /** spec → value → price factor (booleans as "true"/"false") */
            factors: Type.Optional(
              Type.Record(Type.String(), Type.Record(Type.String(), Type.Number({ exclusiveMinimum: 0 }))),
            ),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
export type SpecRulesDef = Static<typeof SpecRulesFile>[number];

/**
 * What a product type is for, in the words of a buying guide (`data/needs/<category>.json`):
 * the needs it serves, the problems it solves, where and by whom it is used, and the everyday
 * words people call it by. Query understanding maps a need ("the basement smells musty") to
 * product types through this text.
 */
const Phrases = Type.Array(Type.String({ minLength: 1 }));
export const NeedsFile = Type.Array(
  Type.Object(
    {
      product_type: Slug,
      needs: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      problems: Phrases,
      places: Phrases,
      users: Phrases,
      words: Phrases,
    },
    { additionalProperties: false },
  ),
);
export type NeedsDef = Static<typeof NeedsFile>[number];

/**
 * The resolver's color vocabulary (`resolve/colors.json`): color words by family, the words
 * that make a color word a material (`stainless steel`), the part nouns after which a color
 * phrase names a part's color or material rather than the product's (`Stainless Steel Drum`),
 * the nouns before which a color word names a fuel or medium, not a color (`Charcoal Grill`,
 * `Charcoal Filter`), and the color suffix codes makers append to a model number, by the color
 * they stand for.
 */
export const ColorVocabularyFile = Type.Object(
  {
    words: Type.Record(
      Type.String({ pattern: '^[a-z]+$' }),
      Type.Array(Type.String({ pattern: '^[a-z]+$' })),
    ),
    material_words: Type.Array(Type.String({ pattern: '^[a-z]+$' })),
    part_nouns: Type.Array(Type.String({ pattern: '^[a-z]+$' })),
    not_color_before: Type.Record(
      Type.String({ pattern: '^[a-z]+$' }),
      Type.Array(Type.String({ pattern: '^[a-z]+$' }), { minItems: 1 }),
    ),
    suffix_codes: Type.Record(
      Type.String({ pattern: '^[a-z]+$' }),
      Type.Array(Type.String({ pattern: '^[A-Z]+$' }), { minItems: 1 }),
    ),
  },
  { additionalProperties: false },
);
export type ColorVocabulary = Static<typeof ColorVocabularyFile>;
