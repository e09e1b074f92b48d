import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_FILE, generateClientTypes, openApiDocument } from '../scripts/client-types.js';
import { COMPONENT_NAMES } from '../src/schemas/index.js';

/** The first line where two texts differ, for a readable failure instead of a 12 000-line diff. */
function firstDifference(a: string, b: string): string | null {
  const x = a.split('\n');
  const y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i])
      return `line ${i + 1}:\n  committed: ${x[i] ?? '(end)'}\n  generated: ${y[i] ?? '(end)'}`;
  return null;
}

type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema?: { default?: unknown } }[];
};

describe('the TypeScript client (packages/client)', () => {
  it('has generated types equal to what the current OpenAPI document generates (run `npm run client:generate`)', async () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    const generated = await generateClientTypes();
    expect(
      firstDifference(committed, generated),
      'packages/client is out of date: npm run client:generate',
    ).toBe(null);
  });

  it('regression: the OpenAPI document does not call a parameter with a default (limit, days) required', async () => {
    const doc = (await openApiDocument()) as { paths: Record<string, Record<string, Operation>> };
    const wrong: string[] = [];
    let defaulted = 0;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        for (const p of op.parameters ?? [])
          if (p.schema?.default !== undefined) {
            defaulted++;
            if (p.required) wrong.push(`${method.toUpperCase()} ${path} ${p.name}`);
          }
    expect(defaulted).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });

  it('regression: the client had no named types (649 KB, a product spelled out in every operation): shared schemas are components', async () => {
    const doc = (await openApiDocument()) as {
      paths: unknown;
      components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
    };
    for (const name of ['Product', 'Offer', 'Brand', 'ProductGroup', 'Meta', 'Pagination', 'ErrorEnvelope'])
      expect(doc.components.schemas[name], name).toBeDefined();
    expect(doc.components.responses.ErrorEnvelope).toBeDefined();
    // no operation spells a shared schema out: every one is a $ref
    const inline = [...JSON.stringify(doc.paths).matchAll(/"title":"(\w+)"/g)].map((m) => m[1]);
    expect(inline.filter((t) => COMPONENT_NAMES.has(t!))).toEqual([]);
    const types = readFileSync(CLIENT_TYPES_FILE, 'utf8');
    expect(types).toContain('data: components["schemas"]["Product"][];');
  });
});
