import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorEnvelope } from '../../../schemas/index.js';
import {
  advancedSearch,
  type SearchEngine,
  type SearchResult,
  semanticSearch,
} from '../../../search/index.js';
import { invalidParam } from '../../errors.js';
import { meta } from '../../plugins/envelope.js';
import { AdvancedSearchBody, SearchEnvelope, SemanticSearchBody } from '../../schemas/search.js';

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope };

export interface SearchRoutesOptions {
  /** the search engine of the app (buildApp's `search` option) */
  engine: SearchEngine;
}

/** POST /v2/products/search (advanced, faceted) and POST /v2/products/semantic-search. */
export const searchRoutes: FastifyPluginAsyncTypebox<SearchRoutesOptions> = async (app, options) => {
  const { engine } = options;

  const reply = (request: Parameters<typeof meta>[0], result: SearchResult) => {
    if (result.interpretation) request.metaExtras.interpretation = result.interpretation;
    return {
      success: true as const,
      data: result.products,
      facets: result.facets,
      meta: meta(request),
      pagination: result.page,
    };
  };

  app.post(
    '/products/search',
    {
      schema: {
        tags: ['products'],
        summary: 'Advanced search: filters, facets, sorting; keyword, semantic or hybrid',
        body: AdvancedSearchBody,
        response: { 200: SearchEnvelope, ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const price = body.filters?.price;
      if (price?.min !== undefined && price.max !== undefined && price.min > price.max)
        throw invalidParam('filters.price', 'min must not be greater than max');
      if (body.pagination?.cursor !== undefined && body.pagination.offset !== undefined)
        throw invalidParam('pagination', 'give offset or cursor, not both');
      return reply(request, await advancedSearch(app.catalog().db, engine, body));
    },
  );

  app.post(
    '/products/semantic-search',
    {
      schema: {
        tags: ['products'],
        summary: 'Natural-language search, understood into constraints and ranked by meaning',
        body: SemanticSearchBody,
        response: { 200: SearchEnvelope, ...errors },
      },
    },
    async (request) => reply(request, await semanticSearch(app.catalog().db, engine, request.body)),
  );
};
