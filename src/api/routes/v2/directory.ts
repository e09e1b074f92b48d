import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Db, getBrand, getRetailer, listBrands, listRetailers } from '../../../catalog/index.js';
import { Brand, Envelope, ErrorEnvelope, ListEnvelope, Meta, Retailer } from '../../../schemas/index.js';
import { notFound } from '../../errors.js';
import { ok, okPage } from '../../plugins/envelope.js';
import { CursorParam, Flag, flag, IdOrSlugParam, Limit, SearchText } from '../../schemas/params.js';
import { withIds } from './shared.js';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope };

/** Brands and retailers. */
export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  /** GET `/<tag>/:identifier`: one brand or retailer by id or slug, or a 404 naming it. */
  const byIdentifier = (
    tag: 'brands' | 'retailers',
    noun: 'brand' | 'retailer',
    resource: typeof Brand | typeof Retailer,
    find: (db: Db, identifier: string) => Brand | Retailer | null,
  ) =>
    app.get(
      `/${tag}/:identifier`,
      {
        schema: {
          tags: [tag],
          summary: `A ${noun} by id or slug`,
          params: Type.Object({ identifier: IdOrSlugParam(noun) }),
          response: { 200: Envelope(resource), ...errors },
        },
      },
      async (request) => {
        const found = find(app.catalog().db, request.params.identifier);
        if (!found) throw notFound(noun, request.params.identifier);
        return ok(request, found);
      },
    );

  app.get(
    '/brands',
    {
      schema: {
        tags: ['brands'],
        summary: 'List brands',
        querystring: Type.Object({
          q: Type.Optional(SearchText),
          category_id: Type.Optional(IdOrSlugParam('category')),
          include: Type.Optional(
            Type.String({ pattern: '^(profile)(,(profile))*$', description: 'comma-separated: profile' }),
          ),
          limit: Limit(50),
          cursor: Type.Optional(CursorParam),
          sort: Type.Optional(Type.String({ pattern: '^-?name$', description: 'name or -name' })),
        }),
        response: { 200: ListEnvelope(Brand), ...errors },
      },
    },
    async (request) => {
      const q = withIds(app.catalog().db, request.query, { category_id: 'categories' });
      const { brands, page } = listBrands(app.catalog().db, {
        q: q.q,
        categoryId: q.category_id,
        includeProfile: q.include?.split(',').includes('profile'),
        limit: q.limit,
        cursor: q.cursor,
        desc: q.sort === '-name',
      });
      return okPage(request, brands, page);
    },
  );

  byIdentifier('brands', 'brand', Brand, getBrand);

  app.get(
    '/retailers',
    {
      schema: {
        tags: ['retailers'],
        summary: 'List retailers',
        querystring: Type.Object({
          q: Type.Optional(SearchText),
          is_active: Type.Optional(Flag),
          limit: Limit(50),
        }),
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Type.Array(Retailer), meta: Meta }),
          ...errors,
        },
      },
    },
    async (request) => {
      const q = request.query;
      return ok(
        request,
        listRetailers(app.catalog().db, { q: q.q, isActive: flag(q.is_active) ?? true, limit: q.limit }),
      );
    },
  );

  byIdentifier('retailers', 'retailer', Retailer, getRetailer);
};
