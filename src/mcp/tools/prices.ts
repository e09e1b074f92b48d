import { z } from 'zod';
import {
  answer,
  defineTool,
  jsonProduct,
  money,
  OfferOut,
  ProductId,
  ProductRef,
  productRef,
  QuotaOut,
  quotaOf,
  round2,
  shortOffer,
  sortOffers,
  type ToolContext,
} from '../tool-kit.js';

/** Most points a history result shows; longer histories keep the lowest price of each period. */
export const HISTORY_POINTS = 24;

/**
 * Evenly sized periods, each represented by its lowest observation, then the latest point:
 * the period low and today's price both survive, whatever the length.
 */
export function downsample(history: { date: string; price: number }[], max = HISTORY_POINTS) {
  if (history.length <= max) return history;
  const body = history.slice(0, -1);
  const last = history[history.length - 1] as { date: string; price: number };
  const out: { date: string; price: number }[] = [];
  const size = body.length / (max - 1);
  for (let i = 0; i < max - 1; i++) {
    const bucket = body.slice(Math.floor(i * size), Math.floor((i + 1) * size));
    if (bucket.length) out.push(bucket.reduce((a, b) => (b.price < a.price ? b : a)));
  }
  out.push(last);
  return out;
}

const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

/** compare_prices (offers side by side) and get_price_history. */
export function registerPriceTools({ server, client }: ToolContext): void {
  defineTool(
    server,
    'compare_prices',
    {
      title: 'Compare prices across retailers',
      description:
        "Every retailer's current offer for one product side by side: in-stock offers first, cheapest first, each with its difference " +
        'to the average price, plus the cheapest in-stock offer and how much it saves against the average. Prices in USD.',
      input: { product_id: ProductId },
      output: {
        product: ProductRef,
        offers: z.array(
          OfferOut.extend({ vs_average: z.number().nullable().describe('price minus average') }),
        ),
        average_price: z.number().nullable(),
        cheapest_in_stock: z
          .object({
            retailer: z.string(),
            price: z.number(),
            url: z.string().nullable(),
            saving_vs_average: z.number(),
            saving_percent: z.number(),
          })
          .nullable(),
        in_stock_count: z.number(),
        quota: QuotaOut,
      },
    },
    async ({ product_id }) => {
      const result = await client.get('/v2/products/{id}', {
        params: { path: { id: product_id }, query: { include_offers: 'true' } },
      });
      const p = jsonProduct(result.data);
      const offers = sortOffers((p.offers ?? []).map(shortOffer));
      const prices = offers.map((o) => o.price).filter((n): n is number => n !== null);
      const average = prices.length ? round2(prices.reduce((a, b) => a + b, 0) / prices.length) : null;
      const rows = offers.map((o) => ({
        ...o,
        vs_average: o.price !== null && average !== null ? round2(o.price - average) : null,
      }));
      const best = offers.find((o) => o.in_stock && o.price !== null);
      const cheapest =
        best && best.price !== null && average !== null
          ? {
              retailer: best.retailer,
              price: best.price,
              url: best.url,
              saving_vs_average: round2(average - best.price),
              saving_percent: pct(average - best.price, average),
            }
          : null;
      const inStock = offers.filter((o) => o.in_stock).length;
      const quota = quotaOf(result);
      const lines = rows.map(
        (o) =>
          `${o.retailer}: ${money(o.price)}${o.in_stock ? '' : ' out of stock'}${o.vs_average !== null && o.vs_average !== 0 ? ` (${o.vs_average > 0 ? '+' : '−'}${money(Math.abs(o.vs_average))} vs avg)` : ''}${o.url ? ` ${o.url}` : ''}`,
      );
      const text = [
        `${p.name}: ${offers.length} offers, ${inStock} in stock, average ${money(average)}`,
        ...lines,
        cheapest
          ? `Cheapest in stock: ${cheapest.retailer} ${money(cheapest.price)}, saves ${money(cheapest.saving_vs_average)} (${cheapest.saving_percent}%) vs average`
          : 'No retailer has it in stock.',
      ];
      return answer(text, {
        product: productRef(p),
        offers: rows,
        average_price: average,
        cheapest_in_stock: cheapest,
        in_stock_count: inStock,
        quota,
      });
    },
  );

  defineTool(
    server,
    'get_price_history',
    {
      title: 'Get price history',
      description:
        'How the best price of one product moved over the last N days (1-365, default 90): lowest and highest ever, 30-day average, ' +
        `trend, and up to ${HISTORY_POINTS} dated points (for long ranges each point is the lowest price of its period). ` +
        'Use it to judge whether the current price is a good deal: `verdict` says it in plain words.',
      input: {
        product_id: ProductId,
        days: z.number().int().min(1).max(365).default(90).describe('how many days back, 1-365 (default 90)'),
      },
      output: {
        product: z.object({ id: z.string(), name: z.string() }),
        current_price: z.number().nullable(),
        retailers: z.array(OfferOut),
        min_ever: z.number().nullable(),
        max_ever: z.number().nullable(),
        avg_30d: z.number().nullable(),
        trend: z.string().nullable(),
        days: z.number(),
        history: z.array(z.object({ date: z.string(), price: z.number() })),
        verdict: z
          .object({
            kind: z.string(),
            text: z.string(),
            near_low: z.boolean(),
            vs_avg_30d_percent: z.number().nullable(),
          })
          .nullable()
          .describe(
            'the API verdict: "lowest price in 90 days", "3 % above its 30-day average"; near_low: within 5% of the low',
          ),
        quota: QuotaOut,
      },
    },
    async ({ product_id, days }) => {
      const result = await client.get('/v2/products/{id}/prices', {
        params: { path: { id: product_id }, query: { days } },
      });
      const d = result.data;
      const history = downsample(d.history);
      const retailers = sortOffers(
        d.current.retailers.map((r) => ({
          retailer: r.retailer,
          price: r.price,
          in_stock: r.in_stock,
          url: r.url,
        })),
      );
      const s = d.summary;
      const quota = quotaOf(result);
      const now = d.current.best_price;
      const verdict = d.verdict;
      const aboveLow =
        now !== null && s.min_ever !== null && now > s.min_ever
          ? `${pct(now - s.min_ever, s.min_ever)}% above the period low`
          : '';
      const text = [
        `${d.product_name}, last ${days} days: now ${money(now)}; low ${money(s.min_ever)}, high ${money(s.max_ever)}, 30-day avg ${money(s.avg_30d)}, trend ${s.trend ?? 'n/a'}`,
        [
          verdict
            ? `verdict: ${verdict.text}${verdict.near_low ? ' (within 5% of the period low)' : ''}`
            : '',
          aboveLow,
        ]
          .filter(Boolean)
          .join('; '),
        history.length
          ? `history: ${history.map((h) => `${h.date} ${money(h.price)}`).join(', ')}`
          : 'no history yet',
      ];
      return answer(text, {
        product: { id: d.product_id, name: d.product_name },
        current_price: now,
        retailers,
        min_ever: s.min_ever,
        max_ever: s.max_ever,
        avg_30d: s.avg_30d,
        trend: s.trend,
        days,
        history,
        verdict: verdict
          ? {
              kind: verdict.kind,
              text: verdict.text,
              near_low: verdict.near_low,
              vs_avg_30d_percent: verdict.vs_avg_30d_percent,
            }
          : null,
        quota,
      });
    },
  );
}
