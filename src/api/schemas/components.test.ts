import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Nullable, namedExtension, namedObject } from '../../schemas/index.js';
import { namedComponents } from './components.js';

const Part = namedObject('TestPart', { n: Type.Number() });
const Whole = namedObject('TestWhole', { part: Part, maybe: Nullable(Part), parts: Type.Array(Part) });
const envelope = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('namedComponents', () => {
  const doc = namedComponents<unknown>({
    openapi: '3.1.0',
    components: { schemas: { Other: { type: 'string' } } },
    paths: {
      '/a': { get: { responses: { 200: envelope(Whole), 400: envelope(Part) } } },
      '/b': {
        get: {
          responses: {
            200: envelope({ ...Nullable(Whole), description: 'or null, with its own words' }),
            400: envelope(Part),
          },
        },
      },
    },
  }) as {
    components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
    paths: Record<string, { get: { responses: Record<string, unknown> } }>;
  };

  it('puts each named schema once under components, referenced (or null) wherever it stood', () => {
    expect(doc.components.schemas).toEqual({
      Other: { type: 'string' },
      TestPart: JSON.parse(JSON.stringify(Part)),
      TestWhole: {
        ...JSON.parse(JSON.stringify(Whole)),
        properties: {
          part: { $ref: '#/components/schemas/TestPart' },
          maybe: { anyOf: [{ $ref: '#/components/schemas/TestPart' }, { type: 'null' }] },
          parts: { type: 'array', items: { $ref: '#/components/schemas/TestPart' } },
        },
      },
    });
    expect(doc.paths['/a']!.get.responses[200]).toEqual(envelope({ $ref: '#/components/schemas/TestWhole' }));
    expect(doc.paths['/b']!.get.responses[200]).toEqual(
      envelope({
        anyOf: [{ $ref: '#/components/schemas/TestWhole' }, { type: 'null' }],
        description: 'or null, with its own words',
      }),
    );
  });

  it('makes a response that is the same wherever it stands one component', () => {
    expect(doc.components.responses).toEqual({
      TestPart: envelope({ $ref: '#/components/schemas/TestPart' }),
    });
    expect(doc.paths['/b']!.get.responses[400]).toEqual({ $ref: '#/components/responses/TestPart' });
  });

  it('refuses two different schemas under one name', () => {
    const impostor = namedObject('TestPart', { n: Type.String() });
    expect(() => namedComponents({ paths: { '/a': { get: { x: Part, y: impostor } } } })).toThrow(
      'two different schemas are named TestPart',
    );
  });
});

describe('namedComponents with an extension', () => {
  const Base = namedObject('TestBase', { id: Type.String(), n: Type.Optional(Type.Number()) });
  const Extended = namedExtension('TestExtended', Base, { children: Type.Array(Base) });
  const paths = (schema: unknown) => ({ '/a': { get: { responses: { 200: envelope(schema) } } } });

  it('writes the extension as allOf of the base and what it adds', () => {
    const doc = namedComponents<unknown>({ paths: paths(Extended) }) as {
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.components.schemas.TestExtended).toEqual({
      title: 'TestExtended',
      allOf: [
        { $ref: '#/components/schemas/TestBase' },
        {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/TestBase' } } },
          required: ['children'],
        },
      ],
    });
    expect(doc.components.schemas.TestBase).toEqual(JSON.parse(JSON.stringify(Base)));
  });

  it('refuses an extension that changes a property of its base', () => {
    const changed = { ...Extended, properties: { ...Extended.properties, n: Type.String() } };
    expect(() => namedComponents({ paths: paths(changed) })).toThrow(
      "TestExtended changes TestBase's property n",
    );
  });

  it('refuses an extension whose base never stands in the document', () => {
    const Alone = namedObject('TestAloneBase', { id: Type.String() });
    const lonely = { ...namedExtension('TestLonely', Alone, { x: Type.Number() }) };
    // the base's properties are copied in, but no schema titled TestAloneBase is walked
    expect(() => namedComponents({ paths: paths(lonely) })).toThrow(
      'TestLonely extends TestAloneBase, which the document does not use',
    );
  });
});
