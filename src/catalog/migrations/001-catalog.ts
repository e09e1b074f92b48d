/**
 * The catalog snapshot: every resource of spec §2. Ingest writes a fresh file per run;
 * the API opens it read-only. JSON columns hold free-form objects the API returns as-is.
 */
export const sql = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE categories (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT,
  icon TEXT,
  is_featured INTEGER NOT NULL DEFAULT 0,
  parent_id TEXT REFERENCES categories(id),
  level INTEGER NOT NULL DEFAULT 0,
  path TEXT NOT NULL,
  sort_order INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX categories_parent ON categories(parent_id);

CREATE TABLE product_types (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  subcategory_id TEXT REFERENCES categories(id),
  is_active INTEGER NOT NULL DEFAULT 1,
  level INTEGER NOT NULL DEFAULT 2,
  path TEXT NOT NULL,
  marketplace_category_id TEXT,
  marketplace_category_path TEXT,
  -- identity_dimensions, variant_dimensions, specs, controlled_values, synonyms, price_range, model_patterns
  schema_json TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE brands (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT,
  logo_url TEXT,
  website_url TEXT,
  profile_json TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE brand_aliases (
  alias TEXT PRIMARY KEY,   -- normalized: lower case, alphanumerics only
  brand_id TEXT NOT NULL REFERENCES brands(id)
) WITHOUT ROWID;
CREATE TABLE brand_categories (
  brand_id TEXT NOT NULL REFERENCES brands(id),
  category_id TEXT NOT NULL REFERENCES categories(id),
  PRIMARY KEY (brand_id, category_id)
) WITHOUT ROWID;

CREATE TABLE retailers (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  domain TEXT,
  logo_url TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  profile_json TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE product_groups (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT,
  base_model TEXT,
  series_name TEXT,
  variant_dimensions_json TEXT NOT NULL DEFAULT '[]',
  original_msrp REAL,
  current_market_value REAL,
  product_status TEXT,
  brand_id TEXT REFERENCES brands(id),
  category_id TEXT REFERENCES categories(id),
  product_type_id TEXT REFERENCES product_types(id),
  variant_count INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  description TEXT,
  gtin TEXT,                 -- primary GTIN as the feeds gave it (12/13/8/14 digits)
  mpn TEXT,
  model_number TEXT,
  model_key TEXT,            -- model number upper-cased without separators, for exact lookup
  brand_id TEXT REFERENCES brands(id),
  category_id TEXT REFERENCES categories(id),
  product_type_id TEXT REFERENCES product_types(id),
  product_group_id TEXT REFERENCES product_groups(id),
  image_url TEXT,
  variant_attributes_json TEXT NOT NULL DEFAULT '{}',
  specifications_json TEXT NOT NULL DEFAULT '{}',
  spec_sources_json TEXT NOT NULL DEFAULT '{}',
  data_json TEXT NOT NULL DEFAULT '{}',
  quality_score REAL NOT NULL DEFAULT 0,
  quality_breakdown_json TEXT NOT NULL DEFAULT '{}',
  data_tier INTEGER NOT NULL DEFAULT 2,
  source_type TEXT NOT NULL DEFAULT 'retailer_feed',
  naming_method TEXT,
  naming_confidence REAL,
  category_profile_key TEXT,
  classification_confidence REAL,
  current_best_price REAL,
  min_price REAL,
  max_price REAL,
  avg_price REAL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX products_name ON products(name, id);
CREATE INDEX products_price ON products(current_best_price, id);
CREATE INDEX products_quality ON products(quality_score, id);
CREATE INDEX products_created ON products(created_at, id);
CREATE INDEX products_updated ON products(updated_at, id);
CREATE INDEX products_brand ON products(brand_id);
CREATE INDEX products_type ON products(product_type_id);
CREATE INDEX products_category ON products(category_id);
CREATE INDEX products_group ON products(product_group_id);
CREATE INDEX products_model ON products(model_key);
CREATE INDEX products_tier ON products(data_tier);

-- every GTIN a product is known by, as GTIN-14 (zero-padded), so any form finds it
CREATE TABLE product_gtins (
  gtin14 TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  PRIMARY KEY (gtin14, product_id)
) WITHOUT ROWID;
CREATE INDEX product_gtins_product ON product_gtins(product_id);

-- typed attributes (spec §2.10), also the base of spec filters and facets
CREATE TABLE product_attributes (
  product_id TEXT NOT NULL REFERENCES products(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  numeric_value REAL,
  unit TEXT,
  role TEXT NOT NULL CHECK (role IN ('variant', 'identity', 'spec')),
  PRIMARY KEY (product_id, key, value)
) WITHOUT ROWID;
CREATE INDEX product_attributes_key ON product_attributes(key, numeric_value);

CREATE TABLE offers (
  id TEXT PRIMARY KEY,
  product_id TEXT NOT NULL REFERENCES products(id),
  retailer_id TEXT NOT NULL REFERENCES retailers(id),
  retailer_item_id TEXT NOT NULL,
  title TEXT NOT NULL,
  price REAL,
  original_price REAL,
  currency TEXT NOT NULL DEFAULT 'USD',
  in_stock INTEGER NOT NULL DEFAULT 1,
  availability TEXT NOT NULL DEFAULT 'in_stock',
  retailer_url TEXT,
  image_url TEXT,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  UNIQUE (retailer_id, retailer_item_id)
);
CREATE INDEX offers_product ON offers(product_id);

-- every retailer listing ingest resolved, and the product it became (a retailer that lists one
-- item twice has one offer but two listings); keeps product ids stable across runs
CREATE TABLE retailer_listings (
  retailer_id TEXT NOT NULL REFERENCES retailers(id),
  retailer_item_id TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  offer_id TEXT REFERENCES offers(id),  -- null for a listing its retailer no longer lists
  title TEXT NOT NULL,
  listing_json TEXT NOT NULL,  -- the normalized listing, so a retailer whose next feed fails keeps it
  last_seen_at TEXT NOT NULL,  -- when a feed last had this listing
  -- a rowid table: its rows carry the listing JSON, too big for a WITHOUT ROWID b-tree
  UNIQUE (retailer_id, retailer_item_id)
);
CREATE INDEX retailer_listings_product ON retailer_listings(product_id);

-- one row per offer and day; re-ingesting the same day replaces that day's row
CREATE TABLE price_observations (
  offer_id TEXT NOT NULL,
  day TEXT NOT NULL,          -- YYYY-MM-DD (UTC)
  price REAL NOT NULL,
  original_price REAL,
  in_stock INTEGER NOT NULL,
  PRIMARY KEY (offer_id, day)
) WITHOUT ROWID;

CREATE TABLE relationships (
  product_id TEXT NOT NULL REFERENCES products(id),
  type TEXT NOT NULL CHECK (type IN ('successor', 'predecessor', 'similar', 'series', 'accessory', 'consumable')),
  related_id TEXT NOT NULL REFERENCES products(id),
  score REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, type, related_id)
) WITHOUT ROWID;

CREATE TABLE knowledge_entries (
  id TEXT PRIMARY KEY,
  product_type_id TEXT NOT NULL REFERENCES product_types(id),
  key TEXT NOT NULL,
  type TEXT NOT NULL,
  context TEXT NOT NULL CHECK (context IN ('home', 'office', 'general')),
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  data_json TEXT NOT NULL DEFAULT '{}',
  priority TEXT,
  source TEXT,
  source_url TEXT,
  sort_order INTEGER NOT NULL DEFAULT 0,
  code TEXT,                  -- error_code entries: data.code, upper-cased, for lookup
  canonical_issue TEXT,
  UNIQUE (product_type_id, key)
);
CREATE INDEX knowledge_type ON knowledge_entries(type, product_type_id);

CREATE TABLE knowledge_overrides (
  id TEXT PRIMARY KEY,
  entry_id TEXT REFERENCES knowledge_entries(id),
  product_type_id TEXT NOT NULL REFERENCES product_types(id),
  brand_id TEXT NOT NULL REFERENCES brands(id),
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  data_json TEXT NOT NULL DEFAULT '{}',
  priority TEXT,
  source TEXT,
  source_url TEXT,
  code TEXT,
  canonical_issue TEXT
);
CREATE INDEX knowledge_overrides_entry ON knowledge_overrides(entry_id, brand_id);
CREATE INDEX knowledge_overrides_code ON knowledge_overrides(product_type_id, code);

-- keyword search: one row per product (rowid = products.rowid)
CREATE VIRTUAL TABLE products_fts USING fts5(
  name, brand, product_type, model, specs, description,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
-- words of the indexed text with their document frequency: typo candidates come from here
CREATE TABLE search_vocabulary (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
-- built-in embeddings (src/search/embeddings): one learned vector per (plural-folded) word
CREATE TABLE search_term_vectors (term TEXT PRIMARY KEY, df INTEGER NOT NULL, vector BLOB NOT NULL) WITHOUT ROWID;
-- one float32 vector per product (rowid = products.rowid); searched by exact cosine scan
CREATE TABLE product_vectors (product_rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL);

CREATE TABLE ingest_runs (
  id TEXT PRIMARY KEY,
  day TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  report_json TEXT NOT NULL
);
`;
