import { type TSchema, Type } from 'typebox';

/**
 * Field selection (`fields=id,name,offers.price`): which parts of a resource a response keeps.
 * A path is dot-separated names; through an array of objects it applies to each element
 * (`offers.price` keeps the price of every offer); beneath a free-form object (a Record such
 * as `specifications`) it names a key of it.
 */

/** One field path: names of letters, digits and underscores, joined by dots. */
const PATH = '[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z0-9_]+)*';
/** Most paths in one selection: more is no selection at all. */
export const MAX_FIELDS = 100;

/** The `fields` query parameter: comma-separated paths. */
export const FieldsParam = Type.String({
  // one way to match each space: the old `PATH *( *, *PATH *)*` gave every space between two
  // paths two places, and backtracked exponentially (90 characters held the server a minute)
  pattern: `^ *${PATH}( *, *${PATH})* *$`,
  maxLength: 2000,
  description:
    'comma-separated fields to return (id always included), dot paths into objects and arrays of objects: e.g. id,name,current_best_price,offers.price,specifications.noise_level. Naming offers, signals, attributes or variants asks for them (as their include_ flag). Only with format=json.',
});

/** The `fields` member of a search body: the same paths as an array. */
export const FieldsArray = Type.Array(Type.String({ pattern: `^${PATH}$`, maxLength: 200 }), {
  minItems: 1,
  maxItems: MAX_FIELDS,
  description:
    'fields to return for each product (id always included), dot paths as in the fields query parameter: e.g. ["name", "offers.price", "specifications.noise_level"]; naming offers asks for them. Only with format json.',
});

/** A selection as a tree: each chosen name maps to `true` (all of it) or the selection beneath it. */
export interface FieldTree {
  [name: string]: FieldTree | true;
}

/**
 * The paths of a `fields` value (comma-separated text or an array), trimmed, without empty
 * entries and repeats, in the order given.
 */
export function parseFieldList(input: string | readonly string[]): string[] {
  const parts = typeof input === 'string' ? input.split(',') : input;
  return [...new Set(parts.map((p) => p.trim()).filter((p) => p !== ''))];
}

/** The tree of `paths`; a whole field wins over parts of it (`offers,offers.price` is all offers). */
export function fieldTree(paths: readonly string[]): FieldTree {
  // no prototype: a name such as `__proto__` or `constructor` is only ever an own key
  const root: FieldTree = Object.create(null);
  for (const path of paths) {
    const names = path.split('.');
    let node: FieldTree = root;
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const below = node[name];
      if (below === true) break;
      if (i === names.length - 1) {
        node[name] = true;
        break;
      }
      const next: FieldTree = below ?? Object.create(null);
      node[name] = next;
      node = next;
    }
  }
  return root;
}

/**
 * `value` with only the fields of `tree`, in the value's own order: through arrays to each
 * element; a field the value lacks stays absent; null and scalars stay as they are.
 */
export function project(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => project(item, tree));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const selection = Object.hasOwn(tree, name) ? tree[name] : undefined;
    if (selection !== undefined) out[name] = selection === true ? field : project(field, selection);
  }
  return out;
}

type SchemaNode = TSchema & {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
};

/** The object schema a field holds: through arrays (each element), unions and nullable types. */
function objectOf(schema: SchemaNode): SchemaNode | null {
  if (schema.anyOf) {
    for (const member of schema.anyOf) {
      const found = objectOf(member);
      if (found) return found;
    }
    return null;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array') && schema.items) return objectOf(schema.items);
  return types.includes('object') ? schema : null;
}

/** True for an object whose keys are not fixed (a Record): any key may be named beneath it. */
const isFreeForm = (schema: SchemaNode): boolean =>
  !schema.properties ||
  schema.patternProperties !== undefined ||
  (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null);

/**
 * What `path` names in `schema`: `{ free: [] }` for a field of the schema, `{ free: [name, key] }`
 * when it ends beneath a free-form object (the object's path and the key named in it, for the
 * caller to check against the keys it knows), null when the schema has no such field.
 */
export function resolvePath(schema: TSchema, path: string): { free: string[] } | null {
  let node = schema as SchemaNode;
  const names = path.split('.');
  for (let i = 0; i < names.length; i++) {
    const object = objectOf(node);
    if (!object) return null;
    if (isFreeForm(object)) return { free: [names.slice(0, i).join('.'), names.slice(i).join('.')] };
    const name = names[i] as string;
    if (!object.properties || !Object.hasOwn(object.properties, name)) return null;
    const next = object.properties[name] as SchemaNode;
    node = next;
  }
  return { free: [] };
}

/**
 * The fields `schema` allows, for an error's details: each field, the fields of the objects
 * it holds one level down, and `name.<key>` for a free-form object.
 */
export function allowedFields(schema: TSchema): string[] {
  const out: string[] = [];
  for (const [name, field] of Object.entries(objectOf(schema as SchemaNode)?.properties ?? {})) {
    out.push(name);
    const object = objectOf(field);
    if (!object) continue;
    if (isFreeForm(object)) out.push(`${name}.<key>`);
    else for (const inner of Object.keys(object.properties ?? {})) out.push(`${name}.${inner}`);
  }
  return out;
}

/** `allowedFields` written short: `brand.{id,name}` for the fields of one object. */
export function describeFields(fields: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const field of fields) {
    const dot = field.indexOf('.');
    const head = dot < 0 ? field : field.slice(0, dot);
    if (!groups.has(head)) groups.set(head, []);
    if (dot >= 0) groups.get(head)?.push(field.slice(dot + 1));
  }
  return [...groups]
    .map(([head, inner]) => (inner.length ? `${head}, ${head}.{${inner.join(',')}}` : head))
    .join(', ');
}
