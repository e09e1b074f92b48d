export { buildSearchIndex } from './build-index.js';
