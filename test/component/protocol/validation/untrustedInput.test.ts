/**
 * Everything a server sends is untrusted: patterns, schemas, results, names and descriptions. Each attack here
 * must end in a verdict (a validation error, "could not be evaluated", "too deeply nested", a raw JSON field),
 * never a frozen thread, a stack overflow or a lost result. Attacks that would block the thread today run in
 * a child process (test/fixtures/hostile/untrusted-cases.ts) that the test kills on timeout.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { McpError } from '../../../../src/protocol/errors';
import type { ElicitRequest } from '../../../../src/protocol/types';
import {
  assertFlatElicitationSchema,
  checkElicitationSchema,
  withFlatElicitationSchemas,
} from '../../../../src/protocol/validation/elicitationSchema';
import {
  compileLinearPattern,
  estimatePatternSize,
  MAX_PATTERN_SIZE,
} from '../../../../src/protocol/validation/linearRegExp';
import { validateSamplingRequest } from '../../../../src/protocol/validation/samplingValidation';
import {
  MAX_REPORTED_ERRORS,
  MAX_SCHEMA_OBJECTS,
  MAX_VALIDATION_STEPS,
  PATTERN_BUDGET_CHARS,
  SchemaValidator,
  type ValidationVerdict,
} from '../../../../src/protocol/validation/schemaValidation';
import { jsonPreview, MAX_INDENT_LEVELS, toJsonText, truncateForDisplay } from '../../../../src/workbench/display';
import { applySchemaDefaults } from '../../../../src/workbench/forms/elicitationDefaults';
import {
  buildFormModel,
  defaultValues,
  MAX_DESCRIPTION_LENGTH,
  MAX_FORM_FIELDS,
  MAX_FORM_OPTIONS,
  type FormField,
} from '../../../../src/workbench/forms/formModel';
import { maskSecrets } from '../../../../src/workbench/secrets';
import { countFields, fanOutSchema } from '../../../fixtures/hostile/untrusted-cases';
import { HOSTILE_SERVER, REPO_ROOT, collectingLogger, delay, textOf, trackedStdio } from '../../../support/testSupport';

const CASES = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'untrusted-cases.ts');

/** Runs a case in a child process; a case that does not finish within `timeoutMs` is killed and fails the test. */
function runCase(name: string, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CASES, name],
      { cwd: REPO_ROOT, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`case ${name} ${error.killed ? `did not finish within ${timeoutMs} ms` : 'failed'}: ${stderr}`),
          );
        else resolve(JSON.parse(stdout));
      },
    );
  });
}

function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

