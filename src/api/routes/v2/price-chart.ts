import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { priceIntelligence, retailerPriceLines, snapshotDay } from '../../../catalog/index.js';
import { priceChartSvg } from '../../../explore/index.js';
import { notFound } from '../../errors.js';
import { UuidParam } from '../../schemas/params.js';
import { errorResponses } from './shared.js';

/** Bounds of the image, px: small enough for a product card, large enough for a wide screen. */
export const CHART_BOUNDS = { width: { min: 240, max: 2000 }, height: { min: 160, max: 1200 } } as const;

/**
 * GET /v2/products/{id}/prices.svg: the price chart as an image (one line per retailer, the
 * best price, low/high/30-day-average marks and the verdict), drawn by the same code as the
 * explorer's chart. Cached and counted like any GET; `<img>` embedding is in docs/api.md.
 */
export const priceChartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/:id/prices.svg',
    {
      schema: {
        tags: ['products'],
        summary: 'Price chart as an SVG image: one line per retailer, best price, low/high/30-day average',
        params: Type.Object({ id: UuidParam }),
        querystring: Type.Object({
          days: Type.Integer({ minimum: 1, maximum: 365, default: 90, description: 'window, 1 to 365 days' }),
          width: Type.Integer({
            minimum: CHART_BOUNDS.width.min,
            maximum: CHART_BOUNDS.width.max,
            default: 720,
            description: `image width, ${CHART_BOUNDS.width.min} to ${CHART_BOUNDS.width.max} px`,
          }),
          height: Type.Integer({
            minimum: CHART_BOUNDS.height.min,
            maximum: CHART_BOUNDS.height.max,
            default: 320,
            description: `image height, ${CHART_BOUNDS.height.min} to ${CHART_BOUNDS.height.max} px`,
          }),
          title: Type.Boolean({
            default: true,
            description: 'draw the product name and the verdict above the chart',
          }),
        }),
        response: {
          200: {
            description: 'the chart, an SVG document',
            content: { 'image/svg+xml': { schema: Type.String() } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const db = app.catalog().db;
      const { days, width, height, title } = request.query;
      const intelligence = priceIntelligence(db, request.params.id, days);
      if (!intelligence) throw notFound('product', request.params.id);
      const svg = priceChartSvg({
        lines: retailerPriceLines(db, request.params.id, days),
        best: intelligence.history,
        days,
        until: snapshotDay(db),
        width,
        height,
        avg30: intelligence.summary.avg_30d,
        verdict: title ? intelligence.verdict.text : null,
        title: title ? intelligence.product_name : undefined,
      });
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );
};
