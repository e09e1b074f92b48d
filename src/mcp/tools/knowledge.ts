import type { ProductTypeKnowledge, RequestInit } from '@shelf/client';
import { z } from 'zod';
import { modelKey } from '../../identifiers/index.js';
import {
  answer,
  clip,
  defineTool,
  InvalidArgument,
  jsonProduct,
  lastQuota,
  NameOrSlug,
  ProductId,
  QuotaOut,
  type ToolContext,
  ToolFailure,
  typeSlug,
} from '../tool-kit.js';

/** A knowledge entry (spec §2.16) as GET /v2/product-types/{slug}/knowledge returns it. */
type Entry = ProductTypeKnowledge['knowledge'][number];

export const TOPICS = [
  'maintenance_schedule',
  'lifespan',
  'buying_guide',
  'tip',
  'cost_of_ownership',
  'failure_modes',
  'install_checklist',
] as const;
const DEFAULT_TOPICS = ['maintenance_schedule', 'lifespan', 'buying_guide', 'tip'] as const;
/** Entries shown per topic and characters of prose per entry: the token budget of one answer. */
const PER_TOPIC = 2;
const CONTENT_CHARS = 220;
const ITEM_CHARS = 100;
const ITEMS = 5;

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** The facts of an entry's structured data in one short line (intervals, years, tasks, advice). */
function dataFacts(data: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof data.interval_months === 'number') parts.push(`every ${data.interval_months} mo`);
  if (typeof data.years_typical === 'number')
    parts.push(`${data.years_low ?? '?'}–${data.years_high ?? '?'} years (typically ${data.years_typical})`);
  for (const [key, value] of Object.entries(data)) {
    const list = strings(value);
    if (list.length)
      parts.push(`${key.replace(/_/g, ' ')}: ${list.map((s) => clip(s, ITEM_CHARS)).join('; ')}`);
    else if (Array.isArray(value) && value.every((v) => v && typeof v === 'object' && 'advice' in v))
      parts.push(
        (value as { factor?: string; advice: string }[])
          .slice(0, ITEMS)
          .map((v) => `${v.factor ? `${v.factor}: ` : ''}${clip(v.advice, ITEM_CHARS)}`)
          .join(' | '),
      );
  }
  return parts.join('. ');
}

/**
 * An entry with its brand override applied: the brand's text wins where one exists. Entries
 * themselves are per product type; only their `brand_overrides` belong to a brand.
 */
function withOverride(entry: Entry): Entry & { brand_specific: boolean } {
  const o = entry.brand_overrides?.[0];
  return o
    ? { ...entry, ...o, data: { ...entry.data, ...o.data }, brand_specific: true }
    : { ...entry, brand_specific: false };
}

const EntryOut = z.object({
  type: z.string(),
  title: z.string(),
  content: z.string(),
  facts: z.string().describe('the structured data in one line (intervals, years, tasks, advice)'),
  brand_specific: z.boolean(),
  source: z.string().nullable(),
});

const normCode = modelKey;

type KnowledgeQuery = NonNullable<
  NonNullable<RequestInit<'/v2/product-types/{slug}/knowledge', 'get'>>['params']
>['query'];

async function knowledgeOf(ctx: ToolContext, slug: string, query: KnowledgeQuery) {
  return ctx.client.get('/v2/product-types/{slug}/knowledge', { params: { path: { slug }, query } });
}

