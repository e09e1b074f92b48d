export { DEFAULT_DEMO_PRODUCTS, type DemoOptions, type DemoResult, generateDemo } from './generate.js';
export { type PricePoint, priceHistory, saleEvents } from './history.js';
export { type DemoProduct, planProducts } from './plan.js';
export { Random } from './random.js';
export { scoreAgainstTruth, type TruthScores } from './score-truth.js';
