export { type GtinResult, gs1CheckDigit, gtinForms, parseGtin, toGtin14 } from './gtin.js';
export { looksLikeModelCode, modelKey } from './model-key.js';
