/**
 * Our JSON Schema validator (src/protocol/validation/jsonSchema/) against ajv, which it replaced at run time and
 * which stays a devDependency as the oracle: over a corpus of schemas covering every keyword and format in both
 * dialects, with values that pass and fail, the verdicts must agree, and so must the error lists (texts, instance
 * paths and order), which the UI shows. Where the validator deliberately differs from ajv (own properties only,
 * annotations as the specification defines them), the difference is asserted on its own.
 *
 * The official JSON-Schema-Test-Suite (draft 2020-12 and draft-07, vendored in test/fixtures/json-schema-test-suite/)
 * runs in jsonSchemaTestSuite.test.ts, with its list of expected deviations; docs/json-schema-suite.md has the counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  MAX_SCHEMA_OBJECTS,
  MAX_VALIDATION_STEPS,
  SchemaValidator,
  type ValidationVerdict,
} from '../../../../src/protocol/validation/schemaValidation';
import { seededRandom } from '../../../support/testSupport';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
type Dialect = '2020-12' | 'draft-07';

function oracle(dialect: Dialect, schema: Record<string, unknown>): ValidateFunction | string {
  const options = { strict: false, allErrors: true } as const;
  const engine = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(engine);
  try {
    const { $schema: _ignored, ...rest } = schema;
    return engine.compile(rest);
  } catch (error) {
    return (error as Error).message;
  }
}

function inDialect(dialect: Dialect, schema: Record<string, unknown>): Record<string, unknown> {
  return dialect === 'draft-07' ? { $schema: DRAFT_07, ...schema } : schema;
}

/** Asserts that our verdict on each value matches ajv's: validity and, unless `messages` is false, the error list. */
function agree(dialect: Dialect, schema: Record<string, unknown>, values: readonly unknown[], messages = true): void {
  const full = inDialect(dialect, schema);
  const check = oracle(dialect, full);
  assert.equal(typeof check, 'function', `ajv compiles ${JSON.stringify(schema)}: ${String(check)}`);
  const validate = check as ValidateFunction;
  const validator = new SchemaValidator();
  for (const value of values) {
    const ours = validator.validate(full, value);
    const where = `${dialect} ${JSON.stringify(schema)} on ${JSON.stringify(value)}`;
    const valid = validate(value);
    assert.notEqual(ours.kind, 'unchecked', `${where}: ${ours.kind === 'unchecked' ? ours.reason : ''}`);
    assert.equal(
      ours.kind === 'valid',
      valid,
      `${where}: ours ${JSON.stringify(ours)}, ajv ${JSON.stringify(validate.errors)}`,
    );
    if (!valid && messages) {
      const theirs = (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`);
      assert.deepEqual(ours.kind === 'invalid' ? ours.errors : [], theirs, where);
    }
  }
}

function randomValue(next: () => number, depth = 0): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 5 : 7));
  const keys = ['a', 'b', 'c', 'foo', 'bar', 'x1', 'xy', '__proto__', 'a/b', 'm~n'];
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return [0, 1, -1, 2, 2.5, 3, 5, 10, 0.1, 1e21, -7][Math.floor(next() * 11)];
    case 3:
      return ['', 'a', 'ab', 'abc', 'aaaa', '😀😀', 'foo', 'A1', '2024-02-29', 'x@y.zz'][Math.floor(next() * 10)];
    case 4:
      return Math.floor(next() * 100);
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default: {
      const record: Record<string, unknown> = {};
      // defineProperty: a key named __proto__ stays a property, as JSON.parse makes it.
      for (let i = Math.floor(next() * 4); i > 0; i--)
        Object.defineProperty(record, keys[Math.floor(next() * keys.length)], {
          value: randomValue(next, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return record;
    }
  }
}

interface Case {
  schema: Record<string, unknown>;
  values: unknown[];
  /** Only the dialect given; both when absent. */
  dialect?: Dialect;
  /** Compare validity only (see the test for why). */
  messages?: false;
}

const CASES: Case[] = [
  { schema: { type: 'string' }, values: ['a', 1, null, [], {}, true] },
  { schema: { type: 'integer' }, values: [1, 1.0, 1.5, -3, '1', 1e21] },
  { schema: { type: 'number' }, values: [1, 1.5, '1', null] },
  { schema: { type: ['string', 'null'] }, values: ['a', null, 1, false] },
  { schema: { type: ['integer', 'boolean'], minimum: 3 }, values: [1, 4, true, 2.5, 'x'] },
  { schema: { type: 'object' }, values: [{}, [], null, 'x'] },
  { schema: { type: 'array' }, values: [[], {}, 'x'] },
  { schema: { type: 'null' }, values: [null, 0, ''] },
  { schema: { type: 'boolean' }, values: [true, 0] },
  { schema: { type: 'string', nullable: true, minLength: 2 }, values: [null, 'ab', 'a', 3] },
  { schema: { type: 'string', enum: ['a'], minLength: 3 }, values: [5, 'a', 'b', 'abc'] },
  { schema: { type: 'integer', minimum: 3 }, values: [2.5, 2, 3, 'x'] },
  { schema: { type: 'string', minimum: 3 }, values: [1, 'x', 5] },
  {
    schema: { enum: [1, 'a', null, [1, { b: 2 }], { c: [3] }] },
    values: [1, 1.0, 'a', null, [1, { b: 2 }], { c: [3] }, { c: [4] }, 'b', 2, [1]],
  },
  {
    schema: { const: { a: [1, 2], b: null } },
    values: [{ b: null, a: [1, 2] }, { a: [1, 2] }, { a: [2, 1], b: null }, null],
  },
  { schema: { const: 0 }, values: [0, -0, 0.0, false, '0'] },
  { schema: { multipleOf: 2 }, values: [4, 3, 0, -2, 'x'] },
  { schema: { multipleOf: 0.01 }, values: [0.07, 0.1, 1, 0.011] },
  { schema: { multipleOf: 0.1 }, values: [0.3, 0.5, 1] },
  { schema: { multipleOf: 1 }, values: [1e21, 5, 5.5] },
  { schema: { maximum: 10, minimum: 1 }, values: [10, 1, 11, 0, 5.5, 'x'] },
  { schema: { exclusiveMaximum: 5, exclusiveMinimum: -5 }, values: [5, -5, 4.99, 0, 6] },
  { schema: { maxLength: 10, minLength: 3 }, values: ['abc', 'ab', 'abcdefghijk', '😀😀😀', '😀😀', 'ab😀', 7] },
  { schema: { maxLength: 2 }, values: ['😀😀', '😀😀😀', 'a😀', '\ud83d', '\ud83d\ud83d\ud83d'] },
  { schema: { pattern: '^a+$' }, values: ['aaa', 'ab', '', 5] },
  { schema: { pattern: 'b' }, values: ['abc', 'a'] },
  { schema: { pattern: '^\\p{Lu}\\w*$' }, values: ['Ab', 'ab', 'É1'] },
  { schema: { maxItems: 2, minItems: 1 }, values: [[1], [], [1, 2, 3], 'x'] },
  { schema: { uniqueItems: true, items: { type: 'number' } }, values: [[1, 2], [1, 'a'], [], [{ a: 1 }, { a: 2 }]] },
  {
    schema: { uniqueItems: true },
    values: [
      [1, 1],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [[1], [1]],
    ],
    messages: false,
  },
  { schema: { contains: { type: 'string' } }, values: [[1, 'a'], [1, 2], [], 'x'] },
  {
    schema: { contains: { type: 'string' }, minContains: 2, maxContains: 3 },
    values: [
      [1, 'a'],
      ['a', 'b'],
      ['a', 'b', 'c', 'd'],
      [1, 'a', 'b', 2],
    ],
    dialect: '2020-12',
  },
  { schema: { contains: { type: 'string' }, minContains: 0 }, values: [[], [1]], dialect: '2020-12' },
  { schema: { contains: { type: 'string' }, maxContains: 1 }, values: [['a'], ['a', 'b'], []], dialect: '2020-12' },
  {
    schema: { contains: { type: 'string' }, minContains: 3, maxContains: 2 },
    values: [['a', 'b', 'c'], [1]],
    dialect: '2020-12',
  },
  { schema: { contains: {}, minContains: 2 }, values: [[1], [1, 2]], dialect: '2020-12' },
  { schema: { contains: { type: 'string' }, minContains: 2 }, values: [[1, 'a'], [1]], dialect: 'draft-07' },
  {
    schema: { items: { type: 'string' }, prefixItems: [{ type: 'number' }] },
    values: [[1, 'a'], ['a', 1], [1, 'a', 2], []],
    dialect: '2020-12',
  },
  {
    schema: { prefixItems: [{ type: 'number' }, { type: 'string' }], items: false },
    values: [[1, 'a'], [1, 'a', 3], [1], ['x', 2, 3]],
    dialect: '2020-12',
  },
  { schema: { items: false }, values: [[], [1, 2]] },
  { schema: { items: { type: 'integer' } }, values: [[1, 2], [1, 'x', 2.5], []] },
  {
    schema: { items: [{ type: 'number' }], additionalItems: { type: 'string' } },
    values: [
      [1, 2, 'a'],
      ['x', 1],
      [1, 'a', 'b'],
    ],
    dialect: 'draft-07',
  },
  {
    schema: { items: [{ type: 'number' }], additionalItems: false },
    values: [[1, 2, 3], [1], ['x', 1]],
    dialect: 'draft-07',
  },
  { schema: { additionalItems: false }, values: [[1, 2]], dialect: 'draft-07' },
  { schema: { maxProperties: 2, minProperties: 1 }, values: [{ a: 1 }, {}, { a: 1, b: 2, c: 3 }, []] },
  { schema: { required: ['x', 'y'] }, values: [{ x: 1, y: 2 }, { x: 1 }, {}, [], 'x'] },
  {
    schema: {
      type: 'object',
      properties: { a: { type: 'number' }, 'b/c': { type: 'string' }, 'd~e': { minimum: 3 } },
      required: ['a'],
    },
    values: [{ a: 1 }, { a: 'x', 'b/c': 3, 'd~e': 1 }, { 'b/c': 'x' }, []],
  },
  {
    schema: { properties: { a: { properties: { b: { items: { type: 'string' } } } } } },
    values: [{ a: { b: ['x', 1, 'y', 2] } }, { a: { b: [] } }],
  },
  {
    schema: { patternProperties: { '^x': { type: 'string' }, '\\d$': { type: 'integer' } } },
    values: [{ xa: 'a', x1: 1, b2: 2.5 }, { x1: 'a' }, {}],
  },
  {
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: { a: {} },
      patternProperties: { '^x': { type: 'string' } },
    },
    values: [{ a: 1, x1: 2, b: 3 }, { a: 1 }, { b: 1, c: 2 }],
  },
  {
    schema: { additionalProperties: { type: 'number' }, properties: { a: { type: 'string' } } },
    values: [
      { a: 'x', b: 1 },
      { a: 1, b: 'x', c: 'y' },
    ],
  },
  { schema: { propertyNames: { maxLength: 2 } }, values: [{ abc: 1, de: 2, fgh: 3 }, { ab: 1 }, {}] },
  {
    schema: { propertyNames: { pattern: '^[a-z]+$', not: { const: 'bad' } } },
    values: [{ ok: 1, bad: 2, 'no-no': 3 }],
  },
  { schema: { propertyNames: false }, values: [{}, { a: 1 }] },
  {
    schema: { dependencies: { a: ['b', 'c'], d: { required: ['e'] } } },
    values: [{ a: 1 }, { a: 1, b: 2, c: 3 }, { d: 1 }, { d: 1, e: 2 }, { b: 1 }],
  },
  { schema: { dependencies: { a: ['b'] } }, values: [{ a: 1 }, { a: 1, b: 2 }] },
  {
    schema: { dependentRequired: { a: ['b', 'c'] } },
    values: [{ a: 1 }, { a: 1, b: 1 }, { a: 1, b: 1, c: 1 }],
    dialect: '2020-12',
  },
  {
    schema: { dependentSchemas: { a: { required: ['b'] } } },
    values: [{ a: 1 }, { a: 1, b: 2 }, { b: 1 }],
    dialect: '2020-12',
  },
  { schema: { allOf: [{ type: 'string' }, { minLength: 2 }] }, values: [5, 'a', 'ab'] },
  { schema: { anyOf: [{ type: 'string' }, { minimum: 3 }] }, values: [1, 'a', 5, null] },
  { schema: { oneOf: [{ type: 'string' }, { minimum: 3 }] }, values: [1, 'a', 5, '5'] },
  {
    schema: { oneOf: [{ type: 'number' }, { minimum: 3 }, { maximum: 10 }, { type: 'integer' }] },
    values: [5, 2.5, 'x'],
  },
  { schema: { oneOf: [true, true, false] }, values: [1] },
  { schema: { not: { type: 'number' } }, values: [5, 'x'] },
  { schema: { if: { type: 'number' }, then: { minimum: 3 }, else: { maxLength: 1 } }, values: [1, 5, 'ab', 'a'] },
  { schema: { if: { type: 'number' }, then: { minimum: 3 } }, values: [1, 5, 'abc'] },
  { schema: { if: { type: 'number' }, else: { maxLength: 1 } }, values: [1, 'ab'] },
  { schema: { if: { minimum: 3 } }, values: [1] },
  { schema: { then: { minimum: 3 } }, values: [1] },
  // draft-07 ignores the keywords beside a $ref, where ajv applies them (see the differences below).
  {
    schema: { $ref: '#/$defs/a', minimum: 3, $defs: { a: { type: 'integer' } } },
    values: [1.5, 4, 2],
    dialect: '2020-12',
  },
  { schema: { $ref: '#/definitions/a', definitions: { a: { type: 'integer' } } }, values: [1, 'x'] },
  {
    schema: {
      properties: { x: { $ref: '#/$defs/a%20b' }, y: { $ref: '#/$defs/c~1d' }, z: { $ref: '#/$defs/e~0f' } },
      $defs: { 'a b': { type: 'string' }, 'c/d': { type: 'number' }, 'e~f': { type: 'null' } },
    },
    values: [
      { x: 'a', y: 1, z: null },
      { x: 1, y: 'a', z: 0 },
    ],
  },
  { schema: { properties: { x: { $ref: '#/properties/y' }, y: { type: 'string' } } }, values: [{ x: 'a' }, { x: 1 }] },
  { schema: { items: { $ref: '#/x-list/0' }, 'x-list': [{ type: 'number' }] }, values: [[1], ['x']] },
  {
    schema: { $defs: { s: { $anchor: 'str', type: 'string' } }, properties: { a: { $ref: '#str' } } },
    values: [{ a: 'x' }, { a: 1 }],
    dialect: '2020-12',
  },
  {
    schema: { definitions: { s: { $id: '#str', type: 'string' } }, properties: { a: { $ref: '#str' } } },
    values: [{ a: 'x' }, { a: 1 }],
    dialect: 'draft-07',
  },
  {
    schema: {
      $id: 'https://example.com/root.json',
      $defs: { n: { $id: 'num.json', type: 'number' } },
      properties: { a: { $ref: 'num.json' }, b: { $ref: 'https://example.com/num.json' } },
    },
    values: [
      { a: 1, b: 2 },
      { a: 'x', b: 'y' },
    ],
  },
  {
    schema: { anyOf: [{ type: 'array', items: { $ref: '#' } }, { type: 'number' }] },
    values: [[1, [2, [3]]], [1, ['x']], 'x'],
  },
  {
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    },
    values: [
      { name: 'a', children: [{ name: 'b', children: [] }] },
      { name: 'a', children: [{ children: [{ name: 1 }] }] },
    ],
  },
  {
    schema: {
      $defs: { node: { $dynamicAnchor: 'node', type: 'object', properties: { next: { $dynamicRef: '#node' } } } },
      $ref: '#/$defs/node',
    },
    values: [{ next: { next: {} } }, { next: { next: 1 } }],
    dialect: '2020-12',
  },
  {
    schema: { properties: { a: {} }, unevaluatedProperties: false },
    values: [{ a: 1 }, { a: 1, b: 2, c: 3 }],
    dialect: '2020-12',
  },
  {
    schema: { allOf: [{ properties: { a: {} } }], unevaluatedProperties: false },
    values: [{ a: 1 }, { a: 1, b: 2 }],
    dialect: '2020-12',
  },
  {
    schema: {
      anyOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: {} }, required: ['b'] },
      ],
      unevaluatedProperties: false,
    },
    values: [{ a: 'x' }, { b: 1 }, { a: 'x', b: 1 }, { a: 1, b: 1 }, { c: 1 }],
    dialect: '2020-12',
    messages: false,
  },
  {
    schema: {
      if: { properties: { kind: { const: 'a' } } },
      then: { properties: { x: {} } },
      else: { properties: { y: {} } },
      unevaluatedProperties: false,
    },
    values: [
      { kind: 'a', x: 1 },
      { kind: 'b', y: 1 },
      { kind: 'a', y: 1 },
    ],
    dialect: '2020-12',
    messages: false,
  },
  {
    schema: {
      $ref: '#/$defs/base',
      $defs: { base: { properties: { a: {} } } },
      unevaluatedProperties: { type: 'number' },
    },
    values: [
      { a: 'x', b: 1 },
      { a: 'x', b: 'y' },
    ],
    dialect: '2020-12',
  },
  {
    schema: { dependentSchemas: { a: { properties: { b: {} } } }, properties: { a: {} }, unevaluatedProperties: false },
    values: [{ a: 1, b: 2 }, { b: 2 }],
    dialect: '2020-12',
    messages: false,
  },
  {
    schema: { patternProperties: { '^x': {} }, additionalProperties: { type: 'string' }, unevaluatedProperties: false },
    values: [{ x: 1, y: 'a' }, { y: 1 }],
    dialect: '2020-12',
  },
  { schema: { prefixItems: [{}], unevaluatedItems: false }, values: [[1], [1, 2, 3]], dialect: '2020-12' },
  {
    schema: { allOf: [{ prefixItems: [{}, {}] }], unevaluatedItems: { type: 'string' } },
    values: [
      [1, 2, 'a'],
      [1, 2, 3],
    ],
    dialect: '2020-12',
  },
  {
    schema: { anyOf: [{ prefixItems: [{ const: 1 }] }, { prefixItems: [{}, { const: 2 }] }], unevaluatedItems: false },
    values: [[1], [1, 2], [3, 2], [1, 2, 3]],
    dialect: '2020-12',
    messages: false,
  },
  {
    schema: { $ref: '#/$defs/pair', $defs: { pair: { prefixItems: [{}, {}] } }, unevaluatedItems: false },
    values: [
      [1, 2],
      [1, 2, 3],
    ],
    dialect: '2020-12',
  },
  { schema: { items: { type: 'number' }, unevaluatedItems: false }, values: [[1, 2]], dialect: '2020-12' },
  { schema: JSON.parse('{"properties": {"__proto__": {"type": "number"}}}'), values: [{ a: 1 }] },
  { schema: { required: ['__proto__'] }, values: [JSON.parse('{"__proto__": 1}')] },
  { schema: { format: 'int32' }, values: [1, 2 ** 31, -(2 ** 31), 1.5, 'x'] },
  { schema: { format: 'int64' }, values: [1, 1.5, 2 ** 60] },
  { schema: { format: 'float' }, values: [1.5, 'x'] },
  { schema: { format: 'double' }, values: [1.5] },
  { schema: { format: 'no-such-format' }, values: ['x', 1] },
  { schema: { type: 'string', format: 'email', minLength: 3 }, values: ['a@b.cc', 'x', 5] },
  {
    schema: {
      type: 'object',
      properties: { when: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' } },
      required: ['when'],
    },
    values: [
      { when: '2024-01-01T00:00:00Z', id: '123e4567-e89b-12d3-a456-426614174000' },
      { when: 'yesterday', id: 'x' },
    ],
  },
  { schema: true as unknown as Record<string, unknown>, values: [] },
  { schema: { allOf: [true, { not: false }] }, values: [1] },
  { schema: { anyOf: [false, { type: 'string' }] }, values: [1, 'a'] },
  { schema: { properties: { a: false } }, values: [{ a: 1 }, {}] },
];

describe('the validator agrees with ajv', () => {
  for (const dialect of ['2020-12', 'draft-07'] as const) {
    test(`keywords, ${dialect}`, () => {
      for (const { schema, values, messages, dialect: only } of CASES) {
        if (typeof schema !== 'object' || (only !== undefined && only !== dialect)) continue;
        agree(dialect, schema, values, messages !== false);
      }
    });

    test(`random values, ${dialect}`, () => {
      const next = seededRandom(dialect === '2020-12' ? 2020 : 7);
      const values = Array.from({ length: 60 }, () => randomValue(next));
      for (const { schema, messages, dialect: only } of CASES) {
        // Known differences (see below): own properties only, and the spec's annotations for unevaluated*.
        const text = JSON.stringify(schema);
        if (
          typeof schema !== 'object' ||
          (only !== undefined && only !== dialect) ||
          text.includes('__proto__') ||
          text.includes('unevaluated')
        )
          continue;
        agree(dialect, schema, values, messages !== false && !text.includes('uniqueItems'));
      }
    });
  }

  test('boolean schemas at the root: true accepts everything, false nothing', () => {
    const validator = new SchemaValidator();
    for (const value of [1, 'x', null, { any: 'thing' }, []]) {
      for (const schema of [true, false]) {
        const check = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
        const valid = check(value);
        const theirs = (check.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message}`);
        assert.deepEqual(
          validator.validate(schema, value),
          valid ? { kind: 'valid' } : { kind: 'invalid', errors: theirs },
        );
      }
    }
    assert.deepEqual(validator.validate(undefined, 1), { kind: 'unchecked', reason: 'no schema' });
  });
});

