import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  ATTRIBUTE_ROLES,
  attributesOf,
  barcodeDocument,
  barcodeResult,
  type Db,
  lookupModel,
  priceIntelligence,
  productIdByGtin,
  RELATIONSHIP_TYPES,
  relationshipsOf,
  stmt,
} from '../../../catalog/index.js';
import { parseGtin, toGtin14 } from '../../../identifiers/index.js';
import {
  BarcodeResult,
  Envelope,
  ModelLookup,
  PriceIntelligence,
  ProductAttributes,
  Relationships,
  StringEnum,
} from '../../../schemas/index.js';
import { invalidParam, notFound } from '../../errors.js';
import { ok, okSerialized } from '../../plugins/envelope.js';
import { UuidParam } from '../../schemas/params.js';
import { errorResponses, sendSerialized } from './shared.js';

const IdParams = Type.Object({ id: UuidParam });

const productExists = (db: Db, id: string) =>
  stmt(db, 'SELECT 1 FROM products WHERE id = ?').get(id) !== undefined;

/** A barcode result: the one stored at ingest (serialized), else built here. */
function barcodeResultOf(db: Db, id: string, gtin: string): string | BarcodeResult | null {
  return barcodeDocument(db, id, gtin) ?? barcodeResult(db, id, gtin);
}

/** Attributes, relationships, model lookup, barcode lookup and price intelligence (spec §4.4–4.8). */
export const productDetailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/products/:id/attributes',
    {
      schema: {
        tags: ['products'],
        summary: 'Typed attributes of a product',
        params: IdParams,
        querystring: Type.Object({
          role: Type.Optional(StringEnum(ATTRIBUTE_ROLES, { description: 'variant, identity or spec' })),
        }),
        response: { 200: Envelope(ProductAttributes), ...errorResponses },
      },
    },
    async (request) => {
      const db = app.catalog().db;
      if (!productExists(db, request.params.id)) throw notFound('product', request.params.id);
      const attributes = attributesOf(db, request.params.id, request.query.role);
      return ok(request, { productId: request.params.id, attributes, count: attributes.length });
    },
  );

  app.get(
    '/products/:id/relationships',
    {
      schema: {
        tags: ['products'],
        summary: 'Successor, predecessor, similar products, consumables, accessories and series',
        params: IdParams,
        querystring: Type.Object({
          type: StringEnum(RELATIONSHIP_TYPES, {
            default: 'all',
            description: 'successor (also gives predecessor), similar, consumable, accessory, series or all',
          }),
        }),
        response: { 200: Envelope(Relationships), ...errorResponses },
      },
    },
    async (request) => {
      const db = app.catalog().db;
      if (!productExists(db, request.params.id)) throw notFound('product', request.params.id);
      return ok(request, relationshipsOf(db, request.params.id, request.query.type));
    },
  );

  app.get(
    '/products/lookup',
    {
      schema: {
        tags: ['products'],
        summary: 'Find a product by model number, decoding the model number where the scheme is known',
        querystring: Type.Object({
          model: Type.String({
            minLength: 2,
            maxLength: 100,
            description: 'model number, at least 2 characters',
          }),
          brand: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description: 'brand id, slug or name: narrows the lookup',
            }),
          ),
        }),
        response: { 200: Envelope(ModelLookup), ...errorResponses },
      },
    },
    async (request) => {
      const { model, brand } = request.query;
      const result = lookupModel(app.catalog().db, model, brand);
      if (!result) throw notFound('model', brand ? `${brand} ${model}` : model);
      return ok(request, result);
    },
  );

  app.get(
    '/products/barcode/:gtin',
    {
      schema: {
        tags: ['products'],
        summary: 'A product by barcode: GTIN-8, UPC-A (12), EAN-13 or GTIN-14',
        params: Type.Object({
          gtin: Type.String({
            pattern: '^\\d+$',
            minLength: 8,
            maxLength: 14,
            description: '8 to 14 digits',
          }),
        }),
        response: { 200: Envelope(BarcodeResult), ...errorResponses },
      },
    },
    async (request, reply) => {
      const db = app.catalog().db;
      const { gtin } = request.params;
      // a mistyped barcode is the caller's error, not a missing product; leading zeros may be
      // dropped (a GTIN-14 written without them), so the check digit is read from the padded form
      const parsed = parseGtin(toGtin14(gtin));
      if (!parsed.ok) throw invalidParam('gtin', `is not a valid GTIN: ${parsed.reason}`);
      const id = productIdByGtin(db, gtin);
      const result = id === null ? null : barcodeResultOf(db, id, gtin);
      if (result === null) throw notFound('product with GTIN', gtin);
      return typeof result === 'string'
        ? sendSerialized(reply, okSerialized(request, result))
        : ok(request, result);
    },
  );

  app.get(
    '/products/:id/prices',
    {
      schema: {
        tags: ['products'],
        summary: 'Price intelligence: current offers, summary and daily best-price history',
        params: IdParams,
        querystring: Type.Object({
          days: Type.Integer({
            minimum: 1,
            maximum: 365,
            default: 30,
            description: 'history window, 1 to 365 days',
          }),
        }),
        response: { 200: Envelope(PriceIntelligence), ...errorResponses },
      },
    },
    async (request) => {
      const result = priceIntelligence(app.catalog().db, request.params.id, request.query.days);
      if (!result) throw notFound('product', request.params.id);
      return ok(request, result);
    },
  );
};
