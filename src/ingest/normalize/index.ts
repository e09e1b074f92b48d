export { type GtinResult, gs1CheckDigit, gtinForms, parseGtin } from '../../identifiers/index.js';
export { type PriceResult, parsePrice } from './price.js';
export { aliasKey, cleanText, slugify } from './text.js';
export { stableUuid } from './uuid.js';
