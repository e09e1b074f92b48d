import type { SpecDef } from '../../catalog/index.js';
import type { Offer, Product } from '../../schemas/index.js';

const AVAILABILITY: Record<string, string> = {
  in_stock: 'https://schema.org/InStock',
  out_of_stock: 'https://schema.org/OutOfStock',
  preorder: 'https://schema.org/PreOrder',
  backorder: 'https://schema.org/BackOrder',
};

function schemaOffer(o: Offer) {
  return {
    '@type': 'Offer',
    ...(o.price !== null ? { price: o.price } : {}),
    priceCurrency: o.currency,
    availability:
      AVAILABILITY[o.availability] ?? (o.in_stock ? AVAILABILITY.in_stock : AVAILABILITY.out_of_stock),
    ...(o.retailer_url ? { url: o.retailer_url } : {}),
    itemCondition: 'https://schema.org/NewCondition',
    seller: { '@type': 'Organization', name: o.retailer_name },
  };
}

function propertyValue(v: unknown): string | number | boolean {
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return String(v);
}

/**
 * A schema.org Product in JSON-LD (format=schemaorg): Brand, gtin, mpn, model, image,
 * specs as PropertyValue, and one Offer or an AggregateOffer over the retailers' offers.
 */
export function toSchemaOrgProduct(product: Product, specs: readonly SpecDef[]): Record<string, unknown> {
  const labels = new Map(specs.map((s) => [s.key, s] as const));
  const properties = Object.entries({ ...product.specifications, ...product.variant_attributes }).map(
    ([k, v]) => ({
      '@type': 'PropertyValue',
      propertyID: k,
      name: labels.get(k)?.label ?? k,
      value: propertyValue(v),
      ...(labels.get(k)?.unit ? { unitText: labels.get(k)?.unit } : {}),
    }),
  );
  const offers = (product.offers ?? []).filter((o) => o.price !== null);
  let offer: Record<string, unknown> | undefined;
  if (offers.length === 1) offer = schemaOffer(offers[0] as Offer);
  else if (offers.length > 1) {
    const prices = offers.map((o) => o.price as number);
    offer = {
      '@type': 'AggregateOffer',
      lowPrice: Math.min(...prices),
      highPrice: Math.max(...prices),
      priceCurrency: offers[0]?.currency ?? 'USD',
      offerCount: offers.length,
      offers: offers.map(schemaOffer),
    };
  } else if (product.current_best_price !== null) {
    offer = {
      '@type': 'AggregateOffer',
      lowPrice: product.min_price ?? product.current_best_price,
      highPrice: product.max_price ?? product.current_best_price,
      priceCurrency: 'USD',
    };
  }
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': `urn:uuid:${product.id}`,
    productID: product.id,
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    ...(product.gtin ? { gtin: product.gtin } : {}),
    ...(product.mpn ? { mpn: product.mpn, sku: product.mpn } : {}),
    ...(product.model_number ? { model: product.model_number } : {}),
    ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand.name } } : {}),
    ...(product.category ? { category: product.product_type?.path ?? product.category.path } : {}),
    ...(product.image_url ? { image: [product.image_url] } : {}),
    ...(product.product_group
      ? {
          isVariantOf: {
            '@type': 'ProductGroup',
            name: product.product_group.name,
            productGroupID: product.product_group.id,
          },
        }
      : {}),
    additionalProperty: properties,
    ...(offer ? { offers: offer } : {}),
  };
}
