import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { describeAllowed } from './schemas/index.js';

/**
 * Every setting Shelf reads from the environment, with defaults and help text.
 * This module is the only reader of `process.env` (a lint rule enforces it).
 */
const ConfigSchema = Type.Object({
  PORT: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 3000,
    description: 'HTTP port of the REST API and MCP endpoints',
  }),
  HOST: Type.String({ default: '127.0.0.1', description: 'interface to listen on (0.0.0.0 for all)' }),
  SHELF_DATA_DIR: Type.String({
    default: '.shelf',
    description: 'folder of the catalog snapshots, the key/usage store and demo files',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: 'pino log level' },
  ),
  REDIS_URL: Type.Optional(
    Type.String({ description: 'Redis URL for shared rate-limit and quota counters across replicas' }),
  ),
  SHELF_CACHE_MAX_ENTRIES: Type.Integer({
    minimum: 0,
    default: 50_000,
    description: 'most responses kept in the response cache (0 turns it off)',
  }),
  SHELF_CACHE_MAX_MB: Type.Number({
    minimum: 1,
    default: 48,
    description: 'most megabytes of response bodies kept in the response cache',
  }),
  SHELF_CACHE_MAX_AGE: Type.Integer({
    minimum: 0,
    default: 3600,
    description: 'Cache-Control max-age of successful GET responses, seconds',
  }),
  SHELF_DOCUMENT_CACHE_MB: Type.Number({
    minimum: 0,
    default: 32,
    description:
      'most megabytes of product documents kept in memory per catalog snapshot (0: read each from the snapshot)',
  }),
  SHELF_AUTH_FAILURES_PER_MINUTE: Type.Integer({
    minimum: 1,
    default: 20,
    description: 'missing or invalid keys one client address may send per minute before 429',
  }),
  SHELF_RATE_WINDOW_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description:
      "length of the plans' rolling per-minute window, ms; leave it at 60000 (tests shorten it, the code path is the same)",
  }),
  SHELF_MCP_IDLE_S: Type.Integer({
    minimum: 1,
    default: 300,
    description: 'remote MCP sessions (/mcp, /sse) without a message this long are closed, seconds',
  }),
  SHELF_API_URL: Type.String({
    default: 'http://127.0.0.1:3000',
    description: 'REST base URL used by the MCP server',
  }),
  SHELF_API_KEY: Type.Optional(
    Type.String({ description: 'API key used by the stdio MCP server (SERVICE_API_KEY is accepted too)' }),
  ),
  SHELF_EMBEDDINGS_URL: Type.Optional(
    Type.String({
      description:
        'base URL of an OpenAI-compatible embeddings API (OpenAI, Ollama, vLLM, TEI); unset = built-in embeddings',
    }),
  ),
  SHELF_EMBEDDINGS_MODEL: Type.String({
    default: 'text-embedding-3-small',
    description: 'embedding model name sent to SHELF_EMBEDDINGS_URL',
  }),
  SHELF_EMBEDDINGS_API_KEY: Type.Optional(
    Type.String({ description: 'bearer key for SHELF_EMBEDDINGS_URL (not needed for local servers)' }),
  ),
  NODE_ENV: Type.String({ default: 'development' }),
});

export type Config = Static<typeof ConfigSchema> & {
  /** absolute path of SHELF_DATA_DIR */
  dataDir: string;
};

/** Documented settings, in the order the README's table lists them. */
export const configHelp = Object.entries(ConfigSchema.properties).map(([name, schema]) => ({
  name,
  default: (schema as { default?: unknown }).default,
  description: (schema as { description?: string }).description ?? '',
}));

/**
 * Loads `.env` of the working directory into `env` (default `process.env`) when there is one,
 * with Node's own parser; variables already set win, as with `node --env-file`.
 */
export function loadDotEnv(path = '.env', env: NodeJS.ProcessEnv = process.env): boolean {
  if (!existsSync(path)) return false;
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, 'utf8'))))
    if (env[name] === undefined) env[name] = value;
  return true;
}

/**
 * Reads and validates the environment once; throws a readable error on bad values. Reading
 * the process environment (the default) loads `.env` first.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (env === process.env) loadDotEnv();
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  if (raw.SHELF_API_KEY === undefined && env.SERVICE_API_KEY) raw.SHELF_API_KEY = env.SERVICE_API_KEY;
  const withDefaults = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, raw));
  if (!Value.Check(ConfigSchema, withDefaults)) {
    // one line per setting (a union's branches each report), saying what it allows
    const names = new Set([...Value.Errors(ConfigSchema, withDefaults)].map((e) => e.instancePath.slice(1)));
    const properties = ConfigSchema.properties as Record<string, unknown>;
    const problems = [...names].map(
      (name) =>
        `${name || 'configuration'} must be ${describeAllowed(properties[name])} (got ${JSON.stringify(raw[name] ?? null)})`,
    );
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const config = withDefaults as Static<typeof ConfigSchema>;
  return { ...config, dataDir: resolve(config.SHELF_DATA_DIR) };
}

/** True when stdout is an interactive terminal (progress bars, pretty logs). */
export const isTTY = (): boolean => Boolean(process.stdout.isTTY) && !process.env.CI;
