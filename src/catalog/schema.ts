import type { Migration } from './database.js';
import { sql as catalogV1 } from './migrations/001-catalog.js';

/** Migrations of the catalog snapshot. */
export const catalogMigrations: readonly Migration[] = [{ version: 1, sql: catalogV1 }];
export const CATALOG_SCHEMA_VERSION = 1;
