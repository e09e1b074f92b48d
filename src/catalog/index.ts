export {
  CHANGE_ASPECTS,
  CHANGE_RETENTION_PUBLISHES,
  type ChangeListParams,
  type ChangePage,
  changesHead,
  changesWithProducts,
  ExpiredCursorError,
  listChanges,
} from './change-queries.js';
// the light entry point, whole: worker threads import it alone
export * from './codec.js';
export { type Cursor, decodeCursor, encodeCursor, type PageInfo, pageInfo } from './cursor.js';
export {
  type Db,
  type Migration,
  migrate,
  openReadOnly,
  openWritable,
  perConnection,
  type Statement,
  schemaVersion,
  stmt,
} from './database.js';
export {
  type BrandListParams,
  getBrand,
  getRetailer,
  listBrands,
  listRetailers,
} from './directory-queries.js';
export { DocumentCache, type ProductDocument } from './document-cache.js';
export { DocumentPacker, type Packed } from './document-packer.js';
export { ensureExportFile, exportFilePath, gzippedExport, productDocumentLines } from './export.js';
export { ftsQuery } from './fts.js';
export {
  GROUP_SORTS,
  type GroupListParams,
  type GroupSortField,
  getGroup,
  listGroups,
} from './group-queries.js';
export { type IdTable, idFromIdOrSlug, idTableNoun } from './identifiers.js';
export { editDistance, lookupModel } from './model-lookup.js';
export { nameSortExpr, nameSortKey, writeNameKeys } from './name-keys.js';
export { byOfferOrder, offersFor } from './offer-rows.js';
export {
  type Condition,
  condition,
  containsPattern,
  InvalidCursorError,
  type PageOrder,
  type PageQuery,
  readCursor,
  readPage,
} from './page.js';
export {
  dayNumber,
  encodeSeries,
  fillDaily,
  type Observation as PriceObservation,
  observedDailyBest,
  type PriceSeries,
  packCents,
  priceIntelligence,
  priceSeries,
  priceVerdict,
  retailerPriceLines,
  signalsFor,
  snapshotDay,
  TREND_THRESHOLD,
  toCents,
  trendOf,
} from './price-queries.js';
export {
  barcodeDocument,
  documentEtag,
  productDocument,
  productDocumentParts,
  productIdBySlug,
  serializeBarcodeResult,
  serializeKnowledgeMeta,
  serializeProduct,
  singleBodyParts,
  withKnowledgeMeta,
} from './product-documents.js';
export {
  ATTRIBUTE_ROLES,
  type AttributeRole,
  attributesOf,
  barcodeFromRow,
  barcodeResult,
  productIdByGtin,
  RELATIONSHIP_TYPES,
  type RelationshipType,
  relationshipsOf,
  variantsOf,
} from './product-extras.js';
export {
  attachOffers,
  attachSignals,
  getProduct,
  listProducts,
  PRODUCT_SORTS,
  type ProductListParams,
  type ProductSortField,
  productRowsByRowid,
} from './product-queries.js';
export { named, PRODUCT_SELECT, type ProductRow, storedBreakdown, str, toProduct } from './product-rows.js';
export { type CatalogHandle, CatalogProvider, type CatalogProviderOptions } from './provider.js';
export { productFromRow } from './ref-cache.js';
export {
  CATALOG_SCHEMA_VERSION,
  COMPACT_VERSION,
  catalogMigrations,
  INTEGER_KEYS_VERSION,
  LEAN_VERSION,
  offersByProductIndex,
} from './schema.js';
export {
  catalogDir,
  currentSnapshotPath,
  discardSnapshot,
  KEEP_SNAPSHOTS,
  listSnapshots,
  lockCatalog,
  newSnapshotPath,
  publishSnapshot,
  rollbackSnapshot,
  type SnapshotCounts,
  type SnapshotEntry,
  SnapshotError,
  type SnapshotListing,
  snapshotCounts,
  sweepPartialSnapshots,
  verifySnapshot,
} from './snapshot.js';
export {
  attributeSchema,
  listCategories,
  listProductTypes,
  type ProductTypeListParams,
  productTypeBySlug,
  type SpecDef,
  typeSpecs,
} from './taxonomy-queries.js';
