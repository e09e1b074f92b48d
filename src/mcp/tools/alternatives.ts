import { type ProductListItem, type ProductRelationships, ShelfError } from '@shelf/client';
import { z } from 'zod';
import {
  answer,
  defineTool,
  jsonList,
  jsonProduct,
  lastQuota,
  money,
  ProductId,
  ProductRef,
  productRef,
  QuotaOut,
  round2,
  type ToolContext,
} from '../tool-kit.js';

/** What an alternative is made from: a relationship item (spec §2.11) or a listed product. */
type Related = Pick<
  NonNullable<ProductRelationships['similar']>[number],
  'id' | 'name' | 'current_best_price' | 'brand'
>;

const Alternative = z.object({
  id: z.string(),
  name: z.string(),
  brand: z.string().nullable(),
  best_price: z.number().nullable(),
  vs_product: z.number().nullable().describe('price difference to the original product (negative = cheaper)'),
});

/** find_alternatives: similar products, optionally only cheaper ones or only other brands. */
export function registerAlternativeTools({ server, client }: ToolContext): void {
  defineTool(
    server,
    'find_alternatives',
    {
      title: 'Find alternatives',
      description:
        'Products similar to a given one (same kind, comparable specs), with their best price and the difference to the original. ' +
        'Set cheaper=true for only lower-priced ones, other_brand=true to exclude the same brand. Also names a newer model when one exists. ' +
        'Uses 2 API requests (3 when the similar list is empty and it falls back to the same product type).',
      input: {
        product_id: ProductId,
        cheaper: z.boolean().default(false).describe('only products cheaper than this one'),
        other_brand: z.boolean().default(false).describe('only products of other brands'),
        limit: z.number().int().min(1).max(10).default(5).describe('how many, 1-10 (default 5)'),
      },
      output: {
        product: ProductRef,
        alternatives: z.array(Alternative),
        newer_model: Alternative.nullable(),
        source: z
          .enum(['similar', 'same_type'])
          .describe('similar: curated similarity; same_type: same product type'),
        quota: QuotaOut,
      },
    },
    async ({ product_id, cheaper, other_brand, limit }) => {
      const [productResult, relResult] = await Promise.all([
        client.get('/v2/products/{id}', { params: { path: { id: product_id } } }),
        client
          .get('/v2/products/{id}/relationships', {
            params: { path: { id: product_id }, query: { type: 'all' } },
          })
          .catch((error: unknown) => {
            // An older server without the relationships endpoint still gets an answer.
            if (error instanceof ShelfError && error.code === 'ROUTE_NOT_FOUND') return null;
            throw error;
          }),
      ]);
      const p = jsonProduct(productResult.data);
      const price = p.current_best_price;
      const toAlt = (r: Related) => ({
        id: r.id,
        name: r.name,
        brand: r.brand?.name ?? null,
        best_price: r.current_best_price,
        vs_product:
          r.current_best_price !== null && price !== null ? round2(r.current_best_price - price) : null,
      });
      const keep = (r: { id: string; brand: string | null; best_price: number | null }) =>
        r.id !== p.id &&
        (!cheaper || (r.best_price !== null && price !== null && r.best_price < price)) &&
        (!other_brand || r.brand !== (p.brand?.name ?? null));
      let alternatives = (relResult?.data.similar ?? []).map(toAlt).filter(keep);
      let source: 'similar' | 'same_type' = 'similar';
      const quotas: Parameters<typeof lastQuota> = [productResult, ...(relResult ? [relResult] : [])];
      if (!alternatives.length && p.product_type) {
        const list = await client.get('/v2/products', {
          params: {
            query: {
              product_type_id: p.product_type.id,
              sort: '-quality_score',
              limit: 50,
              // one product per variant group, so that the list is not five colours of one model
              group_variants: 'true',
              ...(cheaper && price !== null ? { max_price: price } : {}),
            },
          },
        });
        quotas.push(list);
        alternatives = jsonList<ProductListItem>(list.data)
          // a colour or size variant of the same model is not an alternative to it
          .filter((q) => !p.product_group_id || q.product_group_id !== p.product_group_id)
          .map((q) =>
            toAlt({ id: q.id, name: q.name, current_best_price: q.current_best_price, brand: q.brand }),
          )
          .filter(keep);
        source = 'same_type';
      }
      alternatives = alternatives.slice(0, limit);
      const successor = relResult?.data.successor ? toAlt(relResult.data.successor) : null;
      const quota = lastQuota(...quotas);
      const diff = (a: z.infer<typeof Alternative>) =>
        a.vs_product === null || a.vs_product === 0
          ? ''
          : ` (${a.vs_product < 0 ? '−' : '+'}${money(Math.abs(a.vs_product))})`;
      const text = [
        `Alternatives to ${p.name} (${money(price)})${cheaper ? ', cheaper' : ''}${other_brand ? ', other brands' : ''}:`,
        ...(alternatives.length
          ? alternatives.map((a, i) => `${i + 1}. ${a.name} — ${money(a.best_price)}${diff(a)} · id ${a.id}`)
          : ['none found with these conditions']),
        successor
          ? `Newer model: ${successor.name} — ${money(successor.best_price)} · id ${successor.id}`
          : '',
      ];
      return answer(text, {
        product: productRef(p),
        alternatives,
        newer_model: successor,
        source,
        quota,
      });
    },
  );
}
