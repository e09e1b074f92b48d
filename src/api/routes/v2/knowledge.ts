import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  findBrand,
  findProductType,
  KNOWLEDGE_CONTEXTS,
  KNOWLEDGE_TYPES,
  knowledgeByType,
  knowledgeForType,
} from '../../../knowledge/index.js';
import {
  Envelope,
  KnowledgeEntry,
  ListEnvelope,
  ProductTypeKnowledge,
  StringEnum,
} from '../../../schemas/index.js';
import { invalidParam, notFound } from '../../errors.js';
import { ok, okPage } from '../../plugins/envelope.js';
import { CursorParam, IdOrSlugParam, Limit, SearchText, SlugParam } from '../../schemas/params.js';
import { checkedTogether, checkRequest, errorResponses, requirePlan } from './shared.js';

const KnowledgeTypeParam = StringEnum(KNOWLEDGE_TYPES, { description: KNOWLEDGE_TYPES.join(', ') });
const BrandParam = IdOrSlugParam('brand', ": entries carry that brand's overrides as brand_overrides");

/** The knowledge layer (spec §4.19–4.20); Starter plan or above. */
export const knowledgeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // every route here needs the plan; checked after validation, as a handler would (a route
  // that collects its 400s in the handler has its schema errors attached: they come first)
  app.addHook('preHandler', async (request) => {
    if (!request.validationError) requirePlan(request, 'starter', 'knowledge');
  });

  app.get(
    '/product-types/:slug/knowledge',
    checkedTogether({
      tags: ['knowledge'],
      summary: 'Knowledge entries of a product type (Starter plan or above)',
      params: Type.Object({ slug: SlugParam }),
      querystring: Type.Object({
        type: Type.Optional(KnowledgeTypeParam),
        context: Type.Optional(
          StringEnum(KNOWLEDGE_CONTEXTS, {
            description: 'home → general + home entries; office → general + office; general → general only',
          }),
        ),
        code: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 40,
            description: 'error code (generic or brand-specific, e.g. E24); implies type=error_code',
          }),
        ),
        canonical_issue: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 80,
            pattern: '^[a-z0-9_]+$',
            description: 'canonical issue (snake_case, e.g. drain_failure); implies type=error_code',
          }),
        ),
        brand: Type.Optional(BrandParam),
      }),
      response: { 200: Envelope(ProductTypeKnowledge), ...errorResponses },
    }),
    async (request) => {
      const db = app.catalog().db;
      const q = request.query;
      // a conflict between type and code is a 400 together with the schema's, before any 404
      checkRequest(request, {
        reads: ['type', 'code', 'canonical_issue'],
        check: () => {
          if (q.type && q.type !== 'error_code' && (q.code || q.canonical_issue))
            throw invalidParam(
              'type',
              'must be error_code (or omitted) when code or canonical_issue is given',
            );
        },
      });
      const type = findProductType(db, request.params.slug);
      if (!type) throw notFound('product type', request.params.slug);
      const brand = q.brand ? findBrand(db, q.brand) : null;
      if (q.brand && !brand) throw notFound('brand', q.brand);
      const knowledge = knowledgeForType(db, type.id, {
        type: q.type,
        context: q.context,
        code: q.code,
        canonicalIssue: q.canonical_issue,
        brandId: brand?.id,
      });
      return ok(request, { product_type: type, knowledge });
    },
  );

  app.get(
    '/knowledge/:type',
    {
      schema: {
        tags: ['knowledge'],
        summary: 'Knowledge entries of one type across product types (Starter plan or above)',
        params: Type.Object({ type: KnowledgeTypeParam }),
        querystring: Type.Object({
          q: Type.Optional(SearchText),
          product_type: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              pattern: '^[A-Za-z0-9-]+$',
              description: 'product type slug or id',
            }),
          ),
          brand: Type.Optional(BrandParam),
          limit: Limit(20),
          cursor: Type.Optional(CursorParam),
        }),
        response: { 200: ListEnvelope(KnowledgeEntry), ...errorResponses },
      },
    },
    async (request) => {
      const db = app.catalog().db;
      const q = request.query;
      const productType = q.product_type ? findProductType(db, q.product_type) : null;
      if (q.product_type && !productType) throw notFound('product type', q.product_type);
      const brand = q.brand ? findBrand(db, q.brand) : null;
      if (q.brand && !brand) throw notFound('brand', q.brand);
      const { entries, page } = knowledgeByType(db, request.params.type, {
        q: q.q,
        productTypeId: productType?.id,
        brandId: brand?.id,
        limit: q.limit,
        cursor: q.cursor,
      });
      return okPage(request, entries, page);
    },
  );
};
