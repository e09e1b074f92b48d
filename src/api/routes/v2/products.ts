import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  getProduct,
  getProductBySlug,
  InvalidCursorError,
  listProducts,
  type ProductSortField,
} from '../../../catalog/index.js';
import { Envelope, ErrorEnvelope, ListEnvelope, Product } from '../../../schemas/index.js';
import { invalidParam, notFound } from '../../errors.js';
import { ok, okPage } from '../../plugins/envelope.js';
import { CursorParam, Flag, flag, Limit, SearchText, SlugParam, UuidParam } from '../../schemas/params.js';

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
  category_id: Type.Optional(UuidParam),
  brand_id: Type.Optional(UuidParam),
  product_type_id: Type.Optional(UuidParam),
  product_group_id: Type.Optional(UuidParam),
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
  include_legacy: Type.Optional(Flag),
  data_tier: Type.Optional(
    Type.String({ pattern: '^[1-4](,[1-4])*$', description: 'comma-separated tiers, e.g. 1,2' }),
  ),
  include_offers: Type.Optional(Flag),
});

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope };

export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: 'Search and list products',
        querystring: ListQuery,
        response: { 200: ListEnvelope(Product), ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.min_price !== undefined && q.max_price !== undefined && q.min_price > q.max_price)
        throw invalidParam('min_price', 'must not be greater than max_price');
      const sort = q.sort
        ? { field: q.sort.replace(/^-/, '') as ProductSortField, desc: q.sort.startsWith('-') }
        : undefined;
      try {
        const { products, page } = listProducts(app.catalog().db, {
          q: q.q,
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
        });
        return okPage(request, products, page);
      } catch (error) {
        if (error instanceof InvalidCursorError) throw invalidParam('cursor', error.message);
        throw error;
      }
    },
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'A product by id',
        params: Type.Object({ id: UuidParam }),
        querystring: Type.Object({ include_offers: Type.Optional(Flag) }),
        response: { 200: Envelope(Product), ...errors },
      },
    },
    async (request) => {
      const product = getProduct(app.catalog().db, request.params.id, {
        includeOffers: flag(request.query.include_offers),
      });
      if (!product) throw notFound('product', request.params.id);
      return ok(request, product);
    },
  );

  app.get(
    '/products/by-slug/:slug',
    {
      schema: {
        tags: ['products'],
        summary: 'A product by slug',
        params: Type.Object({ slug: SlugParam }),
        querystring: Type.Object({ include_offers: Type.Optional(Flag) }),
        response: { 200: Envelope(Product), ...errors },
      },
    },
    async (request) => {
      const product = getProductBySlug(app.catalog().db, request.params.slug, {
        includeOffers: flag(request.query.include_offers),
      });
      if (!product) throw notFound('product', request.params.slug);
      return ok(request, product);
    },
  );
};
