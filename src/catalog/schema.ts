import type { Migration } from './database.js';
import { sql as catalogV1 } from './migrations/001-catalog.js';
import { sql as readModelsV2 } from './migrations/002-read-models.js';
import { sql as offerReadsV3 } from './migrations/003-offer-reads.js';
import { sql as nameKeysV4 } from './migrations/004-name-keys.js';
import { sql as offerMatchV5 } from './migrations/005-offer-match.js';
import { sql as changesV6 } from './migrations/006-changes.js';
import { sql as compactV7 } from './migrations/007-compact.js';
import { sql as leanV8 } from './migrations/008-lean.js';
import { sql as integerKeysV9 } from './migrations/009-integer-keys.js';

export { COMPACT_VERSION } from './migrations/007-compact.js';
export { LEAN_VERSION } from './migrations/008-lean.js';
export { INTEGER_KEYS_VERSION, offersByProductIndex } from './migrations/009-integer-keys.js';

/** Migrations of the catalog snapshot. */
export const catalogMigrations: readonly Migration[] = [
  { version: 1, sql: catalogV1 },
  { version: 2, sql: readModelsV2 },
  { version: 3, sql: offerReadsV3 },
  { version: 4, sql: nameKeysV4 },
  { version: 5, sql: offerMatchV5 },
  { version: 6, sql: changesV6 },
  { version: 7, sql: compactV7 },
  { version: 8, sql: leanV8 },
  { version: 9, sql: integerKeysV9 },
];
export const CATALOG_SCHEMA_VERSION = 9;
