export { Brand, BrandRef, Category, Offer, ProductType, Retailer } from './catalog.js';
export { FreeObject, Nullable, Slug, Timestamp, Uuid } from './common.js';
export { Envelope, ErrorBody, ErrorEnvelope, ListEnvelope, Meta, Pagination } from './envelope.js';
export { Attribute, KnowledgeMeta, Product, ProductGroupRef, QualityBreakdown } from './product.js';
