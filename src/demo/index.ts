export { type DemoOptions, type DemoResult, generateDemo } from './generate.js';
export { Random } from './random.js';
