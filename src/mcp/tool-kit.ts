import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  AiProduct,
  Offer,
  Product,
  ProductListItem,
  SchemaOrgProduct,
  SearchHit,
  SemanticHit,
  ShelfClient,
} from '@shelf/client';
import { z } from 'zod';
import { type Quota, quotaFrom } from './rest-client.js';
import { InvalidArgument, ToolFailure, toolError } from './tool-errors.js';

/** Shared pieces of Shelf's tools: output schemas, compact renderings, the call wrapper. */

export const QuotaOut = z
  .object({
    minute_remaining: z.number().nullable(),
    month_remaining: z.number().nullable(),
  })
  .describe("the caller's remaining requests this minute and this month (null when unlimited or unknown)");

/** The short offer key set used in every MCP result (DESIGN: retailer, price, in_stock, url). */
export const OfferOut = z.object({
  retailer: z.string(),
  price: z.number().nullable(),
  in_stock: z.boolean(),
  url: z.string().nullable(),
});
export type OfferOut = z.infer<typeof OfferOut>;

export const ProductRef = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  product_type: z.string().nullable(),
  model_number: z.string().nullable(),
  best_price: z.number().nullable(),
});
export type ProductRef = z.infer<typeof ProductRef>;

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ProductId = z
  .string()
  .regex(UUID_RE, 'must be a product id (UUID) as returned by search_products')
  .describe('Shelf product id (UUID) from search_products or lookup_product');

/** A brand or product type as the user names it: its name or its slug (up to 80 characters). */
export const NameOrSlug = (min = 1) => z.string().trim().min(min).max(80);

export const money = (n: number | null | undefined): string =>
  n === null || n === undefined ? 'n/a' : `$${n.toFixed(2)}`;

export { round2 } from '../util/index.js';

/** An answer's rate-limit headers, as the client exposes them on every response. */
type Answer = Parameters<typeof quotaFrom>[0];

export const quotaOf = (r: Answer) => {
  const q = quotaFrom(r);
  return { minute_remaining: q.minuteRemaining, month_remaining: q.monthRemaining };
};

/** The lower of two quotas: a tool that made two calls reports what is left after both. */
export function lastQuota(...results: Answer[]) {
  const pick = (k: keyof Quota) => {
    const values = results.map((r) => quotaFrom(r)[k]).filter((v): v is number => v !== null);
    return values.length ? Math.min(...values) : null;
  };
  return { minute_remaining: pick('minuteRemaining'), month_remaining: pick('monthRemaining') };
}

export const quotaLine = (q: z.infer<typeof QuotaOut>): string =>
  q.minute_remaining === null && q.month_remaining === null
    ? ''
    : `quota left: ${q.minute_remaining ?? '∞'}/min, ${q.month_remaining ?? '∞'}/month`;

/**
 * A product answer in the default json shape. The tools never ask for format=ai or
 * format=schemaorg, which the generated types also allow for these endpoints.
 */
export const jsonProduct = (data: Product | AiProduct | SchemaOrgProduct): Product => data as Product;
/** A list or search page in the default json shape (see jsonProduct). */
export const jsonList = <T>(data: T[] | AiProduct[] | SchemaOrgProduct[]): T[] => data as T[];

export function productRef(p: Product | ProductListItem | SearchHit | SemanticHit): ProductRef {
  return {
    id: p.id,
    name: p.name,
    brand: p.brand?.name ?? null,
    product_type: p.product_type?.name ?? null,
    model_number: p.model_number,
    best_price: p.current_best_price,
  };
}

/** In-stock first, then cheapest; offers without a price last. */
export function sortOffers<T extends { price: number | null; in_stock: boolean }>(offers: T[]): T[] {
  return [...offers].sort(
    (a, b) =>
      Number(b.in_stock) - Number(a.in_stock) ||
      (a.price ?? Number.POSITIVE_INFINITY) - (b.price ?? Number.POSITIVE_INFINITY),
  );
}

export const shortOffer = (o: Offer): OfferOut => ({
  retailer: o.retailer_name,
  price: o.price,
  in_stock: o.in_stock,
  url: o.retailer_url,
});

export const offerLine = (o: OfferOut): string =>
  `${o.retailer} ${money(o.price)}${o.in_stock ? '' : ' (out of stock)'}`;

/** One line per product: the ai-format style, id last so the model can call the next tool. */
export const productLine = (p: ProductRef, i: number): string =>
  `${i + 1}. ${p.name}${p.brand && !p.name.includes(p.brand) ? ` (${p.brand})` : ''} — ${money(p.best_price)} · id ${p.id}`;

/** The product type slug an agent means by "Dishwasher", "robot vacuum" or "robot-vacuum". */
export const typeSlug = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Keeps long free text short: whole sentences up to `max` characters. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = cut.lastIndexOf('. ');
  return end > max / 2 ? cut.slice(0, end + 1) : `${cut.replace(/\s+\S*$/, '')}…`;
}

export const ok = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/**
 * A tool's answer: its non-empty lines, then the quota line, as text; the structured result
 * (which carries the same quota) beside it.
 */
export const answer = (
  lines: readonly string[],
  structured: { quota: z.infer<typeof QuotaOut> } & Record<string, unknown>,
): CallToolResult => ok([...lines, quotaLine(structured.quota)].filter(Boolean).join('\n'), structured);

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

type Shape = z.ZodRawShape;

/** Registers one read-only tool whose failures all become tool errors an agent can act on. */
export function defineTool<I extends Shape, O extends Shape>(
  server: McpServer,
  name: string,
  config: { title: string; description: string; input: I; output: O },
  run: (args: z.infer<z.ZodObject<I>>) => Promise<CallToolResult>,
): void {
  server.registerTool(
    name,
    {
      title: config.title,
      description: config.description,
      inputSchema: config.input,
      outputSchema: config.output,
      annotations: { title: config.title, ...READ_ONLY },
    },
    // The SDK's overloads infer the argument type from the shape; one cast keeps this wrapper generic.
    (async (args: z.infer<z.ZodObject<I>>) => {
      try {
        return await run(args);
      } catch (error) {
        return toolError(error);
      }
    }) as never,
  );
}

export type ToolContext = { server: McpServer; client: ShelfClient };
export { InvalidArgument, ToolFailure };
