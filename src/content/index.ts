export { type Content, ContentError, DEFAULT_CONTENT_DIR, loadContent } from './load.js';
export {
  type BrandDef,
  type CategoryDef,
  KNOWLEDGE_CONTEXTS,
  KNOWLEDGE_TYPES,
  type KnowledgeFile,
  type ProductTypeDef,
  type RelatedTypeDef,
  RelatedTypesFile,
  type RetailerDef,
  type RuleConstraint,
  type SpecDef,
  type SpecRange,
  type SpecRulesDef,
  SpecRulesFile,
} from './schemas.js';
