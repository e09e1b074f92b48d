import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AiProduct, SchemaOrgProduct } from '../../schemas/index.js';
import { namedComponents } from '../schemas/components.js';
import { API_VERSION } from './envelope.js';

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at `/v2/openapi.json`, and an
 * interactive reference at `/docs` (assets served locally, no CDN). Both are public.
 */
export const swaggerPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Shelf product data API',
          version: API_VERSION,
          description:
            'Read-only product data for developers and AI agents: products with specifications, cross-retailer offers and price history, brands, categories, product types, variant groups, relationships and a knowledge layer. Every /v2 endpoint needs an API key. Decisions and error codes: docs/api.md.',
          license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
        },
        servers: [{ url: '/', description: 'this server' }],
        tags: [
          { name: 'products', description: 'Products, search, lookups and prices' },
          { name: 'product groups', description: 'Variant families' },
          { name: 'categories', description: 'The category tree' },
          { name: 'product types', description: 'Product types and their attribute schemas' },
          {
            name: 'knowledge',
            description: 'Maintenance, error codes, buying guides and more (Starter plan or above)',
          },
          { name: 'brands', description: 'Brands and brand profiles' },
          { name: 'retailers', description: 'Retailers and retailer profiles' },
          { name: 'search', description: 'Advanced and semantic search' },
          {
            name: 'changes',
            description: 'The change feed and the bulk export: keeping a local copy in sync',
          },
          { name: 'meta', description: 'Health and this document' },
        ],
        components: {
          securitySchemes: {
            apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
            bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <key>' },
          },
          schemas: {
            AiProduct: AiProduct as unknown as Record<string, unknown>,
            SchemaOrgProduct: SchemaOrgProduct as unknown as Record<string, unknown>,
          },
        },
        security: [{ apiKey: [] }, { bearer: [] }],
      },
      // each shared schema once, under components.schemas, referenced where it is used
      transformObject: (document) =>
        'openapiObject' in document ? namedComponents(document.openapiObject) : document.swaggerObject,
      transform: ({ schema, url, route }) => {
        // every operation gets an id and public routes drop the key requirement
        const s = { ...(schema ?? {}) } as Record<string, unknown>;
        const method = String(route.method).toLowerCase();
        s.operationId ??= `${method}${url
          .replace(/^\/v2/, '')
          .split('/')
          .filter(Boolean)
          .map((part) => (part.startsWith(':') ? `By${cap(part.slice(1))}` : cap(part)))
          .join('')}`;
        if (route.config && (route.config as { public?: boolean }).public) s.security = [];
        const query = s.querystring as
          | { properties?: Record<string, { default?: unknown }>; required?: string[] }
          | undefined;
        // a parameter with a default (limit, days…) may be left out: validation fills it in, so
        // the document must not call it required (typed clients would otherwise demand it)
        if (query?.properties && query.required)
          s.querystring = {
            ...query,
            required: query.required.filter((k) => query.properties?.[k]?.default === undefined),
          };
        const responses = s.response as Record<string, Record<string, unknown>> | undefined;
        if (query?.properties?.format && responses?.[200])
          s.response = { ...responses, 200: withFormats(responses[200]) };
        return { schema: s as typeof schema, url };
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      // validatorUrl null: the page never calls the online validator, so /docs works offline
      uiConfig: {
        validatorUrl: null,
        docExpansion: 'list',
        deepLinking: true,
        tryItOutEnabled: true,
        persistAuthorization: true,
      },
      staticCSP: true,
      uiHooks: {},
      theme: { title: 'Shelf API reference' },
      transformSpecificationClone: true,
    });
    app.get('/v2/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
      app.swagger(),
    );
  },
  { name: 'shelf-swagger' },
);

/** The json envelope, or the same envelope with data in the ai or schemaorg shape (format=…). */
function withFormats(json: Record<string, unknown>): Record<string, unknown> {
  const props = json.properties as Record<string, Record<string, unknown>>;
  const list = props.data?.type === 'array';
  const variant = (name: string) => {
    const ref = { $ref: `#/components/schemas/${name}` };
    return { ...json, properties: { ...props, data: list ? { type: 'array', items: ref } : ref } };
  };
  return {
    description:
      'json (default), or with format=ai / format=schemaorg the same envelope around the condensed or JSON-LD form',
    anyOf: [json, variant('AiProduct'), variant('SchemaOrgProduct')],
  };
}

const cap = (s: string) =>
  s
    .split(/[-_]/)
    .map((w) => (w ? (w[0] as string).toUpperCase() + w.slice(1) : w))
    .join('');
