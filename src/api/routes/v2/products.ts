import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import {
  attachOffers,
  attachSignals,
  attributesOf,
  type Db,
  getProduct,
  listProducts,
  type ProductSortField,
  productDocumentParts,
  productIdBySlug,
  singleBodyParts,
  variantsOf,
  withKnowledgeMeta,
} from '../../../catalog/index.js';
import { knowledgeMeta, productKnowledge } from '../../../knowledge/index.js';
import { Envelope, FieldsParam, ListEnvelope, Product, project } from '../../../schemas/index.js';
import { keywordMiss, rankKeyword } from '../../../search/index.js';
import { invalidParam, notFound } from '../../errors.js';
import { cacheByReference } from '../../plugins/cache.js';
import { ok, okPage, okPageSerialized, okSerializedBytes } from '../../plugins/envelope.js';
import {
  CursorParam,
  Flag,
  flag,
  IdOrSlugParam,
  LegacyFlag,
  Limit,
  SearchText,
  SlugParam,
  UuidParam,
} from '../../schemas/params.js';
import { selectionCheck, withImpliedFlags } from './fields.js';
import {
  checkedTogether,
  checkRequest,
  errorResponses,
  FormatParam,
  formatProducts,
  requirePlan,
  sendFormatted,
  sendSerialized,
  withIds,
} from './shared.js';

const SORT_PATTERN = '^-?(name|price|quality_score|created_at|updated_at)$';

const ListQuery = Type.Object({
  q: Type.Optional(SearchText),
  limit: Limit(20),
  cursor: Type.Optional(CursorParam),
  sort: Type.Optional(
    Type.String({
      pattern: SORT_PATTERN,
      description:
        'name, price, quality_score, created_at or updated_at; prefix - for descending. Default name (relevance when q is given).',
    }),
  ),
  category_id: Type.Optional(IdOrSlugParam('category')),
  brand_id: Type.Optional(IdOrSlugParam('brand')),
  product_type_id: Type.Optional(IdOrSlugParam('product type')),
  product_group_id: Type.Optional(IdOrSlugParam('product group')),
  min_price: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 10_000_000,
      description: 'lowest current best price, in major units (e.g. dollars)',
    }),
  ),
  max_price: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000_000 })),
  model_number: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'exact model number (case and separators ignored)',
    }),
  ),
  include_legacy: Type.Optional(LegacyFlag),
  data_tier: Type.Optional(
    Type.String({ pattern: '^[1-4](,[1-4])*$', description: 'comma-separated tiers, e.g. 1,2' }),
  ),
  include_offers: Type.Optional(Flag),
  include_signals: Type.Optional(Flag),
  group_variants: Type.Optional(Flag),
  format: Type.Optional(FormatParam),
  fields: Type.Optional(FieldsParam),
});

const SingleQuery = Type.Object({
  include_variants: Type.Optional(Flag),
  include_legacy: Type.Optional(LegacyFlag),
  include_offers: Type.Optional(Flag),
  include_attributes: Type.Optional(Flag),
  include_signals: Type.Optional(Flag),
  include_knowledge: Type.Optional(
    Type.String({
      pattern: (Flag as unknown as { pattern: string }).pattern,
      description:
        'true/false, 1/0 or yes/no: inline knowledge (lifespan, maintenance, cost of ownership, buying guide); Starter plan or above',
    }),
  ),
  format: Type.Optional(FormatParam),
  fields: Type.Optional(FieldsParam),
});
type SingleQuery = Static<typeof SingleQuery>;

/** True when a single-product query asks for nothing beyond the default JSON body. */
const asksForDefault = (q: SingleQuery): boolean =>
  (q.format === undefined || q.format === 'json') &&
  !flag(q.include_variants) &&
  !flag(q.include_offers) &&
  !flag(q.include_attributes) &&
  !flag(q.include_signals) &&
  !flag(q.include_knowledge);