const FORMAT_SAMPLES: Record<string, string[]> = {
  date: ['2024-02-29', '2023-02-29', '2024-13-01', '2024-1-01', '2024-01-00', '2024-12-31', 'x'],
  time: [
    '12:34:56Z',
    '12:34:56',
    '12:34:56.789+01:00',
    '23:59:60Z',
    '22:59:60-01:00',
    '24:00:00Z',
    '12:34:56+0100',
    '12:34:56+24:00',
    '12:34:56z',
  ],
  'date-time': [
    '2024-01-01T12:00:00Z',
    '2024-01-01t12:00:00z',
    '2024-01-01 12:00:00Z',
    '2024-01-01T12:00:00',
    '2024-02-30T12:00:00Z',
    '2024-01-01T12:00:00.5-05:30',
    '2024-01-01TT12:00:00Z',
  ],
  'iso-time': ['12:34:56', '12:34:56Z', '25:00:00'],
  'iso-date-time': ['2024-01-01T12:00:00', '2024-01-01 12:00:00+01:00', '2024-01-01'],
  duration: ['P1D', 'PT1H', 'P1Y2M3DT4H5M6S', 'P4W', 'P', 'PT', 'P1W1D', 'P1DT', '1D'],
  uri: [
    'https://example.com/a?b=c#d',
    'urn:isbn:0451450523',
    'mailto:a@b.c',
    'relative/path',
    '//host/path',
    'http://[::1]:80/',
    'http://exa mple.com',
    'a:b',
    'HTTP://EXAMPLE.COM/%7E',
    'http://x/%zz',
    'x:"',
    'http://[v1.x]/',
  ],
  'uri-reference': [
    'relative/path',
    '#frag',
    '',
    'https://example.com/',
    '//host',
    'a b',
    '\\\\x',
    '"quoted"',
    '%41',
    '%4',
  ],
  'uri-template': [
    'https://example.com/{id}',
    '/users{/id*}{?q,page:3}',
    '{',
    'a}',
    '{x:0}',
    '{x:10000}',
    'http://x/%zz',
    '{+path}',
  ],
  email: [
    'a@b.cc',
    'first.last@sub.example.com',
    'a..b@c.de',
    'a@b',
    '@b.cc',
    'a@-b.cc',
    'a@b-.cc',
    "x!#$%&'*+/=?^_`{|}~-@ex.com",
    'a@b..cc',
    'A@B.CC',
    'a@b.c-d.ee',
  ],
  hostname: [
    'example.com',
    'a.b.c',
    '-a.com',
    'a-.com',
    'x'.repeat(63),
    'x'.repeat(64),
    `${'a.'.repeat(126)}a`,
    `${'a.'.repeat(127)}a`,
    'example.com.',
    'ex_ample.com',
    '',
  ],
  ipv4: ['192.168.0.1', '256.1.1.1', '01.1.1.1', '1.1.1', '1.1.1.1.1', '0.0.0.0'],
  ipv6: [
    '::1',
    '::',
    '2001:db8::8a2e:370:7334',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9',
    '::ffff:192.168.0.1',
    '1::2::3',
    'fe80::1%eth0',
    'ABCD::',
  ],
  regex: ['^a+$', '(', '[a-', '\\d{2,}', 'a\\Z', '(?<n>x)\\k<n>'],
  uuid: [
    '123e4567-e89b-12d3-a456-426614174000',
    'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
    'URN:UUID:123E4567-E89B-12D3-A456-426614174000',
    '123e4567e89b12d3a456426614174000',
    'g23e4567-e89b-12d3-a456-426614174000',
  ],
  'json-pointer': ['', '/a/b', '/a~0b~1c', '/a~2', 'a', '/'],
  'json-pointer-uri-fragment': ['#', '#/a/b', '#/a%20b', '#/a b', '/a', '#/%zz'],
  'relative-json-pointer': ['0', '1/a', '0#', '01', '-1', '2/a~1b'],
  byte: ['', 'QUJD', 'QUI=', 'QQ==', 'QUJ', 'Q===', '!!!!', '!!!\nQUJD', '!!!\n', '\r\n'],
  password: ['anything'],
  binary: ['anything'],
};

