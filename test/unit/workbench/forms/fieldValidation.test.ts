import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromSchemaErrors, validateFormValues } from '../../../../src/workbench/forms/fieldValidation';
import { buildFormModel } from '../../../../src/workbench/forms/formModel';
import { SchemaValidator } from '../../../../src/protocol/validation/schemaValidation';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    email: { type: 'string', format: 'email' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    color: { type: 'string', enum: ['red', 'green'] },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  required: ['name', 'age', 'address'],
};
const model = buildFormModel(schema);

test('an empty required string is "required", like a missing required number', () => {
  assert.deepEqual(validateFormValues(model, { name: '', address: { city: 'Oslo' } }), [
    { path: '/name', problem: { kind: 'required' } },
    { path: '/age', problem: { kind: 'required' } },
  ]);
  assert.deepEqual(validateFormValues(model, { name: '   ', age: 3, address: { city: '' } }), [
    { path: '/name', problem: { kind: 'required' } },
    { path: '/address/city', problem: { kind: 'required' } },
  ]);
});

test('each field gets its own problem, with the limit it broke', () => {
  const errors = validateFormValues(model, {
    name: 'A',
    email: 'not-an-email',
    age: 2.5,
    color: 'blue',
    tags: ['a', 'b', 'c'],
    address: { city: 'X' },
  });
  assert.deepEqual(errors, [
    { path: '/name', problem: { kind: 'too-short', minLength: 2 } },
    { path: '/email', problem: { kind: 'format', format: 'email' } },
    { path: '/age', problem: { kind: 'not-an-integer' } },
    { path: '/color', problem: { kind: 'not-an-option' } },
    { path: '/tags', problem: { kind: 'too-many-items', maxItems: 2 } },
  ]);
  assert.deepEqual(validateFormValues(model, { name: 'Ada', age: 'two', address: { city: 'X' } }), [
    { path: '/age', problem: { kind: 'not-a-number' } },
  ]);
  assert.deepEqual(validateFormValues(model, { name: 'Ada', age: 200, address: { city: 'X' } }), [
    { path: '/age', problem: { kind: 'too-large', maximum: 150 } },
  ]);
});

test('valid values have no problems, and optional blanks are fine', () => {
  assert.deepEqual(
    validateFormValues(model, { name: 'Ada', email: 'ada@example.com', age: 36, address: { city: 'London' } }),
    [],
  );
  assert.deepEqual(validateFormValues(model, { name: 'Ada', email: '', age: 36, address: { city: 'London' } }), []);
});

test("the schema validator's findings land on fields: a missing property on that property", () => {
  const verdict = new SchemaValidator().validate(
    { type: 'object', properties: { a: { type: 'number' }, b: { not: { const: 1 } } }, required: ['a'] },
    { b: 1 },
  );
  assert.equal(verdict.kind, 'invalid');
  const errors = fromSchemaErrors(verdict.kind === 'invalid' ? verdict.errors : []);
  assert.deepEqual(
    errors.map((error) => [error.path, error.problem.kind]),
    [
      ['/a', 'required'],
      ['/b', 'schema'],
    ],
  );
});

test("a server's catastrophic pattern runs on the linear engine: ^(a|a)+$ against 29 × a + ! answers at once", () => {
  const hostile = buildFormModel({ type: 'object', properties: { word: { type: 'string', pattern: '^(a|a)+$' } } });
  // The native RegExp takes minutes here (2^29 paths); the linear engine answers in well under the test's own timeout.
  assert.deepEqual(validateFormValues(hostile, { word: `${'a'.repeat(29)}!` }), [
    { path: '/word', problem: { kind: 'pattern', pattern: '^(a|a)+$' } },
  ]);
  assert.deepEqual(validateFormValues(hostile, { word: 'a'.repeat(29) }), []);
});