const RECURSIVE_ARRAY_SCHEMA = { anyOf: [{ type: 'array', items: { $ref: '#' } }, { type: 'number' }] };
/** `nested` is arrays of arrays of ... numbers, at any depth. */
const NESTED_OUTPUT_SCHEMA = {
  type: 'object',
  properties: { nested: { $ref: '#/$defs/nested' } },
  $defs: { nested: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/nested' } }, { type: 'number' }] } },
};

function assertUnchecked(verdict: ValidationVerdict | undefined, ...excerpts: string[]): void {
  assert.equal(verdict?.kind, 'unchecked', `expected an unchecked verdict, got ${JSON.stringify(verdict)}`);
  const reason = verdict?.kind === 'unchecked' ? verdict.reason : '';
  for (const excerpt of excerpts)
    assert.ok(reason.includes(excerpt), `the reason mentions ${JSON.stringify(excerpt)}: ${reason}`);
}

function field(model: FormField, name: string): FormField {
  assert.equal(model.kind, 'object', `expected an object form, got ${model.kind}`);
  const found = model.kind === 'object' ? model.fields.find((f) => f.name === name) : undefined;
  assert.ok(found, `field ${name}`);
  return found;
}

describe('regular expressions from servers run in linear time', () => {
  test(
    'a catastrophic pattern in an outputSchema yields a verdict naming the pattern',
    { timeout: 40_000 },
    async () => {
      const verdict = (await runCase('validator-catastrophic')) as ValidationVerdict;
      assert.equal(verdict.kind, 'invalid');
      assert.deepEqual(verdict.kind === 'invalid' && verdict.errors, ['(root) must match pattern "^(a+)+$"']);
    },
  );

  test('a catastrophic patternProperties key is evaluated in linear time too', { timeout: 40_000 }, async () => {
    const verdict = (await runCase('validator-catastrophic-pattern-properties')) as ValidationVerdict;
    assert.deepEqual(verdict, { kind: 'invalid', errors: ['/aaa must be number'] });
  });

  test('end to end: a hostile server whose outputSchema pattern is catastrophic', { timeout: 40_000 }, async () => {
    const verdict = (await runCase('client-catastrophic')) as ValidationVerdict;
    assert.deepEqual(verdict, { kind: 'invalid', errors: ['/word must match pattern "^(a+)+$"'] });
  });

  test('a backreference cannot run in linear time: the verdict names the pattern and keeps the other checks', () => {
    const schema = {
      type: 'object',
      properties: { twice: { type: 'string', pattern: '^(a)\\1$' }, count: { type: 'number' } },
    };
    const validator = new SchemaValidator();
    assertUnchecked(
      validator.validate(schema, { twice: 'aa', count: 'three' }),
      'pattern "^(a)\\\\1$" could not be evaluated',
      'backreferences',
      '/count must be number',
    );
    assertUnchecked(validator.validate(schema, { twice: 'aa', count: 3 }), 'could not be evaluated');
    // The pattern is only reported where it applies: no string, no note.
    assert.deepEqual(validator.validate(schema, { count: 3 }), { kind: 'valid' });
  });

  test('lookahead, and a pattern that is not a regular expression, give verdicts rather than exceptions', () => {
    const validator = new SchemaValidator();
    assertUnchecked(
      validator.validate({ patternProperties: { '^(?=x)': { type: 'number' } } }, { x: 1 }),
      '"^(?=x)"',
      'lookahead',
    );
    assertUnchecked(validator.validate({ type: 'string', pattern: '(' }, 'x'), 'not a valid regular expression');
  });

  test('patterns keep their ECMAScript meaning on the linear engine', () => {
    const subjects = [
      '',
      'a',
      'abc',
      'a\nb',
      'a\rb',
      '\u2028',
      ' ',
      '\u00a0',
      '\ufeff',
      '\t',
      '\v',
      'é',
      'É',
      '😀',
      'x😀y',
      '\u0000',
      'ab12',
      'A_b',
      'a.b',
      'a/b',
      '[',
      ']',
      '-',
      '\b',
      'abc\n',
      'Ωmega',
      '中文',
      '😁',
      'a😀',
      'x@y.zz',
      '\n',
      ' \n',
    ];
    const patterns = [
      '^[a-z]+$',
      '^\\d{2,}$',
      '\\s',
      '^\\S+$',
      '^.$',
      '^.+$',
      '[^]',
      '^[\\s\\S]*$',
      '^\\u00e9$',
      '\\u{1F600}',
      '^\\uD83D\\uDE00$',
      '^[\\u0000-\\u007F]*$',
      '\\p{L}',
      '^\\p{Lu}',
      '\\p{Script=Greek}',
      '\\P{L}',
      '\\w',
      '\\bab',
      '\\/',
      '[\\-]',
      '^[^\\s]+$',
      '[\\b]',
      '\\cJ',
      '\\0',
      '(?<word>[a-z]+)\\d',
      'abc$',
      '^$',
      'a|b|c',
      '(?:ab)+',
      'a{2}',
      '\\x41',
      '^[[a]+$',
      '[a-c-]',
      '(?<=a)b',
      '(?<!a)b',
      '[\\p{Script=Han}]+',
      '[😀-😂]',
      '^[^a]$',
      '\\D',
      '\\W',
      '^\\s*$',
      '[^\\S\\n]',
      '^(?:\\d+|[a-z]+)$',
      'a*?b',
      '^\\w+@\\w+\\.\\w{2,}$',
    ];
    for (const pattern of patterns) {
      const linear = compileLinearPattern(pattern);
      assert.equal(linear.kind, 'linear', `${pattern}: ${linear.kind === 'unsupported' ? linear.reason : ''}`);
      const native = new RegExp(pattern, 'u');
      for (const subject of subjects) {
        assert.equal(
          linear.kind === 'linear' && linear.test(subject),
          native.test(subject),
          `${JSON.stringify(pattern)} on ${JSON.stringify(subject)}`,
        );
      }
    }
  });

  test('strings past the pattern budget are reported as not evaluated, not silently passed', () => {
    const verdict = new SchemaValidator().validate({ type: 'array', items: { type: 'string', pattern: '^x+$' } }, [
      'x'.repeat(PATTERN_BUDGET_CHARS / 2),
      'x'.repeat(PATTERN_BUDGET_CHARS / 2 + 1),
    ]);
    assertUnchecked(verdict, 'pattern "^x+$" could not be evaluated', 'budget');
    // Formats draw on the same budget: their checks are linear but take seconds on 100 MB.
    const half = 'a'.repeat(PATTERN_BUDGET_CHARS / 2);
    const emails = [`${half}@example.com`, `${half}@example.com`];
    assertUnchecked(
      new SchemaValidator().validate({ type: 'array', items: { type: 'string', format: 'email' } }, emails),
      'format "email" could not be evaluated',
      'budget',
    );
    assert.deepEqual(new SchemaValidator().validate({ type: 'string', format: 'email' }, emails[0]), { kind: 'valid' });
    // The uri expression runs on the linear engine at several budget units per character (ajv-formats' native
    // expression exhausted its backtracking stack on 8 M characters): a verdict, not a RangeError.
    assertUnchecked(
      new SchemaValidator().validate({ type: 'string', format: 'uri' }, `x:${half}`),
      'format "uri" could not be evaluated',
      'budget',
    );
    assert.deepEqual(new SchemaValidator().validate({ type: 'string', format: 'uri' }, `x:${'a'.repeat(100_000)}`), {
      kind: 'valid',
    });
  });

  test('a pattern whose repetitions expand too far is refused before compiling; big programs pay per character', () => {
    assert.equal(estimatePatternSize('^[a-z0-9-]+$'), 4);
    assert.equal(estimatePatternSize('^\\d{4}-\\d{2}$'), 9);
    assert.equal(estimatePatternSize('(a{10}){10}'), 110);
    assert.ok(estimatePatternSize('(?:[a-z]{1000}){600}') > MAX_PATTERN_SIZE);
    const validator = new SchemaValidator();
    // 600,000 instructions unrolled, each of which may be alive at every character of the subject.
    assertUnchecked(
      validator.validate({ type: 'string', pattern: '(?:[a-z]{1000}){600}' }, 'abc'),
      'could not be evaluated',
      'repetitions expand to about 601800 steps',
    );
    // 700 Unicode classes compile (under the size limit) but cost far more per character than ^[a-z]+$.
    const classes = '[\\p{L}\\p{N}]'.repeat(700);
    assertUnchecked(
      validator.validate({ type: 'string', pattern: classes }, 'a'.repeat(1_000_000)),
      'could not be evaluated',
      'budget',
    );
    assert.deepEqual(validator.validate({ type: 'string', pattern: '^[a-z]+$' }, 'a'.repeat(1_000_000)), {
      kind: 'valid',
    });
  });

  test("one schema's patterns share a compilation budget", () => {
    const properties: Record<string, unknown> = {};
    // Twenty distinct alternations of about 5,000 steps each: 100,000 together, twice the budget.
    for (let p = 0; p < 20; p++)
      properties[`p${p}`] = { type: 'string', pattern: Array.from({ length: 1000 }, (_, i) => `q${p}x${i}`).join('|') };
    const value = Object.fromEntries(Object.keys(properties).map((name) => [name, 'none']));
    const verdict = new SchemaValidator().validate({ type: 'object', properties }, value);
    assertUnchecked(verdict, "the schema's patterns together exceed the compilation budget");
  });

  test('error lines and compile errors quoting a 100 MB name or $ref are cut short', () => {
    const huge = 'k'.repeat(100 * 1024 * 1024);
    const verdict = new SchemaValidator().validate(
      { type: 'object', additionalProperties: { type: 'number' } },
      { [huge]: 'x' },
    );
    assert.equal(verdict.kind, 'invalid');
    assert.ok(
      verdict.kind === 'invalid' && verdict.errors.every((line) => line.length <= 1_001),
      'error lines are bounded',
    );
    const unresolved = new SchemaValidator().validate(
      { properties: { x: { $ref: `#/$defs/${'r'.repeat(1024 * 1024)}` } } },
      { x: 1 },
    );
    assertUnchecked(unresolved, 'schema could not be compiled', "can't resolve reference");
    assert.ok(unresolved.kind === 'unchecked' && unresolved.reason.length < 1_100, 'the reason is bounded');
    assertUnchecked(
      new SchemaValidator().validate({ properties: { x: { $ref: `#/$defs/${huge}` } } }, { x: 1 }),
      'too large to compile',
    );
  });

  test('the url format runs in linear time', { timeout: 40_000 }, async () => {
    const validator = new SchemaValidator();
    const schema = { type: 'string', format: 'url' };
    assert.equal(validator.validate(schema, 'https://example.com/path?q=1').kind, 'valid');
    assert.equal(validator.validate(schema, 'ftp://files.example.com/a.txt').kind, 'valid');
    assert.equal(validator.validate(schema, 'mailto:someone@example.com').kind, 'invalid');
    assert.equal(validator.validate(schema, 'https://exa mple.com').kind, 'invalid');
    assert.deepEqual(await runCase('validator-url-format'), {
      kind: 'invalid',
      errors: ['(root) must match format "url"'],
    });
  });

  test(
    'uniqueItems over 200,000 objects is linear, in both dialects, with JSON equality',
    { timeout: 40_000 },
    async () => {
      assert.deepEqual(await runCase('validator-unique-items'), [
        { kind: 'valid' },
        { kind: 'invalid', errors: ['(root) must NOT have duplicate items (items ## 7 and 200000 are identical)'] },
      ]);
      const validator = new SchemaValidator();
      assert.deepEqual(
        validator.validate({ uniqueItems: true }, [
          { a: 1, b: [2] },
          { b: [2], a: 1 },
        ]),
        { kind: 'invalid', errors: ['(root) must NOT have duplicate items (items ## 0 and 1 are identical)'] },
      );
      assert.equal(validator.validate({ uniqueItems: true }, [1, 1.0]).kind, 'invalid');
      assert.equal(validator.validate({ uniqueItems: true }, ['1', 1, [1], { 1: 1 }]).kind, 'valid');
      assert.equal(validator.validate({ uniqueItems: false }, [1, 1]).kind, 'valid');
    },
  );
});

describe('deep and huge data from servers', () => {
  test('100,000 nested arrays against a recursive schema: a verdict, no RangeError', () => {
    const verdict = new SchemaValidator().validate(NESTED_OUTPUT_SCHEMA, { nested: nestedArrays(100_000) });
    assertUnchecked(verdict, 'too deeply nested to validate');
    // The same validator still works afterwards.
    assert.deepEqual(new SchemaValidator().validate(RECURSIVE_ARRAY_SCHEMA, nestedArrays(50)), { kind: 'valid' });
  });

  test('a schema nested deeper than ajv can compile: a verdict, no RangeError', () => {
    // 900 levels is within the subschema limit, so it reaches ajv, whose compiler recurses per level.
    let schema: Record<string, unknown> = { type: 'number' };
    for (let i = 0; i < 900; i++) schema = { type: 'array', items: schema };
    assertUnchecked(new SchemaValidator().validate(schema, []), 'too deeply nested or too large to compile');
    let deeper: Record<string, unknown> = { type: 'number' };
    for (let i = 0; i < 100_000; i++) deeper = { type: 'array', items: deeper };
    assertUnchecked(new SchemaValidator().validate(deeper, []), 'too large to validate');
  });

  test(
    'a schema with 100,000 properties is refused before ajv generates code for it',
    { timeout: 40_000 },
    async () => {
      // ajv takes one to two milliseconds per subschema: this one would freeze the host for minutes.
      const verdict = (await runCase('validator-huge-schema')) as ValidationVerdict;
      assertUnchecked(verdict, `the schema is too large to validate (more than ${MAX_SCHEMA_OBJECTS} subschemas)`);
      assertUnchecked(
        new SchemaValidator().validate({ allOf: Array.from({ length: 1_000_000 }, () => ({})) }, 1),
        'too large to validate',
      );
      // Data inside enum, const and default is not counted: a 10,000-value enum is fine.
      const values = Array.from({ length: 10_000 }, (_, i) => ({ id: i }));
      assert.deepEqual(new SchemaValidator().validate({ enum: values, default: values }, { id: 7 }), { kind: 'valid' });
    },
  );

  test('200,000 failing items give a bounded error list', () => {
    const verdict = new SchemaValidator().validate(
      { type: 'array', items: { type: 'number' } },
      new Array(200_000).fill('x'),
    );
    assert.equal(verdict.kind, 'invalid');
    const errors = verdict.kind === 'invalid' ? verdict.errors : [];
    assert.equal(errors.length, MAX_REPORTED_ERRORS + 1);
    assert.equal(errors.at(-1), `… and ${200_000 - MAX_REPORTED_ERRORS} more errors`);
  });

  test(
    'alternatives that multiply (2^40 evaluations) stop at the step limit with a verdict',
    { timeout: 40_000 },
    async () => {
      const stopped = `validation stopped after ${MAX_VALIDATION_STEPS} steps`;
      const [throughReferences, throughTheValue] = (await runCase(
        'validator-exponential-alternatives',
      )) as ValidationVerdict[];
      assertUnchecked(throughReferences, stopped);
      assertUnchecked(throughTheValue, stopped);
      // 100,000 ordinary rows stay well within the limit.
      const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `n${i}` }));
      const rowSchema = {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] },
      };
      assert.deepEqual(new SchemaValidator().validate(rowSchema, rows), { kind: 'valid' });
    },
  );

  test('masking secrets in a value nested 100,000 levels deep keeps the whole value', () => {
    const value = { params: nestedArrays(100_000), authorization: 'Bearer abcdefghijkl' };
    const masked = maskSecrets(value, ['abcdefghijkl']);
    assert.equal(masked.authorization, 'Bearer ••••');
    let depth = 0;
    for (let node: unknown = masked.params; Array.isArray(node); node = node[0]) depth += 1;
    assert.equal(depth, 100_000);
  });

  test('a 100 MB description: the form model truncates it, defaults and validation still work', () => {
    const huge = 'd'.repeat(100 * 1024 * 1024);
    const schema = {
      type: 'object',
      description: huge,
      properties: { city: { type: 'string', title: huge, description: huge, default: 'Paris' } },
    };
    const model = buildFormModel(schema);
    const city = field(model, 'city');
    const description = city.description ?? '';
    assert.ok(description.length < MAX_DESCRIPTION_LENGTH + 50, `description of ${description.length} characters`);
    assert.ok(
      description.endsWith('… (104,847,600 more characters)'),
      `description ends with ${JSON.stringify(description.slice(-60))}`,
    );
    assert.ok(city.label.length < 300);
    assert.deepEqual(defaultValues(model), { city: 'Paris' });
    assert.deepEqual(applySchemaDefaults(schema), { city: 'Paris' });
    assert.deepEqual(new SchemaValidator().validate(schema, { city: huge }), { kind: 'valid' });
  });

  test('a sampling request whose toolUseId is nested 100,000 levels deep is refused with a short message', () => {
    const request = (toolUseId: unknown) => ({
      maxTokens: 10,
      messages: [{ role: 'user', content: { type: 'tool_result', toolUseId, content: [] } }],
    });
    assert.equal(
      validateSamplingRequest(request(nestedArrays(100_000)), true),
      'message 0 has a tool_result for unknown toolUseId an array',
    );
    assert.equal(
      validateSamplingRequest(request('t'.repeat(1_000_000)), true),
      `message 0 has a tool_result for unknown toolUseId "${'t'.repeat(100)}…"`,
    );
    assert.equal(
      validateSamplingRequest(request('abc'), true),
      'message 0 has a tool_result for unknown toolUseId "abc"',
    );
  });

  test('the form model never stringifies a deeply nested const or enum value', () => {
    const deep = nestedArrays(100_000);
    const model = buildFormModel({
      type: 'object',
      properties: {
        titled: {
          oneOf: [
            { const: deep, title: 'Deep' },
            { const: 'x', title: 'X' },
          ],
        },
        many: { type: 'array', items: { type: 'string', enum: [deep, 'a'] } },
        single: { type: 'string', enum: [deep, 'b'] },
      },
    });
    assert.equal(field(model, 'titled').kind, 'json');
    const many = field(model, 'many');
    assert.deepEqual(many.kind === 'multi-enum' && many.options, [{ value: 'a', label: 'a' }]);
    const single = field(model, 'single');
    assert.deepEqual(single.kind === 'enum' && single.options, [{ value: 'b', label: 'b' }]);
  });

  test('truncateForDisplay keeps short text, cuts long text with a count, never splits a surrogate pair', () => {
    assert.equal(truncateForDisplay('short', 10), 'short');
    assert.equal(truncateForDisplay('abcdef', 3), 'abc… (3 more characters)');
    assert.equal(truncateForDisplay('ab😀', 3), 'ab… (2 more characters)');
    assert.equal(truncateForDisplay('abcd', 3), 'abc… (1 more character)');
    assert.equal(
      truncateForDisplay('x'.repeat(100 * 1024 * 1024), 20),
      `${'x'.repeat(20)}… (104,857,580 more characters)`,
    );
  });
  test('toJsonText writes what JSON.stringify writes, at any depth', () => {
    const samples: unknown[] = [
      null,
      0,
      -0,
      1.5,
      NaN,
      'text "quoted"\n',
      true,
      [],
      {},
      [undefined, () => 1],
      { a: undefined, b: 1 },
      { nested: { list: [1, [2, [3, {}]], { x: [] }], empty: [] }, date: new Date(0), 'key "q"': 'v' },
      [[[]], [{}], [[1], 2]],
    ];
    for (const sample of samples) {
      for (const indent of [undefined, 0, 2, '\t', 'abcdefghijklmn', 20]) {
        assert.equal(
          toJsonText(sample, indent),
          JSON.stringify(sample, null, indent),
          `${JSON.stringify(sample)} with indent ${JSON.stringify(indent)}`,
        );
      }
    }
    assert.equal(toJsonText(undefined), undefined);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.throws(() => toJsonText(circular), TypeError);
    assert.equal(toJsonText({ shared: [1], again: [1] }), '{"shared":[1],"again":[1]}');

    const depth = 100_000;
    assert.throws(() => JSON.stringify(nestedArrays(depth)), RangeError);
    assert.equal(toJsonText(nestedArrays(depth)), `${'['.repeat(depth)}1${']'.repeat(depth)}`);
    const indented = toJsonText({ nested: nestedArrays(depth) }, 2) ?? '';
    // Indentation stops growing, so the text stays linear in the depth, and it is still the same JSON.
    assert.ok(indented.length < depth * 2 * (MAX_INDENT_LEVELS * 2 + 4), `${indented.length} characters`);
    let parsed: unknown = (JSON.parse(indented) as { nested: unknown }).nested;
    let levels = 0;
    for (; Array.isArray(parsed); parsed = parsed[0]) levels += 1;
    assert.equal(levels, depth);
  });

  test('jsonPreview stops at its limit, even inside a 100 MB string', () => {
    assert.equal(jsonPreview({ a: [1, 'two'] }, 100), '{"a":[1,"two"]}');
    assert.equal(jsonPreview({ a: [1, 'two'] }, 8), '{"a":[1,… (truncated)');
    assert.equal(jsonPreview(undefined, 10), 'undefined');
    const preview = jsonPreview([{ type: 'text', text: 'x'.repeat(100 * 1024 * 1024) }], 40);
    assert.equal(preview, `[{"type":"text","text":"${'x'.repeat(16)}… (truncated)`);
    assert.equal(jsonPreview(nestedArrays(100_000), 5), '[[[[[… (truncated)');
  });
});