describe('formats agree with ajv-formats (full mode)', () => {
  test('samples', () => {
    for (const [format, samples] of Object.entries(FORMAT_SAMPLES))
      agree('2020-12', { type: 'string', format }, samples);
  });

  test('random strings', () => {
    const next = seededRandom(42);
    const alphabet = [
      '0',
      '1',
      '2',
      '9',
      ':',
      '-',
      '.',
      '/',
      '@',
      'a',
      'F',
      'T',
      'Z',
      'P',
      'D',
      'H',
      'W',
      '%',
      '#',
      '~',
      '[',
      ']',
      '{',
      '}',
      '+',
      ' ',
      '\n',
      '_',
      'é',
      'x',
    ];
    const strings = Array.from({ length: 400 }, () =>
      Array.from({ length: Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
    );
    for (const format of Object.keys(FORMAT_SAMPLES)) agree('draft-07', { format }, strings);
  });

  test('url keeps the WHATWG check rather than ajv-formats expression', () => {
    const validator = new SchemaValidator();
    assert.equal(validator.validate({ format: 'url' }, 'https://example.com/a').kind, 'valid');
    assert.deepEqual(validator.validate({ format: 'url' }, 'example.com'), {
      kind: 'invalid',
      errors: ['(root) must match format "url"'],
    });
  });
});

describe('where the validator differs from ajv on purpose', () => {
  test('only own properties count: a property named __proto__ is a property, toString is not inherited', () => {
    const validator = new SchemaValidator();
    const proto = JSON.parse('{"__proto__": "x"}');
    // ajv skips a properties entry named __proto__; here it is checked like any other.
    assert.deepEqual(validator.validate(JSON.parse('{"properties": {"__proto__": {"type": "number"}}}'), proto), {
      kind: 'invalid',
      errors: ['/__proto__ must be number'],
    });
    // ajv finds Object.prototype.toString on every object and so passes these.
    assert.deepEqual(validator.validate({ required: ['toString'] }, {}), {
      kind: 'invalid',
      errors: ["(root) must have required property 'toString'"],
    });
    assert.deepEqual(validator.validate({ properties: { constructor: { type: 'number' } } }, {}), { kind: 'valid' });
    assert.deepEqual(validator.validate(JSON.parse('{"dependentRequired": {"__proto__": ["a"]}}'), proto), {
      kind: 'invalid',
      errors: ['(root) must have property a when property __proto__ is present'],
    });
    assert.equal(
      validator.validate({ type: 'object', properties: JSON.parse('{"__proto__": {"type": "string"}}') }, proto).kind,
      'valid',
    );
    assert.equal(({} as Record<string, unknown>).type, undefined, 'Object.prototype is untouched');
  });

  test('contains annotates the items it matched, for unevaluatedItems (ajv counts every item as evaluated)', () => {
    const schema = { contains: { type: 'string' }, unevaluatedItems: false };
    const validator = new SchemaValidator();
    assert.deepEqual(validator.validate(schema, ['a', 'b']), { kind: 'valid' });
    assert.deepEqual(validator.validate(schema, ['a', 1]), {
      kind: 'invalid',
      errors: ['(root) must NOT have more than 0 items'],
    });
  });

  test('if without then and else still evaluates properties for unevaluatedProperties', () => {
    const schema = { if: { properties: { a: { type: 'string' } } }, unevaluatedProperties: false };
    assert.deepEqual(new SchemaValidator().validate(schema, { a: 'x' }), { kind: 'valid' });
    assert.equal(new SchemaValidator().validate(schema, { a: 1 }).kind, 'invalid');
  });

  test('uniqueItems names the first pair of equal items in order', () => {
    assert.deepEqual(new SchemaValidator().validate({ uniqueItems: true }, [3, 1, 2, 1, 3]), {
      kind: 'invalid',
      errors: ['(root) must NOT have duplicate items (items ## 1 and 3 are identical)'],
    });
  });

  test('in draft-07 a schema with $ref is only that reference: the keywords beside it, $id included, are ignored (ajv applies them)', () => {
    const validator = new SchemaValidator();
    const siblings = {
      $schema: DRAFT_07,
      $ref: '#/definitions/a',
      minimum: 3,
      definitions: { a: { type: 'integer' } },
    };
    assert.deepEqual(validator.validate(siblings, 2), { kind: 'valid' });
    assert.deepEqual(validator.validate(siblings, 1.5), { kind: 'invalid', errors: ['(root) must be integer'] });
    // 2020-12 applies $ref beside its siblings.
    const modern = { $ref: '#/$defs/a', minimum: 3, $defs: { a: { type: 'integer' } } };
    assert.deepEqual(validator.validate(modern, 2), { kind: 'invalid', errors: ['(root) must be >= 3'] });
    // The $id beside the $ref does not change the base the $ref is resolved against.
    const based = {
      $schema: DRAFT_07,
      $id: 'https://example.com/base/',
      definitions: {
        other: { $id: 'https://example.com/n.json', type: 'string' },
        here: { $id: 'n.json', type: 'number' },
      },
      allOf: [{ $id: 'https://example.com/', $ref: 'n.json' }],
    };
    assert.deepEqual(validator.validate(based, 1), { kind: 'valid' });
    assert.equal(validator.validate(based, 'a').kind, 'invalid');
  });

  test('an empty enum accepts nothing (ajv refuses the schema)', () => {
    assert.deepEqual(new SchemaValidator().validate({ enum: [] }, 1), {
      kind: 'invalid',
      errors: ['(root) must be equal to one of the allowed values'],
    });
  });
});

function assertUnchecked(verdict: ValidationVerdict, excerpt: string): void {
  assert.equal(verdict.kind, 'unchecked', JSON.stringify(verdict));
  assert.ok(
    verdict.kind === 'unchecked' && verdict.reason.includes(excerpt),
    `${JSON.stringify(excerpt)} in ${verdict.kind === 'unchecked' ? verdict.reason : ''}`,
  );
}

describe('references and schemas the validator refuses', () => {
  test('a reference it cannot resolve, remote or missing, gives the verdict ajv gave', () => {
    const validator = new SchemaValidator();
    assertUnchecked(
      validator.validate({ $ref: 'https://example.com/other.json' }, 1),
      "schema could not be compiled: can't resolve reference https://example.com/other.json from id #",
    );
    assertUnchecked(
      validator.validate({ properties: { a: { $ref: '#/$defs/missing' } } }, {}),
      "can't resolve reference #/$defs/missing",
    );
    assertUnchecked(validator.validate({ $ref: '#nowhere' }, 1), "can't resolve reference #nowhere");
    assertUnchecked(validator.validate({ $ref: '#/%zz' }, 1), "can't resolve reference #/%zz");
    // Unresolvable even where the value never goes, as ajv (which resolves references when it compiles).
    assertUnchecked(validator.validate({ anyOf: [true, { $ref: '#/nope' }] }, 1), "can't resolve reference");
  });

  test('a reference loop that never reaches further into the value stops with a verdict', () => {
    const validator = new SchemaValidator();
    assertUnchecked(validator.validate({ $ref: '#' }, 1), "the schema's references loop");
    assertUnchecked(
      validator.validate(
        { $defs: { a: { $ref: '#/$defs/b' }, b: { allOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' },
        {},
      ),
      "the schema's references loop",
    );
    // Recursion through the value is not a loop.
    assert.deepEqual(validator.validate({ items: { $ref: '#' } }, [[[]]]), { kind: 'valid' });
  });

  test('$dynamicRef with one dynamic target is a $ref; with several it is refused, not checked wrongly', () => {
    const extended = {
      $id: 'https://example.com/strict-tree',
      $dynamicAnchor: 'node',
      $ref: 'tree',
      unevaluatedProperties: false,
      $defs: {
        tree: {
          $id: 'tree',
          $dynamicAnchor: 'node',
          type: 'object',
          properties: { children: { type: 'array', items: { $dynamicRef: '#node' } } },
        },
      },
    };
    assertUnchecked(
      new SchemaValidator().validate(extended, { children: [] }),
      '$dynamicRef "#node" has more than one dynamic target',
    );
  });

  test('keyword values that are not what the dialect allows are refused as ajv refuses them', () => {
    const validator = new SchemaValidator();
    assertUnchecked(
      validator.validate({ type: 'strnig' }, 1),
      'schema could not be compiled: type must be JSONType or JSONType[]: strnig',
    );
    assertUnchecked(
      validator.validate({ minLength: 'three' }, 'x'),
      'schema could not be compiled: schema is invalid: data/minLength must be',
    );
    assertUnchecked(
      validator.validate({ properties: { a: 5 } }, {}),
      'schema is invalid: data/properties/a must be object,boolean',
    );
    assertUnchecked(validator.validate({ nullable: true }, null), '"nullable" cannot be used without "type"');
    assertUnchecked(
      validator.validate({ $schema: 'http://json-schema.org/draft-04/schema#' }, 1),
      'unsupported JSON Schema dialect',
    );
    assertUnchecked(
      validator.validate({ items: [{ type: 'string' }] }, ['a']),
      'schema is invalid: data/items must be object,boolean',
    );
  });
});

describe('hostile schemas and values', () => {
  test('a 2^n anyOf ladder stops at the step limit', () => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++)
      $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    $defs.d30 = { required: ['x'] };
    // Each of the 2^30 ways down the ladder ends at `required`, which looks at the value: the value counts the looks.
    // Every look is a step, so a validator that keeps its budget looks at most MAX_VALIDATION_STEPS times; one that
    // goes on past it meets the value's own stop (an error, hence another verdict) instead of running for hours.
    let looks = 0;
    const value = new Proxy(
      {},
      {
        getOwnPropertyDescriptor(target, property) {
          if (++looks > MAX_VALIDATION_STEPS) throw new Error('looked at the value past the step limit');
          return Reflect.getOwnPropertyDescriptor(target, property);
        },
      },
    );
    assertUnchecked(
      new SchemaValidator().validate({ $ref: '#/$defs/d0', $defs }, value),
      `validation stopped after ${MAX_VALIDATION_STEPS} steps`,
    );
    assert.ok(looks > 0 && looks <= MAX_VALIDATION_STEPS, `looked ${looks} times`);
  });

  test('a 100,000-deep array gives a verdict, no RangeError, and the validator still works', () => {
    const deepArray = () => {
      let nested: unknown = 1;
      for (let i = 0; i < 100_000; i++) nested = [nested];
      return nested;
    };
    const value = deepArray();
    const validator = new SchemaValidator();
    assertUnchecked(validator.validate({ items: { $ref: '#' } }, value), 'the value is too deeply nested to validate');
    // const and uniqueItems compare deep values recursively too.
    assertUnchecked(validator.validate({ const: deepArray() }, value), 'the value is too deeply nested to validate');
    assertUnchecked(
      validator.validate({ uniqueItems: true }, [value, 1]),
      'the value is too deeply nested to validate',
    );
    assert.deepEqual(validator.validate({ items: { $ref: '#' } }, [[[1]]]), { kind: 'valid' });
  });

  test('a huge enum is data, not subschemas, and is checked quickly', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `v${i}`);
    const validator = new SchemaValidator();
    assert.deepEqual(validator.validate({ enum: values }, 'v199999'), { kind: 'valid' });
    assert.deepEqual(validator.validate({ enum: values }, 'w'), {
      kind: 'invalid',
      errors: ['(root) must be equal to one of the allowed values'],
    });
    const objects = Array.from({ length: 20_000 }, (_, i) => ({ id: i, tags: ['a'] }));
    assert.deepEqual(validator.validate({ enum: objects }, { tags: ['a'], id: 19_999 }), { kind: 'valid' });
  });

  test('more schema objects than the limit, or nesting deeper than the limit, are refused before evaluation', () => {
    const properties = Object.fromEntries(Array.from({ length: MAX_SCHEMA_OBJECTS + 1 }, (_, i) => [`p${i}`, {}]));
    assertUnchecked(new SchemaValidator().validate({ properties }, {}), 'too large to validate');
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 600; i++) deep = { not: { not: deep } };
    assertUnchecked(new SchemaValidator().validate(deep, 1), 'too large to validate');
    let narrow: Record<string, unknown> = {};
    for (let i = 0; i < 800; i++) narrow = { allOf: [narrow] };
    assertUnchecked(
      new SchemaValidator().validate(narrow, 1),
      'the schema is too deeply nested or too large to compile',
    );
  });

  test('instance paths escape ~ and / and are built only for errors; long ones are cut short', () => {
    const validator = new SchemaValidator();
    assert.deepEqual(validator.validate({ additionalProperties: { type: 'number' } }, { 'a/b': 'x', 'c~d': 'y' }), {
      kind: 'invalid',
      errors: ['/a~1b must be number', '/c~0d must be number'],
    });
    const verdict = validator.validate(
      { additionalProperties: { additionalProperties: { type: 'number' } } },
      { ['k'.repeat(5_000)]: { ['j'.repeat(5_000)]: 'x' } },
    );
    assert.ok(
      verdict.kind === 'invalid' && verdict.errors[0].length === 1_001 && verdict.errors[0].endsWith('…'),
      JSON.stringify(verdict).slice(0, 100),
    );
  });

  test('a schema object is prepared once: the second validation reuses it', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^x' } } };
    const validator = new SchemaValidator();
    assert.deepEqual(validator.validate(schema, { a: 'y' }), {
      kind: 'invalid',
      errors: ['/a must match pattern "^x"'],
    });
    schema.properties.a.pattern = '^y';
    // The cache is keyed by the schema object; servers send a new object when a schema changes.
    assert.deepEqual(validator.validate(schema, { a: 'y' }), {
      kind: 'invalid',
      errors: ['/a must match pattern "^x"'],
    });
    assert.deepEqual(new SchemaValidator().validate(schema, { a: 'y' }), { kind: 'valid' });
  });
});
