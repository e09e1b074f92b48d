import { COMPONENT_BASES, COMPONENT_NAMES } from '../../schemas/index.js';

type Json = Record<string, unknown>;

/** Keywords whose values are data, not schemas: a `title` inside them names nothing. */
const DATA_KEYWORDS = new Set(['default', 'examples', 'example', 'enum', 'const']);
/** Keywords whose values map names (a property called `default`, say) to schemas. */
const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** One place a named schema stood: its body (nested names already references) and what replaced it. */
interface Occurrence {
  body: Json;
  replacement: Json;
}

const withoutDescription = ({ description: _d, ...rest }: Json): string => JSON.stringify(rest);

/**
 * Makes every shared schema (named by `named()` in src/schemas, which sets its `title`) one
 * entry of `components.schemas`, and every place that embeds it a `$ref` to that entry: the
 * route schemas embed the shared schemas whole, so without this the document repeats a
 * product wherever one is answered, and a generated client gets one anonymous type per
 * repetition. A nullable copy (`Nullable()`, `type: [T, 'null']`) becomes `anyOf` of the
 * reference and null; a copy with its own description keeps it beside the reference. Only
 * the document changes: validation and serialization read the route schemas themselves.
 * Throws when two schemas that differ otherwise carry one name (a programming error the
 * client-types test catches): a reference to either would describe the other wrongly.
 */
export function namedComponents<T>(document: T): T {
  const doc = document as Json & { components?: { schemas?: Json } };
  const seen = new Map<string, Occurrence[]>();

  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json))
      out[key] = DATA_KEYWORDS.has(key)
        ? value
        : NAME_MAPS.has(key) && value !== null && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, walk(v)]))
          : walk(value);
    const name = out.title;
    if (typeof name !== 'string' || !COMPONENT_NAMES.has(name)) return out;
    const types = Array.isArray(out.type) ? (out.type as unknown[]) : null;
    const nullable = types?.includes('null') === true;
    const body = nullable ? { ...out, type: types!.find((t) => t !== 'null') } : out;
    const ref = { $ref: `#/components/schemas/${name}` };
    const replacement: Json = nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
    seen.set(name, [...(seen.get(name) ?? []), { body, replacement }]);
    return replacement;
  };

  const paths = walk(doc.paths);
  const own = walk(doc.components?.schemas ?? {}) as Json;
  const shared: [string, Json][] = [];
  // in name order, so the document and the generated client do not depend on route order
  for (const name of [...seen.keys()].sort()) {
    const occurrences = seen.get(name)!;
    // the component is the schema as declared: a form that is not a nullable copy, if any
    const declared =
      occurrences.find((o) => !('anyOf' in o.replacement) && !('description' in o.body)) ??
      occurrences.find((o) => !('anyOf' in o.replacement)) ??
      occurrences[0]!;
    const component = declared.body;
    for (const { body, replacement } of occurrences) {
      if (withoutDescription(body) !== withoutDescription(component))
        throw new Error(`two different schemas are named ${name}`);
      if (body.description !== component.description) replacement.description = body.description;
    }
    shared.push([name, component]);
  }
  const components = new Map(shared);
  for (const [name, component] of shared) {
    const base = COMPONENT_BASES.get(name);
    if (base) components.set(name, asExtension(name, component, base, components.get(base)));
  }
  const responses = sharedResponses(paths as Record<string, Record<string, Json>>);
  return {
    ...doc,
    paths,
    components: {
      ...doc.components,
      schemas: { ...own, ...Object.fromEntries(components) },
      ...(Object.keys(responses).length ? { responses } : {}),
    },
  } as T;
}

/**
 * A component declared as an extension of `baseName` (`namedExtension`), written as `allOf`
 * of a reference to the base and an object of the properties it adds. Throws when the
 * component does not carry the base's properties unchanged (a reference would then describe
 * it wrongly), or when the base never stands in the document.
 */
function asExtension(name: string, component: Json, baseName: string, base: Json | undefined): Json {
  if (!base) throw new Error(`${name} extends ${baseName}, which the document does not use`);
  const properties = (component.properties ?? {}) as Json;
  const baseProperties = (base.properties ?? {}) as Json;
  const required = (component.required ?? []) as string[];
  const baseRequired = new Set((base.required ?? []) as string[]);
  for (const [key, schema] of Object.entries(baseProperties))
    if (
      JSON.stringify(properties[key]) !== JSON.stringify(schema) ||
      baseRequired.has(key) !== required.includes(key)
    )
      throw new Error(`${name} changes ${baseName}'s property ${key}`);
  const added = Object.entries(properties).filter(([key]) => !(key in baseProperties));
  const addedRequired = required.filter((key) => !baseRequired.has(key));
  const { properties: _p, required: _r, type: _t, ...rest } = component;
  return {
    ...rest,
    allOf: [
      { $ref: `#/components/schemas/${baseName}` },
      {
        type: 'object',
        properties: Object.fromEntries(added),
        ...(addedRequired.length ? { required: addedRequired } : {}),
      },
    ],
  };
}

/**
 * Responses that are the same wherever they stand (every route's error answer: one named
 * schema, one description) become one entry of `components.responses`, named after their
 * schema, and a `$ref` where they stood. A response whose schema is answered with another
 * description somewhere stays inline everywhere. Changes `paths` in place; returns the entries.
 */
function sharedResponses(paths: Record<string, Record<string, Json>>): Json {
  const found = new Map<string, { body: string; holders: [Json, string][] }>();
  const ambiguous = new Set<string>();
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations)) {
      const responses = operation.responses as Record<string, Json> | undefined;
      for (const [code, response] of Object.entries(responses ?? {})) {
        const content = Object.values((response.content ?? {}) as Record<string, Json>);
        const ref = content.length === 1 ? (content[0]?.schema as Json | undefined)?.$ref : undefined;
        if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) continue;
        const name = ref.slice('#/components/schemas/'.length);
        const body = JSON.stringify(response);
        const entry = found.get(name) ?? { body, holders: [] };
        if (entry.body !== body) ambiguous.add(name);
        entry.holders.push([responses!, code]);
        found.set(name, entry);
      }
    }
  const shared: Json = {};
  for (const [name, { body, holders }] of [...found].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (ambiguous.has(name) || holders.length < 2) continue;
    shared[name] = JSON.parse(body);
    for (const [responses, code] of holders) responses[code] = { $ref: `#/components/responses/${name}` };
  }
  return shared;
}