describe('form generation is bounded in total size', () => {
  test('a $ref cycle becomes a JSON field that names the reference', () => {
    const model = buildFormModel({
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } } } },
    });
    const tree = field(model, 'tree');
    assert.equal(field(tree, 'label').kind, 'string');
    const child = field(tree, 'child');
    assert.equal(child.kind, 'json');
    assert.match(child.kind === 'json' ? child.reason : '', /recursive schema \(\$ref "#\/\$defs\/node"/);
  });

  test('exponential $ref fan-out stops at the field budget with JSON fields', { timeout: 40_000 }, async () => {
    const { fields, json } = (await runCase('form-fan-out')) as ReturnType<typeof countFields>;
    assert.ok(fields <= MAX_FORM_FIELDS, `${fields} fields`);
    const tooLarge = json.filter((reason) => reason === `too large for a form (more than ${MAX_FORM_FIELDS} fields)`);
    assert.ok(tooLarge.length > 0, `${json.length} JSON fields, none for size: ${[...new Set(json)].join(', ')}`);
  });

  test('fan-out in-process: the count is bounded even where the depth limit alone would allow 10^8 fields', () => {
    const { fields, json } = countFields(buildFormModel(fanOutSchema(8, 10)));
    assert.ok(fields <= MAX_FORM_FIELDS);
    assert.ok(json.length > 0);
  });

  test(
    '400 references to one huge definition are refused without rescanning it each time',
    { timeout: 40_000 },
    async () => {
      const { fields, json } = (await runCase('form-repeated-huge-ref')) as ReturnType<typeof countFields>;
      assert.equal(fields, 401);
      assert.equal(json.filter((reason) => reason.startsWith('too large for a form')).length, 200);
      assert.equal(json.filter((reason) => reason === 'too many choices for a form (200000)').length, 200);
    },
  );

  test('an object with 100,000 properties is one JSON field; a 100,000-value enum too', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) properties[`p${i}`] = { type: 'string' };
    const wide = buildFormModel({ type: 'object', properties });
    assert.equal(wide.kind, 'json');
    assert.match(wide.kind === 'json' ? wide.reason : '', /too large for a form/);
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const model = buildFormModel({
      type: 'object',
      properties: {
        pick: { type: 'string', enum: values },
        many: { type: 'array', items: { type: 'string', enum: values } },
      },
    });
    assert.equal(field(model, 'pick').kind, 'json');
    assert.equal(field(model, 'many').kind, 'json');
    assert.ok(100_000 > MAX_FORM_OPTIONS);
  });
});

