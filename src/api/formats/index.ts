export { keySpecs, toAiProduct } from './ai.js';
export { toSchemaOrgProduct } from './schemaorg.js';
