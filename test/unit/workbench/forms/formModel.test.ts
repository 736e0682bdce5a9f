import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildFormModel, defaultValues, type FormField } from '../../../../src/workbench/forms/formModel';
import { validateFormValues } from '../../../../src/workbench/forms/fieldValidation';

function field(model: FormField, name: string): FormField {
  assert.equal(model.kind, 'object');
  const found = model.kind === 'object' ? model.fields.find((f) => f.name === name) : undefined;
  assert.ok(found, `field ${name}`);
  return found;
}

test('tool input schema: every primitive, required, defaults, nested objects, arrays, $defs', () => {
  const model = buildFormModel({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['city', 'days'],
    properties: {
      city: { type: 'string', description: 'Where', minLength: 1 },
      days: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
      ratio: { type: 'number' },
      metric: { type: 'boolean', default: true },
      unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      tags: { type: 'array', items: { type: 'string' } },
      location: { $ref: '#/$defs/point' },
      anything: { type: 'object' },
      either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      optionalText: { type: ['string', 'null'] },
    },
    $defs: {
      point: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } }, required: ['lat'] },
    },
  });
  assert.deepEqual(field(model, 'city'), {
    name: 'city',
    label: 'city',
    description: 'Where',
    required: true,
    kind: 'string',
    default: undefined,
    format: undefined,
    minLength: 1,
    maxLength: undefined,
    pattern: undefined,
    secret: undefined,
  });
  const days = field(model, 'days');
  assert.equal(days.kind, 'number');
  assert.equal(days.kind === 'number' && days.integer, true);
  assert.equal(field(model, 'ratio').kind, 'number');
  assert.equal(field(model, 'metric').kind, 'boolean');
  const unit = field(model, 'unit');
  assert.equal(unit.kind, 'enum');
  assert.deepEqual(unit.kind === 'enum' && unit.options.map((o) => o.value), ['c', 'f']);
  const tags = field(model, 'tags');
  assert.equal(tags.kind === 'array' && tags.item.kind, 'string');
  const location = field(model, 'location');
  assert.equal(location.kind, 'object');
  assert.deepEqual(location.kind === 'object' && location.fields.map((f) => [f.name, f.required]), [
    ['lat', true],
    ['lon', false],
  ]);
  assert.equal(field(model, 'anything').kind, 'json');
  assert.equal(field(model, 'either').kind, 'json');
  assert.equal(field(model, 'optionalText').kind, 'string');
  assert.deepEqual(defaultValues(model), { days: 3, metric: true, unit: 'c' });
});

test('elicitation schemas: titled single select, legacy enumNames, multi-select variants, formats', () => {
  const model = buildFormModel({
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', title: 'E-mail' },
      color: {
        type: 'string',
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green' },
        ],
        default: 'g',
      },
      legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
      many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['x'], maxItems: 2 },
      manyTitled: {
        type: 'array',
        items: {
          anyOf: [
            { const: 'p', title: 'Pee' },
            { const: 'q', title: 'Queue' },
          ],
        },
      },
    },
  });
  const email = field(model, 'email');
  assert.equal(email.label, 'E-mail');
  assert.equal(email.kind === 'string' && email.format, 'email');
  const color = field(model, 'color');
  assert.deepEqual(color.kind === 'enum' && color.options, [
    { value: 'r', label: 'Red' },
    { value: 'g', label: 'Green' },
  ]);
  const legacy = field(model, 'legacy');
  assert.deepEqual(legacy.kind === 'enum' && legacy.options.map((o) => o.label), ['Alpha', 'Beta']);
  const many = field(model, 'many');
  assert.equal(many.kind, 'multi-enum');
  assert.deepEqual(many.kind === 'multi-enum' && [many.default, many.maxItems], [['x'], 2]);
  const manyTitled = field(model, 'manyTitled');
  assert.deepEqual(manyTitled.kind === 'multi-enum' && manyTitled.options.map((o) => o.label), ['Pee', 'Queue']);
  assert.deepEqual(defaultValues(model), { color: 'g', many: ['x'] });
});

test('a network $ref is never followed, and cycles stop', () => {
  const model = buildFormModel({
    type: 'object',
    properties: { remote: { $ref: 'https://example.com/schema.json' }, self: { $ref: '#' } },
  });
  assert.equal(field(model, 'remote').kind, 'json');
  assert.equal(field(model, 'self').kind, 'object');
});

test('no schema at all still gives a usable (empty) form', () => {
  assert.deepEqual(buildFormModel(undefined), {
    name: '',
    label: '',
    description: undefined,
    required: true,
    kind: 'object',
    fields: [],
  });
});

test('an optional nested object is absent until the person adds it, even when its fields have defaults', () => {
  const model = buildFormModel({
    type: 'object',
    properties: {
      title: { type: 'string' },
      // z.object({ name, email?, team = 'ops' }).optional(): the report's create_ticket `assignee`
      assignee: {
        type: 'object',
        properties: { name: { type: 'string' }, team: { type: 'string', default: 'ops' } },
        required: ['name'],
      },
      settings: { type: 'object', properties: { level: { type: 'integer', default: 2 } } },
    },
    required: ['title', 'settings'],
  });
  assert.equal(field(model, 'assignee').required, false);
  // The required object keeps its defaults; the optional one is left out, so its required `name` does not block.
  assert.deepEqual(defaultValues(model), { settings: { level: 2 } });
  assert.deepEqual(validateFormValues(model, defaultValues(model)), [
    { path: '/title', problem: { kind: 'required' } },
  ]);
});