describe('elicitation schemas outside the flat primitive subset are refused', () => {
  const flat = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, format: 'email', default: 'a@b.c' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
      age: { type: 'integer', minimum: 0 },
      ratio: { type: 'number' },
      ok: { type: 'boolean', default: true },
      color: { type: 'string', enum: ['r', 'g'] },
      titled: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
      legacy: { type: 'string', enum: ['a'], enumNames: ['Alpha'] },
      many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 2 },
      manyTitled: { type: 'array', items: { anyOf: [{ const: 'p', title: 'Pee' }] } },
      // Nullable primitives, as the Python SDK generates for Optional[str]: still flat.
      nickname: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Nickname' },
      height: { type: ['number', 'null'] },
    },
    required: ['name'],
  };

  test('every PrimitiveSchemaDefinition shape of the 2025-11-25 schema is accepted', () => {
    assert.deepEqual(checkElicitationSchema(flat), { kind: 'flat' });
    assert.deepEqual(checkElicitationSchema({ type: 'object', properties: {} }), { kind: 'flat' });
  });

  for (const [label, schema, excerpt] of [
    [
      'a nested object',
      { type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } },
      'property "address" is a nested object',
    ],
    [
      'an array of objects',
      { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } } },
      'property "rows" is an array whose items are not string enum options',
    ],
    [
      'a $ref',
      { type: 'object', properties: { x: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } },
      'uses "$defs"',
    ],
    [
      'a composition',
      { type: 'object', properties: { x: { type: 'string', anyOf: [{ minLength: 1 }] } } },
      'property "x" uses "anyOf"',
    ],
    ['a non-object root', { type: 'array', items: { type: 'string' } }, 'must have type "object", got "array"'],
    ['no properties', { type: 'object' }, 'must have an object of properties'],
    ['an untyped property', { type: 'object', properties: { x: {} } }, 'property "x" has type none'],
    [
      'a union with an object',
      { type: 'object', properties: { x: { anyOf: [{ type: 'string' }, { type: 'object' }] } } },
      'property "x" combines schemas that are not primitive types',
    ],
    [
      'a union of two primitives and an object type list',
      { type: 'object', properties: { x: { type: ['string', 'object'] } } },
      'only one primitive type',
    ],
    [
      'a huge nested type',
      { type: 'object', properties: { x: { type: nestedArrays(100_000) } } },
      'property "x" has type an array',
    ],
  ] as const) {
    test(`refused: ${label}`, () => {
      const check = checkElicitationSchema(schema);
      assert.equal(check.kind, 'refused');
      assert.ok(
        check.kind === 'refused' && check.reason.includes(excerpt),
        `${JSON.stringify(check)} mentions ${excerpt}`,
      );
      assert.throws(
        () => assertFlatElicitationSchema(schema),
        (error) =>
          error instanceof McpError &&
          error.code === -32602 &&
          error.message.startsWith(`Invalid elicitation request: `) &&
          error.message.includes(excerpt),
      );
    });
  }

  for (const wrapped of [true, false]) {
    test(
      `end to end${wrapped ? ' (handler wrapped)' : ' (the client alone)'}: a nested request is refused with -32602, a flat one is served`,
      { timeout: 20_000 },
      async () => {
        const seen: ElicitRequest[] = [];
        const handler = {
          modes: ['form'] as const,
          elicit: async (request: ElicitRequest) => {
            seen.push(request);
            return { action: 'accept' as const, content: applySchemaDefaults(request.requestedSchema) };
          },
        };
        const { transport } = trackedStdio({
          command: process.execPath,
          args: [HOSTILE_SERVER, 'elicit-nested'],
          shutdownGraceMs: 500,
        });
        const client = new McpClient({
          serverName: 'hostile-elicit-nested',
          transport,
          logger: collectingLogger(),
          host: {
            elicitation: wrapped ? withFlatElicitationSchemas(handler) : handler,
          },
        });
        try {
          await client.connect();
          await client.callTool('trigger');
          type Answer = {
            id?: unknown;
            result?: { action?: string; content?: unknown };
            error?: { code?: number; message?: string };
          };
          let answers: Answer[] = [];
          for (let i = 0; i < 100 && answers.length < 2; i++) {
            const outcome = await client.callTool('report');
            answers = (JSON.parse(textOf(outcome.result.content)) as { received: Answer[] }).received.filter((m) =>
              String(m.id).startsWith('srv-elicit'),
            );
            if (answers.length < 2) await delay(20);
          }
          const nested = answers.find((m) => m.id === 'srv-elicit-nested');
          assert.equal(nested?.error?.code, -32602, JSON.stringify(nested));
          assert.match(
            nested?.error?.message ?? '',
            /Invalid elicitation request: property "address" is a nested object/,
          );
          const flatAnswer = answers.find((m) => m.id === 'srv-elicit-flat');
          assert.deepEqual(flatAnswer?.result, { action: 'accept', content: { name: 'Ada' } });
          assert.deepEqual(
            seen.map((r) => r.message),
            ['name?'],
          );
        } finally {
          await client.close();
        }
      },
    );
  }
});

