import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  changesHead,
  changesWithProducts,
  ensureExportFile,
  gzippedExport,
  listChanges,
} from '../../../catalog/index.js';
import { ChangeItem, ErrorEnvelope, ListEnvelope } from '../../../schemas/index.js';
import { AppError } from '../../errors.js';
import { etagMatches } from '../../plugins/cache.js';
import { okPage, okPageSerialized } from '../../plugins/envelope.js';
import { Flag, flag, Limit } from '../../schemas/params.js';
import { errorResponses, requirePlan, sendSerialized } from './shared.js';

const ChangesQuery = Type.Object({
  since: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'where to continue: the nextCursor of an earlier page (or the Shelf-Changes-Cursor header of an export), or `now` for the current end of the feed. Without it the feed starts at the oldest change it keeps.',
    }),
  ),
  limit: Limit(100),
  include_product: Type.Optional(Flag),
});

/** Response header of the export naming the change-feed position it was taken at. */
export const CHANGES_CURSOR_HEADER = 'Shelf-Changes-Cursor';

/** The change feed and the bulk export: how a client keeps a local copy without crawling. */
export const changeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/changes',
    {
      // a client polls the end of the feed: revalidate every time (a 304 when nothing changed)
      config: { cacheControl: 'private, no-cache' },
      schema: {
        tags: ['changes'],
        summary: 'Products added, changed and removed by each publish',
        description:
          "The change feed, oldest first: every publish of the catalog records which products it added, changed (and which aspects: name, price, stock, offers, specs, details) and removed (tombstones with the last id, and merged_into when the product was merged into another). nextCursor is always set: pass it as `since` to get the next page now, or the changes published later. A position older than the last 30 publishes answers 410 CURSOR_EXPIRED: re-sync from the export. include_product=true adds each product's current document (null when it is gone).",
        querystring: ChangesQuery,
        response: { 200: ListEnvelope(ChangeItem), ...errorResponses, 410: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const catalog = app.catalog();
      const db = catalog.db;
      if (changesHead(db) === null)
        throw new AppError(
          'CATALOG_UNAVAILABLE',
          'the served catalog snapshot predates the change feed; the next ingest starts it',
        );
      const { changes, page } = listChanges(db, request.query);
      if (flag(request.query.include_product))
        return sendSerialized(
          reply,
          okPageSerialized(request, changesWithProducts(db, changes, catalog.documents), page),
        );
      return okPage(request, changes, page);
    },
  );

  app.get(
    '/exports/latest.jsonl.gz',
    {
      schema: {
        tags: ['changes'],
        summary: 'Every product of the current catalog, as gzipped JSON lines (Pro and Enterprise)',
        description:
          'One product document per line, the same body as GET /v2/products/{id}, in id order, every data tier. Built once per catalog snapshot and streamed; counted as one request. ETag is the snapshot id; the Shelf-Changes-Cursor header is the change-feed position to follow from.',
        response: {
          200: {
            description: 'gzip of JSON lines',
            content: { 'application/gzip': { schema: Type.String({ format: 'binary' }) } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, typedReply) => {
      // a file stream and a 304 lie outside the typed JSON bodies
      const reply = typedReply as FastifyReply;
      requirePlan(request, 'pro', 'the bulk export');
      const catalog = app.catalog();
      const id = catalog.version.replace(/^catalog-/, '').replace(/\.db$/, '');
      const etag = `"${id}"`;
      const head = changesHead(catalog.db);
      reply.header('ETag', etag).header('Cache-Control', 'private, max-age=3600');
      if (head) reply.header(CHANGES_CURSOR_HEADER, head);
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      reply
        .type('application/gzip')
        .header('Content-Disposition', `attachment; filename="shelf-products-${basename(id)}.jsonl.gz"`);
      let file: { path: string; size: number };
      try {
        file = await ensureExportFile(catalog.db.name);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EACCES' && code !== 'EROFS' && code !== 'EPERM' && code !== 'ENOSPC') throw error;
        // a data folder the server may not write to: gzip on the fly, without a length
        request.log.warn({ err: error }, 'cannot keep the export beside the snapshot; streaming it');
        return reply.send(gzippedExport(catalog.db.name));
      }
      return reply.header('Content-Length', file.size).send(createReadStream(file.path));
    },
  );
};
