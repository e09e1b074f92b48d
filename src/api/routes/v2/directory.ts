import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { getBrand, getRetailer, listBrands, listRetailers } from '../../../catalog/index.js';
import { Brand, Envelope, ErrorEnvelope, ListEnvelope, Meta, Retailer } from '../../../schemas/index.js';
import { notFound } from '../../errors.js';
import { ok, okPage } from '../../plugins/envelope.js';
import { CursorParam, Flag, flag, IdOrSlugParam, Limit, SearchText } from '../../schemas/params.js';
import { withIds } from './shared.js';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope };

/** Brands and retailers. */
export const directoryRoutes: FastifyPluginAsyncTypebox = async (app) => {
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

  app.get(
    '/brands/:identifier',
    {
      schema: {
        tags: ['brands'],
        summary: 'A brand by id or slug',
        params: Type.Object({ identifier: IdOrSlugParam('brand') }),
        response: { 200: Envelope(Brand), ...errors },
      },
    },
    async (request) => {
      const brand = getBrand(app.catalog().db, request.params.identifier);
      if (!brand) throw notFound('brand', request.params.identifier);
      return ok(request, brand);
    },
  );

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

  app.get(
    '/retailers/:identifier',
    {
      schema: {
        tags: ['retailers'],
        summary: 'A retailer by id or slug',
        params: Type.Object({ identifier: IdOrSlugParam('retailer') }),
        response: { 200: Envelope(Retailer), ...errors },
      },
    },
    async (request) => {
      const retailer = getRetailer(app.catalog().db, request.params.identifier);
      if (!retailer) throw notFound('retailer', request.params.identifier);
      return ok(request, retailer);
    },
  );
};