describe('hostile servers through the real client', () => {
  test(
    '100,000 nested arrays in structuredContent: the result arrives with a verdict',
    { timeout: 30_000 },
    async () => {
      const { transport } = trackedStdio({
        command: process.execPath,
        args: [HOSTILE_SERVER, 'deep-structured'],
        shutdownGraceMs: 500,
      });
      const client = new McpClient({ serverName: 'hostile-deep-structured', transport, logger: collectingLogger() });
      try {
        await client.connect();
        await client.listTools();
        const outcome = await client.callTool('deep', { depth: 100_000 });
        assert.equal(textOf(outcome.result.content), 'deep');
        assertUnchecked(outcome.outputValidation, 'too deeply nested to validate');
        const shallow = await client.callTool('deep', { depth: 10 });
        assert.deepEqual(shallow.outputValidation, { kind: 'valid' });
      } finally {
        await client.close();
      }
    },
  );

  test(
    'a 100 MB tool description arrives whole and is truncated for display and forms',
    { timeout: 60_000 },
    async () => {
      const { transport } = trackedStdio({
        command: process.execPath,
        args: [HOSTILE_SERVER, 'huge-description'],
        shutdownGraceMs: 500,
      });
      const client = new McpClient({
        serverName: 'hostile-huge-description',
        transport,
        logger: collectingLogger(),
        requestTimeoutMs: 50_000,
      });
      try {
        await client.connect();
        const tools = await client.listTools();
        const described = tools.find((tool) => tool.name === 'described');
        assert.equal(described?.description?.length, 100 * 1024 * 1024);
        assert.equal(truncateForDisplay(described?.description ?? '', 80).length < 120, true);
        const city = field(buildFormModel(described?.inputSchema), 'city');
        assert.ok(
          (city.description ?? '').endsWith('more characters)'),
          `description of ${city.description?.length} characters`,
        );
        assert.deepEqual(new SchemaValidator().validate(described?.inputSchema, { city: 'Paris' }), { kind: 'valid' });
      } finally {
        await client.close();
      }
    },
  );
});
