/**
 * The arguments a conformance run sends when a scenario names none (src/cli/conformanceSamples.ts): valid against
 * the schema they were built from, as ajv (the tests' oracle) judges it, including a same-document `$ref`, and
 * bounded on a cyclic one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { sampleArguments } from '../../../src/cli/conformanceSamples';
import { GAUNTLET_TOOL_SCHEMA } from '../../fixtures/conformance/gauntletTool';

const ajv = new Ajv2020({ strict: false });
addFormats(ajv);

function assertValid(schema: Record<string, unknown>): Record<string, unknown> {
  const value = sampleArguments(schema);
  assert.ok(ajv.validate(schema, value), `${JSON.stringify(value)}: ${ajv.errorsText()}`);
  return value;
}

describe('conformance sample arguments', () => {
  test('a required string, a JSON number and an object behind a same-document $ref (the gauntlet tool)', () => {
    const value = assertValid(GAUNTLET_TOOL_SCHEMA);
    assert.equal(typeof value.count, 'number');
    assert.deepEqual(value.payload, { kind: 'solid' });
  });

  test('bounds, formats, defaults, const, arrays and nullable types', () => {
    assertValid({
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 15, maxLength: 20 },
        mail: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        n: { type: 'integer', minimum: 3.5, maximum: 9 },
        above: { type: 'number', exclusiveMinimum: 10 },
        level: { type: 'string', default: 'debug' },
        fixed: { const: 42 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        maybe: { type: ['null', 'boolean'] },
        optional: { type: 'string', pattern: '^never$' },
      },
      required: ['code', 'mail', 'when', 'n', 'above', 'level', 'fixed', 'tags', 'maybe'],
    });
  });

  test('an elicitation schema with a required boolean is answered with a boolean', () => {
    assert.deepEqual(
      assertValid({ type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] }),
      { confirmed: true },
    );
  });

  test('a cyclic $ref ends, and a reference to another document is not followed', () => {
    const cyclic = sampleArguments({
      type: 'object',
      properties: { node: { $ref: '#' } },
      required: ['node'],
    });
    assert.equal(typeof cyclic, 'object');
    assert.deepEqual(
      sampleArguments({
        type: 'object',
        properties: { remote: { $ref: 'https://example.com/schema.json' } },
        required: ['remote'],
      }),
      {},
    );
  });

  test('no schema, or a schema that is not an object, gives no arguments', () => {
    assert.deepEqual(sampleArguments(undefined), {});
    assert.deepEqual(sampleArguments({ type: 'string' }), {});
  });
});
