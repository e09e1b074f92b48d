import type { FastifyReply, FastifyRequest } from 'fastify';
import { PLANS, type PlanId, planAtLeast } from '../../../access/index.js';
import type { PageInfo } from '../../../catalog/index.js';
import {
  attachOffers,
  type Db,
  type IdTable,
  idFromIdOrSlug,
  idTableNoun,
  typeSpecs,
} from '../../../catalog/index.js';
import { productKnowledge } from '../../../knowledge/index.js';
import type { Product } from '../../../schemas/index.js';
import { ErrorEnvelope, StringEnum } from '../../../schemas/index.js';
import { AppError, checkAll, type FieldProblem, notFound, validationError } from '../../errors.js';
import { toAiProduct, toSchemaOrgProduct } from '../../formats/index.js';
import { meta } from '../../plugins/envelope.js';
import { toAppError } from '../../plugins/errors.js';

/** Error responses every authenticated route can give. */
export const errorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  429: ErrorEnvelope,
  503: ErrorEnvelope,
};

export const FORMATS = ['json', 'schemaorg', 'ai'] as const;
export type Format = (typeof FORMATS)[number];
export const FormatParam = StringEnum(FORMATS, {
  default: 'json',
  description:
    'json (full Product), schemaorg (schema.org Product JSON-LD, components.schemas.SchemaOrgProduct) or ai (condensed, components.schemas.AiProduct)',
});

/** 403 PLAN_REQUIRED unless the calling key's plan is `plan` or above. */
export function requirePlan(request: FastifyRequest, plan: PlanId, feature: string): void {
  const current = request.apiKey?.plan as PlanId | undefined;
  if (current && planAtLeast(current, plan)) return;
  throw new AppError(
    'PLAN_REQUIRED',
    `${feature} requires the ${PLANS[plan].name} plan or above (this key is on ${current ? PLANS[current].name : 'no plan'})`,
    { requiredPlan: plan, currentPlan: current ?? null },
  );
}

/** True when the calling key's plan includes knowledge (Starter and above). */
export const hasKnowledgePlan = (request: FastifyRequest): boolean => {
  const plan = request.apiKey?.plan as PlanId | undefined;
  return plan !== undefined && planAtLeast(plan, 'starter');
};

/** Turns products into the representation of `format` (offers are loaded for ai and schemaorg). */
export function formatProducts(
  db: Db,
  request: FastifyRequest,
  products: Product[],
  format: Exclude<Format, 'json'>,
  options: { knowledge?: boolean } = {},
): unknown[] {
  const missing = products.filter((p) => !p.offers);
  if (missing.length) attachOffers(db, missing);
  const specs = typeSpecs(db);
  return products.map((p) => {
    const defs = (p.product_type && specs.get(p.product_type.id)) || [];
    if (format === 'schemaorg') return toSchemaOrgProduct(p, defs);
    const knowledge = options.knowledge && hasKnowledgePlan(request) ? productKnowledge(db, p) : undefined;
    return toAiProduct(p, defs, knowledge);
  });
}

/** Sends a body that is serialized already (stored documents), past the route's serializer. */
export function sendSerialized(reply: FastifyReply, body: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Sends an envelope whose data is not the route's schema: the ai or schemaorg shape (listed
 * as components in the OpenAPI document) or a field selection (`fields`), whose products lack
 * required fields the route's serializer would refuse. These bypass that serializer.
 */
export function sendFormatted(
  request: FastifyRequest,
  reply: FastifyReply,
  data: unknown,
  pagination?: PageInfo,
): FastifyReply {
  const body = { success: true, data, meta: meta(request), ...(pagination ? { pagination } : {}) };
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/**
 * The query with each id-or-slug filter turned into the id (ids or slugs everywhere an id is
 * taken); an unknown slug is a 404 naming what was not found.
 */
export function withIds<Q extends object>(db: Db, query: Q, fields: Partial<Record<keyof Q, IdTable>>): Q {
  const out = { ...query } as Record<string, unknown>;
  for (const [field, table] of Object.entries(fields) as [string, IdTable][]) {
    const value = out[field];
    if (typeof value !== 'string') continue;
    const id = idFromIdOrSlug(db, table, value);
    if (id === null) throw notFound(idTableNoun(table), value);
    out[field] = id;
  }
  return out as Q;
}

/**
 * Route options of a handler that reports its own checks together with the schema's
 * ({@link checkRequest}, its first call): the handler runs even when the schema refused a field.
 */
export const checkedTogether = <S>(schema: S) => ({ schema, attachValidation: true });

/** A check a handler makes after the route schema's: the request fields it reads, and the check. */
export interface LaterCheck<R> {
  reads: readonly string[];
  check: () => R;
}

const checkOf = <R>(later: LaterCheck<R>): (() => R) => later.check;

/**
 * The handler's own checks (fields names, min ≤ max) together with the route schema's, for
 * a route declared with `attachValidation: true` (the handler then runs even when the schema
 * refused a field): one 400 names every invalid field of both kinds. A check that reads a
 * field the schema refused is skipped: it would judge a value that was never coerced, and
 * the field is named already. With no invalid field, returns what the checks return. Must be
 * the first thing such a handler does.
 */
export function checkRequest<T extends unknown[]>(
  request: FastifyRequest,
  ...checks: { [K in keyof T]: LaterCheck<T[K]> }
): T {
  // the common case, the schema took every field: the checks alone (no closures to make)
  if (!request.validationError) return checkAll(...checks.map(checkOf)) as T;
  const refused = (toAppError(request.validationError).details ?? []) as FieldProblem[];
  const fields = refused.map((p) => p.field);
  // a whole body or query refused (not an object, say) leaves nothing to check
  const whole = fields.some((f) => f === 'body' || f === 'request' || f === 'querystring');
  const isRefused = (read: string) =>
    whole || fields.some((f) => f === read || f.startsWith(`${read}.`) || read.startsWith(`${f}.`));
  let results: T | undefined;
  let later: FieldProblem[] = [];
  try {
    results = checkAll(
      ...checks.map(
        ({ reads, check }) =>
          () =>
            reads.some(isRefused) ? undefined : check(),
      ),
    ) as T;
  } catch (error) {
    if (!refused.length || !(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') throw error;
    later = error.details as FieldProblem[];
  }
  if (refused.length) throw validationError([...refused, ...later]);
  return results as T;
}
