export { allowedValues, describeAllowed } from './allowed.js';
export {
  Brand,
  BrandProfile,
  BrandRef,
  BrandSummary,
  Category,
  CategorySummary,
  Offer,
  OfferMatch,
  ProductType,
  ProductTypeSummary,
  Retailer,
} from './catalog.js';
export { CHANGE_ASPECTS, CHANGE_TYPES, type ChangeAspect, ChangeItem } from './changes.js';
export {
  COMPONENT_BASES,
  COMPONENT_NAMES,
  FreeObject,
  Nullable,
  namedExtension,
  namedObject,
  Slug,
  StringEnum,
  Timestamp,
  Uuid,
} from './common.js';
export { withNulls } from './complete.js';
export { Envelope, ErrorBody, ErrorEnvelope, ListEnvelope, Meta, Pagination } from './envelope.js';
export {
  allowedFields,
  describeFields,
  FieldsArray,
  FieldsParam,
  type FieldTree,
  fieldTree,
  MAX_FIELDS,
  parseFieldList,
  project,
  resolvePath,
} from './fields.js';
export { KnowledgeEntry, KnowledgeOverride, ProductKnowledge } from './knowledge.js';
export {
  Attribute,
  KnowledgeMeta,
  Product,
  ProductGroupRef,
  ProductVariant,
  QualityBreakdown,
  Signals,
} from './product.js';
export {
  AiProduct,
  AttributeSchema,
  BarcodeResult,
  CategoryWithChildren,
  ModelLookup,
  PriceIntelligence,
  PriceVerdict,
  ProductAttributes,
  ProductGroup,
  ProductTypeKnowledge,
  RelationshipItem,
  Relationships,
  SchemaOrgProduct,
} from './resources.js';
