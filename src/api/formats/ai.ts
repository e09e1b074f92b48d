import type { SpecDef } from '../../catalog/index.js';
import type { AiProduct, Product, ProductKnowledge } from '../../schemas/index.js';

/** Most headline specs a condensed product lists. */
const MAX_SPECS = 6;
/** Longest text of one knowledge line, in characters. */
const MAX_KNOWLEDGE_TEXT = 110;

const money = (n: number) => `$${n.toFixed(2)}`;
const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

function specText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

/** The product's headline specs by label; the first specs when its type marks none as headline. */
export function keySpecs(product: Product, specs: readonly SpecDef[]): Record<string, string> {
  const out: Record<string, string> = {};
  const values = product.specifications;
  const headline = specs.filter((s) => s.headline && values[s.key] !== undefined);
  const chosen = headline.length
    ? headline.map((s) => [s.label ?? s.key, values[s.key]] as const)
    : Object.entries(values).map(([k, v]) => [specs.find((s) => s.key === k)?.label ?? k, v] as const);
  for (const [label, value] of chosen.slice(0, MAX_SPECS)) out[label.toLowerCase()] = specText(value);
  for (const [k, v] of Object.entries(product.variant_attributes))
    if (Object.keys(out).length < MAX_SPECS + 1) out[k] = specText(v);
  return out;
}

function priceRange(product: Product): string {
  const prices = (product.offers ?? []).map((o) => o.price).filter((p): p is number => p !== null);
  const low = prices.length ? Math.min(...prices) : product.min_price;
  const high = prices.length ? Math.max(...prices) : product.max_price;
  if (low === null || high === null) return 'no current offers';
  const n = prices.length || (product.offers ? 0 : 1);
  const range = low === high ? money(low) : `${money(low)}–${money(high)}`;
  return n > 1 ? `${range} at ${n} retailers` : range;
}

function knowledgeLines(k: ProductKnowledge | undefined): Record<string, string> {
  if (!k) return {};
  const out: Record<string, string> = {};
  const life = k.lifespan[0]?.data as
    | { years_low?: number; years_typical?: number; years_high?: number }
    | undefined;
  if (life?.years_typical !== undefined)
    out.lifespan = `${life.years_typical} years typical${life.years_low !== undefined && life.years_high !== undefined ? ` (${life.years_low}–${life.years_high})` : ''}`;
  const maintenance = k.maintenance
    .slice(0, 2)
    .map((m) => {
      const months = (m.data as { interval_months?: number }).interval_months;
      return months ? `${m.title} every ${months === 1 ? 'month' : `${months} months`}` : m.title;
    })
    .join('; ');
  if (maintenance) out.maintenance = clip(maintenance, MAX_KNOWLEDGE_TEXT);
  const cost = k.cost_of_ownership[0]?.data as
    | { annual_energy_cost?: number; annual_maintenance_cost?: number }
    | undefined;
  if (cost?.annual_energy_cost !== undefined || cost?.annual_maintenance_cost !== undefined) {
    const parts = [];
    if (cost.annual_energy_cost) parts.push(`energy ~$${cost.annual_energy_cost}/yr`);
    if (cost.annual_maintenance_cost) parts.push(`upkeep ~$${cost.annual_maintenance_cost}/yr`);
    if (parts.length) out.cost_of_ownership = parts.join(', ');
  }
  const guide = k.buying_guide[0];
  if (guide) {
    const first = (guide.data as { considerations?: { factor?: string; advice?: string }[] })
      .considerations?.[0];
    out.buying_tip = clip(
      first?.advice ? `${first.factor ? `${first.factor}: ` : ''}${first.advice}` : guide.title,
      MAX_KNOWLEDGE_TEXT,
    );
  }
  return out;
}

/**
 * The condensed form of spec §2.17 (format=ai): a sentence, a price range, retailer names,
 * headline specs and one line per kind of knowledge (when the plan includes knowledge).
 */
export function toAiProduct(
  product: Product,
  specs: readonly SpecDef[],
  knowledge?: ProductKnowledge,
): AiProduct {
  const kind = (product.product_type?.name ?? 'product').toLowerCase();
  const where = product.category ? ` (${product.category.name})` : '';
  const by = product.brand ? ` by ${product.brand.name}` : '';
  const key = keySpecs(product, specs);
  const headline = Object.entries(key)
    .slice(0, 3)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return {
    id: product.id,
    summary: `${product.name}: ${kind}${where}${by}${headline ? `; ${headline}` : ''}.`,
    price_range: priceRange(product),
    retailers: [...new Set((product.offers ?? []).map((o) => o.retailer_name))],
    key_specs: key,
    knowledge: knowledgeLines(knowledge),
  };
}