export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    checkedTogether({
      tags: ['products'],
      summary: 'Search and list products',
      description:
        'Keyword search (q) and filtered listing with cursor pagination. format=ai and format=schemaorg change the shape of each item.',
      querystring: ListQuery,
      response: { 200: ListEnvelope(Product), ...errorResponses },
    }),
    async (request, reply) => {
      const query = request.query;
      const [selection] = checkRequest(request, selectionCheck(app.catalog().db, query), {
        reads: ['min_price', 'max_price'],
        check: () => {
          if (
            query.min_price !== undefined &&
            query.max_price !== undefined &&
            query.min_price > query.max_price
          )
            throw invalidParam('min_price', 'must not be greater than max_price');
        },
      });
      const asked = withImpliedFlags(query, selection, ['include_offers', 'include_signals']);
      const q = withIds(app.catalog().db, asked, {
        brand_id: 'brands',
        category_id: 'categories',
        product_type_id: 'product_types',
        product_group_id: 'product_groups',
      });
      const sort = q.sort
        ? { field: q.sort.replace(/^-/, '') as ProductSortField, desc: q.sort.startsWith('-') }
        : undefined;
      const db = app.catalog().db;
      const plain = q.format === undefined || q.format === 'json';
      // search/ ranks the query's matches (the same ranking as POST search in keyword
      // mode); the catalog filters, sorts and pages them
      const ranked = q.q?.trim() ? rankKeyword(db, q.q).map((r) => r.rowid) : undefined;
      // no product has every word: say so, with the semantic reading of the query
      const miss = ranked?.length === 0 ? keywordMiss(db, q.q!) : null;
      if (miss) request.metaExtras.interpretation = miss;
      const { products, documents, page } = listProducts(db, {
        documents: plain,
        documentCache: app.catalog().documents,
        ranked,
        limit: q.limit,
        cursor: q.cursor,
        sort,
        brandId: q.brand_id,
        categoryId: q.category_id,
        productTypeId: q.product_type_id,
        productGroupId: q.product_group_id,
        modelNumber: q.model_number,
        minPrice: q.min_price,
        maxPrice: q.max_price,
        includeLegacy: flag(q.include_legacy),
        dataTiers: q.data_tier?.split(',').map(Number),
        includeOffers: flag(q.include_offers),
        includeSignals: flag(q.include_signals),
        groupVariants: flag(q.group_variants),
      });
      if (selection) {
        // a partial product is not the Product schema: sent past the route's serializer
        const items = documents ? documents.map((d) => JSON.parse(d) as Product) : products;
        return sendFormatted(request, reply, project(items, selection), page);
      }
      if (documents) return sendSerialized(reply, okPageSerialized(request, documents, page));
      if (q.format && q.format !== 'json')
        return sendFormatted(request, reply, formatProducts(db, request, products, q.format), page);
      return okPage(request, products, page);
    },
  );

  /** Adds what the single-product query asks for, then answers in the asked format. */
  function single(db: Db, product: Product, query: SingleQuery, request: Parameters<typeof ok>[0]) {
    const includeKnowledge = flag(query.include_knowledge);
    if (includeKnowledge) requirePlan(request, 'starter', 'include_knowledge');
    if (flag(query.include_offers)) attachOffers(db, [product]);
    if (flag(query.include_signals)) attachSignals(db, [product]);
    if (flag(query.include_attributes)) product.attributes = attributesOf(db, product.id);
    if (flag(query.include_variants)) {
      product.variants = variantsOf(db, product, flag(query.include_legacy));
      if (flag(query.include_offers)) attachOffers(db, product.variants);
    }
    const meta = knowledgeMeta(db, product);
    if (meta) product._knowledge = meta;
    if (includeKnowledge) product.knowledge = productKnowledge(db, product);
    return product;
  }

  /** A single product (by id or slug) in the requested format, or 404. */
  function answerOne(
    request: Parameters<typeof ok>[0] & { query: SingleQuery },
    reply: Parameters<typeof sendFormatted>[1],
    id: () => string | null,
    identifier: string,
  ) {
    const catalog = app.catalog();
    const db = catalog.db;
    // no `fields` and a valid query (most reads): nothing to check, and no check made to say so
    const [selection] =
      request.validationError || request.query.fields !== undefined
        ? checkRequest(request, selectionCheck(db, request.query))
        : [undefined];
    const productId = id();
    const query = withImpliedFlags(request.query, selection, [
      'include_offers',
      'include_signals',
      'include_attributes',
      'include_variants',
    ]);
    if (productId !== null && asksForDefault(query)) {
      // the body stored at ingest (catalog/product-documents.ts): no joins, no serialization
      const document = productDocumentParts(db, productId, catalog.documents);
      if (document !== null && selection)
        return sendFormatted(
          request,
          reply,
          project(JSON.parse(withKnowledgeMeta(document.json.toString(), document.knowledge)), selection),
        );
      if (document !== null) {
        cacheByReference(request, document.etag);
        return sendSerialized(
          reply,
          okSerializedBytes(request, singleBodyParts(document.json, document.knowledge)),
        );
      }
    }
    const found = productId === null ? null : getProduct(db, productId);
    if (!found) throw notFound('product', identifier);
    const product = single(db, found, query, request);
    const format = query.format;
    if (format && format !== 'json')
      return sendFormatted(
        request,
        reply,
        formatProducts(db, request, [product], format, { knowledge: format === 'ai' })[0],
      );
    if (selection) return sendFormatted(request, reply, project(product, selection));
    return ok(request, product);
  }

  /**
   * What a plain (not async) handler returns for `answer`: nothing when it is the reply, sent
   * already (Fastify takes a returned reply for a thenable to wait on), else the body to send.
   */
  const sent = <T>(reply: FastifyReply, answer: T | FastifyReply): T | undefined =>
    answer === reply ? undefined : (answer as T);

  /** The schema of a single-product route: the same query and answer whichever key finds it. */
  const singleProduct = <P extends TSchema>(summary: string, params: P) =>
    checkedTogether({
      tags: ['products'],
      summary,
      params,
      querystring: SingleQuery,
      response: { 200: Envelope(Product), ...errorResponses },
    });

  // plain functions, not async ones: they answer before they return, and an async handler
  // costs a promise, resolved with the reply (a thenable), and two microtask turns per request
  app.get(
    '/products/:id',
    singleProduct('A product by id', Type.Object({ id: UuidParam })),
    (request, reply) =>
      sent(
        reply,
        answerOne(request, reply, () => request.params.id, request.params.id),
      ),
  );

  app.get(
    '/products/by-slug/:slug',
    singleProduct('A product by slug', Type.Object({ slug: SlugParam })),
    (request, reply) =>
      sent(
        reply,
        answerOne(
          request,
          reply,
          () => productIdBySlug(app.catalog().db, request.params.slug),
          request.params.slug,
        ),
      ),
  );
};
