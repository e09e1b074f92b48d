import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../../catalog/index.js';
import { ErrorEnvelope, type FieldTree, project } from '../../../schemas/index.js';
import {
  advancedSearch,
  type SearchEngine,
  type SearchResult,
  semanticSearch,
} from '../../../search/index.js';
import { invalidParam } from '../../errors.js';
import { meta } from '../../plugins/envelope.js';
import { AdvancedSearchBody, SearchEnvelope, SemanticSearchBody } from '../../schemas/search.js';
import { selectionCheck } from './fields.js';
import { checkedTogether, checkRequest, type Format, formatProducts } from './shared.js';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope };

export interface SearchRoutesOptions {
  /** the search engine of the app (buildApp's `search` option) */
  engine: SearchEngine;
}

/** POST /v2/products/search (advanced, faceted) and POST /v2/products/semantic-search. */
export const searchRoutes: FastifyPluginAsyncTypebox<SearchRoutesOptions> = async (app, options) => {
  const { engine } = options;

  const reply = (
    request: Parameters<typeof meta>[0],
    raw: FastifyReply,
    result: SearchResult,
    format: Format | undefined,
    selection: FieldTree | undefined,
  ) => {
    if (result.interpretation) request.metaExtras.interpretation = result.interpretation;
    // formatted items and partial products (fields) are not the Product schema: sent as
    // serialized JSON past the route's serializer, like GET /v2/products
    const data =
      format && format !== 'json'
        ? formatProducts(app.catalog().db, request, result.products, format)
        : selection
          ? project(result.products, selection)
          : undefined;
    if (data !== undefined) {
      const body = {
        success: true,
        data,
        facets: result.facets,
        meta: meta(request),
        pagination: result.page,
      };
      return raw.type('application/json; charset=utf-8').send(JSON.stringify(body));
    }
    return {
      success: true as const,
      data: result.products,
      facets: result.facets,
      meta: meta(request),
      pagination: result.page,
    };
  };

  /** Runs `search` on the body and answers in the format and with the fields it asks for. */
  const answer = async <B extends { fields?: string; format?: Format; include_offers?: boolean }>(
    request: Parameters<typeof meta>[0],
    raw: FastifyReply,
    body: B,
    selection: FieldTree | undefined,
    search: (db: Db, engine: SearchEngine, body: B) => SearchResult | Promise<SearchResult>,
  ) => {
    const db = app.catalog().db;
    // naming offers in fields asks for them, as on GET /v2/products
    const asked = selection?.offers ? { ...body, include_offers: true } : body;
    return reply(request, raw, await search(db, engine, asked), body.format, selection);
  };

  app.post(
    '/products/search',
    checkedTogether({
      tags: ['products'],
      summary: 'Advanced search: filters, facets, sorting; keyword, semantic or hybrid',
      body: AdvancedSearchBody,
      response: { 200: SearchEnvelope, ...errors },
    }),
    async (request, res) => {
      const body = request.body;
      const db = app.catalog().db;
      const [, , selection] = checkRequest(
        request,
        {
          reads: ['filters.price'],
          check: () => {
            const price = body.filters?.price;
            if (price?.min !== undefined && price.max !== undefined && price.min > price.max)
              throw invalidParam('filters.price', 'min must not be greater than max');
          },
        },
        {
          reads: ['pagination'],
          check: () => {
            if (body.pagination?.cursor !== undefined && body.pagination.offset !== undefined)
              throw invalidParam('pagination', 'give offset or cursor, not both');
          },
        },
        selectionCheck(db, body),
      );
      return answer(request, res, body, selection, advancedSearch);
    },
  );

  app.post(
    '/products/semantic-search',
    checkedTogether({
      tags: ['products'],
      summary: 'Natural-language search, understood into constraints and ranked by meaning',
      body: SemanticSearchBody,
      response: { 200: SearchEnvelope, ...errors },
    }),
    async (request, res) => {
      const [selection] = checkRequest(request, selectionCheck(app.catalog().db, request.body));
      return answer(request, res, request.body, selection, semanticSearch);
    },
  );
};
