import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import {
  type BrandDef,
  BrandFile,
  type CategoryDef,
  CategoryFile,
  type ColorVocabulary,
  ColorVocabularyFile,
  KnowledgeFile,
  type NeedsDef,
  NeedsFile,
  type ProductTypeDef,
  ProductTypeFile,
  type RelatedTypeDef,
  RelatedTypesFile,
  type RetailerDef,
  RetailerFile,
  type SpecRulesDef,
  SpecRulesFile,
} from './schemas.js';

/** The project's own `data/` folder, wherever the code runs from (src or dist). */
export const DEFAULT_CONTENT_DIR = resolve(fileURLToPath(new URL('../../data', import.meta.url)));

export interface Content {
  categories: CategoryDef[];
  productTypes: ProductTypeDef[];
  brands: BrandDef[];
  retailers: RetailerDef[];
  knowledge: KnowledgeFile[];
  /** accessory/consumable product type pairs (`taxonomy/related-types.json`); empty when absent */
  relatedTypes: RelatedTypeDef[];
  /** specs that belong together, per product type (`taxonomy/spec-rules.json`); empty when absent */
  specRules: SpecRulesDef[];
  /** what each product type is for (`needs/<category>.json`); empty when absent */
  needs: NeedsDef[];
}

export class ContentError extends Error {}

function readJson<T>(file: string, schema: TSchema): T {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ContentError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!Value.Check(schema, value)) {
    const first = [...Value.Errors(schema, value)]
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new ContentError(`${file}: ${first.join('; ')}`);
  }
  return value as T;
}

const jsonFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(dir, f))
    : [];

/** Loads and validates every authored data file; missing folders give empty lists. */
export function loadContent(dir: string = DEFAULT_CONTENT_DIR): Content {
  const categoriesFile = join(dir, 'taxonomy', 'categories.json');
  const retailersFile = join(dir, 'retailers.json');
  const relatedFile = join(dir, 'taxonomy', 'related-types.json');
  const rulesFile = join(dir, 'taxonomy', 'spec-rules.json');
  return {
    categories: existsSync(categoriesFile) ? readJson<CategoryDef[]>(categoriesFile, CategoryFile) : [],
    productTypes: jsonFiles(join(dir, 'taxonomy', 'product-types')).flatMap((f) =>
      readJson<ProductTypeDef[]>(f, ProductTypeFile),
    ),
    brands: jsonFiles(join(dir, 'brands')).flatMap((f) => readJson<BrandDef[]>(f, BrandFile)),
    retailers: existsSync(retailersFile) ? readJson<RetailerDef[]>(retailersFile, RetailerFile) : [],
    knowledge: jsonFiles(join(dir, 'knowledge')).map((f) => readJson<KnowledgeFile>(f, KnowledgeFile)),
    relatedTypes: existsSync(relatedFile) ? readJson<RelatedTypeDef[]>(relatedFile, RelatedTypesFile) : [],
    specRules: existsSync(rulesFile) ? readJson<SpecRulesDef[]>(rulesFile, SpecRulesFile) : [],
    needs: jsonFiles(join(dir, 'needs')).flatMap((f) => readJson<NeedsDef[]>(f, NeedsFile)),
  };
}

/** The resolver's color vocabulary (`resolve/colors.json`, data/README.md), validated. */
export function loadColorVocabulary(dir: string = DEFAULT_CONTENT_DIR): ColorVocabulary {
  return readJson<ColorVocabulary>(join(dir, 'resolve', 'colors.json'), ColorVocabularyFile);
}
