import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  attachOffers,
  attributeSchema,
  type GroupSortField,
  getGroup,
  listCategories,
  listGroups,
  listProductTypes,
} from '../../../catalog/index.js';
import {
  AttributeSchema,
  CategoryWithChildren,
  Envelope,
  FieldsParam,
  ListEnvelope,
  Meta,
  ProductGroup,
  ProductType,
  project,
} from '../../../schemas/index.js';
import { notFound } from '../../errors.js';
import { ok, okPage } from '../../plugins/envelope.js';
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
  sendFormatted,
  withIds,
} from './shared.js';

const GroupFields = Type.String({
  pattern: (FieldsParam as unknown as { pattern: string }).pattern,
  maxLength: (FieldsParam as unknown as { maxLength: number }).maxLength,
  description:
    "fields of each of the group's products to return (the group's own fields stay whole), as on GET /v2/products: e.g. name,current_best_price,offers.price. Naming offers asks for them. Only with format=json.",
});

/** How a product group's products are shown, in its list and on its own. */
const GroupShown = {
  include_legacy: Type.Optional(LegacyFlag),
  format: Type.Optional(FormatParam),
  fields: Type.Optional(GroupFields),
};

/** Product groups, categories, product types and attribute schemas (spec §4.11–4.13, 4.17–4.18). */
export const catalogTreeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/product-groups',
    checkedTogether({
      tags: ['product groups'],
      summary: 'List product groups (variant families)',
      querystring: Type.Object({
        q: Type.Optional(SearchText),
        brand_id: Type.Optional(IdOrSlugParam('brand')),
        category_id: Type.Optional(IdOrSlugParam('category')),
        product_type_id: Type.Optional(IdOrSlugParam('product type')),
        limit: Limit(20),
        cursor: Type.Optional(CursorParam),
        sort: Type.Optional(
          Type.String({
            pattern: '^-?(name|variant_count|created_at)$',
            description: 'name, variant_count or created_at; prefix - for descending (default name)',
          }),
        ),
        include_products: Type.Optional(Flag),
        ...GroupShown,
      }),
      response: { 200: ListEnvelope(ProductGroup), ...errorResponses },
    }),
    async (request, reply) => {
      const [selection] = checkRequest(request, selectionCheck(app.catalog().db, request.query));
      const q = withIds(app.catalog().db, request.query, {
        brand_id: 'brands',
        category_id: 'categories',
        product_type_id: 'product_types',
      });
      const db = app.catalog().db;
      const format = q.format ?? 'json';
      const { groups, page } = listGroups(db, {
        q: q.q,
        brandId: q.brand_id,
        categoryId: q.category_id,
        productTypeId: q.product_type_id,
        limit: q.limit,
        cursor: q.cursor,
        sort: q.sort
          ? { field: q.sort.replace(/^-/, '') as GroupSortField, desc: q.sort.startsWith('-') }
          : undefined,
        // fields selects among the products: naming them asks for them
        includeProducts: flag(q.include_products) || selection !== undefined,
        includeLegacy: flag(q.include_legacy),
      });
      if (selection) {
        const products = groups.flatMap((g) => g.products ?? []);
        if (selection.offers) attachOffers(db, products);
        // partial products are not the ProductGroup schema: sent past the route's serializer
        const data = groups.map((g) => ({ ...g, products: project(g.products ?? [], selection) }));
        return sendFormatted(request, reply, data, page);
      }
      if (format === 'json') return okPage(request, groups, page);
      const data = groups.map((g) => ({
        ...g,
        products: g.products ? formatProducts(db, request, g.products, format) : undefined,
      }));
      return sendFormatted(request, reply, data, page);
    },
  );

  app.get(
    '/product-groups/:id',
    checkedTogether({
      tags: ['product groups'],
      summary: 'A product group with its products',
      params: Type.Object({ id: UuidParam }),
      querystring: Type.Object({
        include_offers: Type.Optional(Flag),
        ...GroupShown,
      }),
      response: { 200: Envelope(ProductGroup), ...errorResponses },
    }),
    async (request, reply) => {
      const db = app.catalog().db;
      const [selection] = checkRequest(request, selectionCheck(db, request.query));
      const query = withImpliedFlags(request.query, selection, ['include_offers']);
      const group = getGroup(db, request.params.id, {
        includeOffers: flag(query.include_offers),
        includeLegacy: flag(query.include_legacy),
      });
      if (!group) throw notFound('product group', request.params.id);
      if (selection)
        return sendFormatted(request, reply, {
          ...group,
          products: project(group.products ?? [], selection),
        });
      const format = request.query.format ?? 'json';
      if (format === 'json') return ok(request, group);
      return sendFormatted(request, reply, {
        ...group,
        products: formatProducts(db, request, group.products ?? [], format),
      });
    },
  );

  app.get(
    '/categories',
    {
      schema: {
        tags: ['categories'],
        summary: 'Top-level categories, or the subcategories of parent_id',
        querystring: Type.Object({
          parent_id: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              pattern: '^[A-Za-z0-9-]+$',
              description: 'category id or slug',
            }),
          ),
          include_children: Type.Optional(Flag),
        }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Array(CategoryWithChildren),
            meta: Meta,
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const categories = listCategories(app.catalog().db, {
        parentId: request.query.parent_id,
        includeChildren: flag(request.query.include_children),
      });
      if (!categories) throw notFound('category', request.query.parent_id ?? '');
      return ok(request, categories);
    },
  );

  app.get(
    '/product-types',
    {
      schema: {
        tags: ['product types'],
        summary: 'List product types',
        querystring: Type.Object({
          q: Type.Optional(SearchText),
          limit: Limit(50),
          cursor: Type.Optional(CursorParam),
          sort: Type.Optional(
            Type.String({ pattern: '^-?name$', description: 'name or -name (default name)' }),
          ),
          include: Type.Optional(
            Type.String({
              pattern: '^knowledge_stats(,knowledge_stats)*$',
              description: 'comma-separated: knowledge_stats',
            }),
          ),
        }),
        response: { 200: ListEnvelope(ProductType), ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const { types, page } = listProductTypes(app.catalog().db, {
        q: q.q,
        limit: q.limit,
        cursor: q.cursor,
        desc: q.sort === '-name',
        knowledgeStats: q.include?.split(',').includes('knowledge_stats'),
      });
      return okPage(request, types, page);
    },
  );

  app.get(
    '/product-types/:slug/attributes',
    {
      schema: {
        tags: ['product types'],
        summary: 'Attribute schema of a product type',
        params: Type.Object({ slug: SlugParam }),
        response: { 200: Envelope(AttributeSchema), ...errorResponses },
      },
    },
    async (request) => {
      const schema = attributeSchema(app.catalog().db, request.params.slug);
      if (!schema) throw notFound('product type', request.params.slug);
      return ok(request, schema);
    },
  );
};