/** get_product_knowledge (maintenance, lifespan, buying guide, tips…) and lookup_error_code. */
export function registerKnowledgeTools(ctx: ToolContext): void {
  const { server, client } = ctx;
  defineTool(
    server,
    'get_product_knowledge',
    {
      title: 'Get ownership knowledge',
      description:
        'Practical knowledge for a product or a product type: maintenance schedule, expected lifespan, buying guide and tips ' +
        '(also cost of ownership, failure modes, installation checklist on request), with brand-specific advice where it exists. ' +
        'Give product_id, or product_type (e.g. "dishwasher") with an optional brand. Needs the Starter plan or above.',
      input: {
        product_id: ProductId.optional(),
        product_type: NameOrSlug(2).optional().describe('product type name or slug, e.g. "robot vacuum"'),
        brand: NameOrSlug().optional().describe('brand name or slug for brand-specific advice'),
        topics: z
          .array(z.enum(TOPICS))
          .min(1)
          .max(TOPICS.length)
          .optional()
          .describe('which kinds of knowledge (default: maintenance_schedule, lifespan, buying_guide, tip)'),
        context: z.enum(['home', 'office']).optional().describe('home or office use (default: both)'),
      },
      output: {
        product_type: z.object({ name: z.string(), slug: z.string() }),
        brand: z.string().nullable(),
        entries: z.array(EntryOut),
        quota: QuotaOut,
      },
    },
    async ({ product_id, product_type, brand, topics, context }) => {
      if ((product_id === undefined) === (product_type === undefined))
        throw new InvalidArgument(
          'product_id|product_type',
          'give exactly one of product_id and product_type',
        );
      const calls: Parameters<typeof lastQuota> = [];
      let slug = product_type ? typeSlug(product_type) : '';
      let brandSlug = brand ? typeSlug(brand) : undefined;
      if (product_id) {
        const product = await client.get('/v2/products/{id}', { params: { path: { id: product_id } } });
        calls.push(product);
        const p = jsonProduct(product.data);
        if (!p.product_type)
          throw new InvalidArgument(
            'product_id',
            'this product has no product type, so no knowledge applies',
          );
        slug = p.product_type.slug;
        brandSlug ??= p.brand?.slug;
      }
      const wanted: readonly string[] = topics ?? DEFAULT_TOPICS;
      const result = await knowledgeOf(ctx, slug, {
        type: topics?.length === 1 ? topics[0] : undefined,
        context,
        brand: brandSlug,
      });
      calls.push(result);
      const counts = new Map<string, number>();
      const entries = result.data.knowledge
        .filter((e) => wanted.includes(e.type))
        .sort((a, b) => wanted.indexOf(a.type) - wanted.indexOf(b.type))
        .filter((e) => {
          const n = (counts.get(e.type) ?? 0) + 1;
          counts.set(e.type, n);
          return n <= PER_TOPIC;
        })
        .map(withOverride)
        .map((e) => ({
          type: e.type,
          title: e.title,
          content: clip(e.content, CONTENT_CHARS),
          facts: dataFacts(e.data ?? {}),
          brand_specific: e.brand_specific,
          source: e.source ?? null,
        }));
      const quota = lastQuota(...calls);
      const pt = result.data.product_type;
      const text = [
        `${pt.name}${brandSlug ? ` (${brandSlug})` : ''} — ${entries.length ? wanted.join(', ') : 'no knowledge on these topics'}`,
        ...entries.map(
          (e) =>
            `[${e.type}${e.brand_specific ? ', brand' : ''}] ${e.title}: ${e.content}${e.facts ? ` — ${e.facts}` : ''}`,
        ),
      ];
      return answer(text, {
        product_type: { name: pt.name, slug: pt.slug },
        brand: brandSlug ?? null,
        entries,
        quota,
      });
    },
  );

  defineTool(
    server,
    'lookup_error_code',
    {
      title: 'Look up an error code',
      description:
        'What an appliance or device error code means, its likely causes and the fixes to try, e.g. brand "Bosch", product_type "dishwasher", code "E24". ' +
        'Brand-specific codes come first; a generic issue name such as "drain failure" also works as the code. Needs the Starter plan or above.',
      input: {
        brand: NameOrSlug().describe('brand name or slug, e.g. "Bosch"'),
        product_type: NameOrSlug(2).describe('product type name or slug, e.g. "dishwasher"'),
        code: z
          .string()
          .trim()
          .min(1)
          .max(40)
          .describe('the code as shown on the display, e.g. "E24", "OE", "F21"'),
      },
      output: {
        brand: z.string(),
        product_type: z.string(),
        code: z.string(),
        title: z.string(),
        meaning: z.string(),
        likely_causes: z.array(z.string()),
        fixes: z.array(z.string()),
        severity: z.string().nullable(),
        diy: z.boolean().nullable().describe('whether an owner can usually fix it'),
        brand_specific: z.boolean(),
        canonical_issue: z.string().nullable(),
        source: z.string().nullable(),
        quota: QuotaOut,
      },
    },
    async ({ brand, product_type, code }) => {
      const brandSlug = typeSlug(brand);
      const result = await knowledgeOf(ctx, typeSlug(product_type), { type: 'error_code', brand: brandSlug });
      const wanted = normCode(code);
      // Brand-specific codes (the brand's overrides) before generic ones.
      const candidates: { entry: Entry; brandSpecific: boolean }[] = [];
      for (const e of result.data.knowledge.filter((k) => k.type === 'error_code')) {
        for (const o of e.brand_overrides ?? [])
          candidates.push({ entry: { ...e, ...o }, brandSpecific: true });
        candidates.push({ entry: e, brandSpecific: false });
      }
      candidates.sort((a, b) => Number(b.brandSpecific) - Number(a.brandSpecific));
      const codeOf = (e: Entry) => String(e.data?.code ?? '');
      const hit =
        candidates.find((c) => normCode(codeOf(c.entry)) === wanted) ??
        candidates.find((c) => normCode(String(c.entry.data?.canonical_issue ?? '')) === wanted);
      if (!hit) {
        const known = [...new Set(candidates.map((c) => codeOf(c.entry)).filter(Boolean))];
        throw new ToolFailure(
          'NOT_FOUND',
          `no error code "${code}" is known for ${brand} ${result.data.product_type.name.toLowerCase()}s` +
            (known.length ? `; known codes: ${known.slice(0, 30).join(', ')}` : ''),
          'Check the code as the display shows it against the known codes; if none fits, call get_product_knowledge ' +
            'with topics ["failure_modes"] for this product type, or answer that the code is not in Shelf.',
        );
      }
      const d = hit.entry.data ?? {};
      const quota = lastQuota(result);
      const out = {
        brand: brand,
        product_type: result.data.product_type.name,
        code: codeOf(hit.entry),
        title: hit.entry.title,
        meaning: hit.entry.content,
        likely_causes: strings(d.likely_causes),
        fixes: strings(d.fixes),
        severity: typeof d.severity === 'string' ? d.severity : null,
        diy: typeof d.diy === 'boolean' ? d.diy : null,
        brand_specific: hit.brandSpecific,
        canonical_issue: typeof d.canonical_issue === 'string' ? d.canonical_issue : null,
        source: hit.entry.source ?? null,
        quota,
      };
      const text = [
        `${out.code} (${brand} ${out.product_type}${out.brand_specific ? '' : ', generic'}): ${out.title}. ${out.meaning}`,
        out.likely_causes.length ? `Likely causes: ${out.likely_causes.join('; ')}` : '',
        out.fixes.length ? `Fixes: ${out.fixes.join('; ')}` : '',
        [
          out.severity && `severity ${out.severity}`,
          out.diy === null ? '' : out.diy ? 'DIY possible' : 'call a technician',
        ]
          .filter(Boolean)
          .join(', '),
      ];
      return answer(text, out);
    },
  );
}
