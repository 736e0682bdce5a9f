import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { AddedFormat, FormatDefinition, RegExpEngine, RegExpLike } from 'ajv/dist/types';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { compileLinearPattern, type CompileBudget } from './linearRegExp';

/**
 * JSON Schema validation for tool inputs and outputs and elicitation forms. 2020-12 is MCP's default dialect;
 * draft-07 is what many SDK servers still declare. Remote `$ref`s are never fetched (no loadSchema), so a
 * schema that needs one fails to compile and the verdict says so instead of reaching the network.
 *
 * Schemas and values both come from servers, so nothing here may block or crash the host: patterns run on a
 * linear-time engine (see linearRegExp.ts), a value or schema too deep for the stack gets a verdict instead of
 * a RangeError, and the error list is bounded.
 */

export type ValidationVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; errors: string[] }
  | { kind: 'unchecked'; reason: string };

type Dialect = 'draft-07' | '2020-12';

const DIALECTS: Record<string, Dialect> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-07/schema#': 'draft-07',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2020-12/schema#': '2020-12',
};

/**
 * Characters of string values that one validation may feed to patterns and formats, each weighed by its
 * pattern's cost per character. The linear regex engine and the format checks are linear but not free (ordinary
 * patterns run at roughly 200 million characters a second on the engine's DFA, big programs at worst about 60 ns
 * per cost unit; ajv-formats' uri at about 15 MB/s), so this caps one verdict at about a second; past it, the
 * checks are reported as not evaluated.
 */
export const PATTERN_BUDGET_CHARS = 16 * 1024 * 1024;

/** Errors listed in one verdict; a million failing array items would otherwise make a million lines. */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Schema objects one schema may contain. ajv generates and compiles code per subschema, one to two
 * milliseconds each (10,000 properties took thirteen seconds), so a larger schema gets an 'unchecked' verdict
 * instead of a frozen host; real tool schemas have tens to a few hundred.
 */
export const MAX_SCHEMA_OBJECTS = 1_000;

/** Keywords whose values are data, not subschemas: ajv does not generate code per node inside them. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'description', 'title', '$comment']);

/** Counts the schema objects of `schema` without recursion, stopping once past the limit. */
function exceedsSchemaObjects(schema: Record<string, unknown>): boolean {
  let count = 0;
  const pending: unknown[] = [schema];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    if (Array.isArray(next)) {
      // One push per item: push(...items) overflows the stack for a million-item allOf.
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    if (++count > MAX_SCHEMA_OBJECTS) return true;
    for (const [key, value] of Object.entries(next)) {
      if (!DATA_KEYWORDS.has(key) && typeof value === 'object' && value !== null) pending.push(value);
    }
  }
  return false;
}

/**
 * Subschema evaluations one validation may take. Alternatives multiply: eight lines of `anyOf: [{$ref: next},
 * {$ref: next}]` make 2^n evaluations of a failing value (22 levels took 16 s, 30 would take hours), and the
 * same happens per level of a deep value. Every subschema of the compiled copy counts its evaluations (the
 * STEP_KEYWORD below); past the limit validation stops with an 'unchecked' verdict. Ordinary values take one
 * step per value node and subschema, so only results with millions of nodes come near it.
 */
export const MAX_VALIDATION_STEPS = 1_000_000;

/** A keyword of our own, added to every subschema of the copy that is compiled. */
const STEP_KEYWORD = 'x-mcp-workbench-validation-step';

class ValidationStepsExceeded extends Error {}

function countStep(): boolean {
  if (activeRun && ++activeRun.steps > MAX_VALIDATION_STEPS) throw new ValidationStepsExceeded();
  return true;
}

/** Keywords whose value is one subschema, a list of them, or a map of them (draft-07 and 2020-12). */
const SCHEMA_KEYWORDS = new Set(['not', 'if', 'then', 'else', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems', 'items']);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `schema` with STEP_KEYWORD in every subschema; iterative, the server's schema is never modified. */
function withStepCounter(schema: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = { ...schema };
  const pending: Record<string, unknown>[] = [root];
  const copy = (value: Record<string, unknown>) => {
    const copied = { ...value };
    pending.push(copied);
    return copied;
  };
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const [key, value] of Object.entries(node)) {
      if (SCHEMA_KEYWORDS.has(key) && isPlainObject(value)) node[key] = copy(value);
      else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) node[key] = value.map((item) => (isPlainObject(item) ? copy(item) : item));
      else if (SCHEMA_MAP_KEYWORDS.has(key) && isPlainObject(value)) {
        // fromEntries defines keys (a property named __proto__ stays a property).
        node[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, isPlainObject(item) ? copy(item) : item]));
      }
    }
    node[STEP_KEYWORD] = true;
  }
  return root;
}

/** Longest pattern quoted in a verdict. */
const MAX_QUOTED_PATTERN = 200;

/**
 * What the string checks of the validation in progress could not do, keyed by a label such as
 * `pattern "^a+$"` or `format "uri"`. Validation is synchronous, so one run at a time is enough.
 */
class StringCheckRun {
  private spent = 0;
  /** Subschema evaluations so far (see MAX_VALIDATION_STEPS). */
  steps = 0;
  readonly unevaluated = new Map<string, string>();

  /** `cost`: the subject's length times the check's cost per character. */
  admit(label: string, cost: number): boolean {
    if (this.spent + cost > PATTERN_BUDGET_CHARS) {
      this.note(label, `the strings it applies to exceed the budget of ${PATTERN_BUDGET_CHARS} characters`);
      return false;
    }
    this.spent += cost;
    return true;
  }

  note(label: string, why: string): void {
    if (!this.unevaluated.has(label)) this.unevaluated.set(label, why);
  }
}

let activeRun: StringCheckRun | undefined;

/**
 * Pattern-compilation work one schema may cause (see linearRegExp.ts): about a second at worst, while an
 * ordinary schema's patterns use a few hundred units.
 */
export const PATTERN_COMPILE_BUDGET = 50_000;

/** The budget of the schema being compiled; ajv compiles synchronously, so one at a time. */
let activeCompile: CompileBudget | undefined;

/**
 * ajv's `code.regExp` hook. A pattern that cannot be evaluated answers `true` (no error of its own) and is
 * recorded, so the verdict can say the value was not fully checked instead of inventing a mismatch.
 */
const linearRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string): RegExpLike => {
    const compiled = compileLinearPattern(pattern, activeCompile);
    const label = `pattern ${quotePattern(pattern)}`;
    switch (compiled.kind) {
      case 'linear':
        return {
          test: (subject: string) => {
            if (activeRun && !activeRun.admit(label, subject.length * compiled.cost)) return true;
            return compiled.test(subject);
          },
          toString: () => `linear:${pattern}`,
        } as RegExpLike;
      case 'unsupported':
        return {
          test: () => {
            activeRun?.note(label, compiled.reason);
            return true;
          },
          toString: () => `unsupported:${pattern}`,
        } as RegExpLike;
      default: {
        const exhaustive: never = compiled;
        return exhaustive;
      }
    }
  },
  // Only read by ajv's standalone code generation, which this validator never uses.
  { code: 'linearRegExp' },
);

export class SchemaValidator {
  private readonly engines = new Map<Dialect, Ajv>();
  private readonly cache = new WeakMap<object, ValidateFunction | string>();

  validate(schema: unknown, value: unknown): ValidationVerdict {
    if (typeof schema !== 'object' || schema === null) return { kind: 'unchecked', reason: 'no schema' };
    const compiled = this.compile(schema as Record<string, unknown>);
    if (typeof compiled === 'string') return { kind: 'unchecked', reason: compiled };
    const run = new StringCheckRun();
    const outer = activeRun;
    activeRun = run;
    let valid: boolean;
    try {
      valid = compiled(value) as boolean;
    } catch (error) {
      if (error instanceof ValidationStepsExceeded) {
        return { kind: 'unchecked', reason: `validation stopped after ${MAX_VALIDATION_STEPS} steps (the schema's alternatives multiply, or the value is huge)` };
      }
      if (error instanceof RangeError) return { kind: 'unchecked', reason: 'the value is too deeply nested to validate' };
      return { kind: 'unchecked', reason: `validation failed: ${(error as Error).message}` };
    } finally {
      activeRun = outer;
    }
    const errors = valid ? [] : boundedErrors(compiled.errors ?? []);
    if (run.unevaluated.size > 0) {
      const notes = [...run.unevaluated].map(([label, why]) => `${label} could not be evaluated: ${why}`);
      const others = errors.length > 0 ? `; other checks reported: ${errors.join('; ')}` : '';
      return { kind: 'unchecked', reason: `${notes.join('; ')}${others}` };
    }
    return valid ? { kind: 'valid' } : { kind: 'invalid', errors };
  }

  private compile(schema: Record<string, unknown>): ValidateFunction | string {
    const cached = this.cache.get(schema);
    if (cached) return cached;
    let result: ValidateFunction | string;
    const declared = schema.$schema;
    const dialect = declared === undefined ? '2020-12' : DIALECTS[String(declared)];
    if (!dialect) {
      result = `unsupported JSON Schema dialect ${JSON.stringify(declared)}`;
    } else if (exceedsSchemaObjects(schema)) {
      result = `the schema is too large to validate (more than ${MAX_SCHEMA_OBJECTS} subschemas)`;
    } else {
      try {
        // $id would register the schema globally in Ajv; strip it so repeated tools never collide.
        const { $id: _ignored, ...withoutId } = schema;
        const outer = activeCompile;
        activeCompile = { remaining: PATTERN_COMPILE_BUDGET };
        try {
          result = this.engine(dialect).compile(withStepCounter(withoutId));
        } finally {
          activeCompile = outer;
        }
      } catch (error) {
        const message = (error as Error).message;
        // ajv's messages quote parts of the schema, such as a 100 MB $ref.
        const shown = message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message;
        result = error instanceof RangeError ? 'the schema is too deeply nested or too large to compile' : `schema could not be compiled: ${shown}`;
      }
    }
    this.cache.set(schema, result);
    return result;
  }

  private engine(dialect: Dialect): Ajv {
    let engine = this.engines.get(dialect);
    if (!engine) {
      const options = { strict: false, allErrors: true, validateFormats: true, code: { regExp: linearRegExpEngine } } as const;
      engine = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
      addFormats(engine);
      // ajv-formats' `url` is a backtracking regular expression with lookaheads that takes seconds on a
      // 50 KB string; the WHATWG URL parser is linear.
      engine.addFormat('url', { type: 'string', validate: isWebUrl });
      for (const [name, format] of Object.entries(engine.formats)) {
        if (format !== undefined) engine.addFormat(name, withinBudget(name, format));
      }
      // ajv compares every pair of items for uniqueItems: 20,000 objects take half a minute. Hashing a
      // canonical form of each item is linear.
      engine.addKeyword({ keyword: STEP_KEYWORD, schemaType: 'boolean', errors: false, validate: countStep });
      engine.removeKeyword('uniqueItems');
      engine.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}

/** A string format check that draws on the validation's budget; a string past it is noted, not checked. */
function withinBudget(name: string, format: AddedFormat): AddedFormat {
  const label = `format ${JSON.stringify(name)}`;
  const budgeted = (check: (text: string) => boolean) => (text: string) => {
    if (activeRun && !activeRun.admit(label, text.length)) return true;
    try {
      return check(text);
    } catch (error) {
      // A backtracking format expression can exhaust its stack on a long string (RangeError).
      activeRun?.note(label, `it failed on a string of ${text.length} characters (${(error as Error).message})`);
      return true;
    }
  };
  if (format instanceof RegExp) return budgeted((text) => format.test(text));
  if (typeof format === 'function') return budgeted(format);
  if (typeof format !== 'object' || format.async === true || (format.type !== undefined && format.type !== 'string')) return format;
  const validate = format.validate;
  if (typeof validate === 'string') return format;
  const check = validate instanceof RegExp ? (text: string) => validate.test(text) : (validate as (text: string) => boolean);
  const definition: FormatDefinition<string> = { ...(format as FormatDefinition<string>), type: 'string', validate: budgeted(check) };
  return definition;
}

interface UniqueItemsCheck {
  (unique: boolean, items: unknown[]): boolean;
  errors?: Partial<ErrorObject>[];
}

const uniqueItems: UniqueItemsCheck = (unique, items) => {
  uniqueItems.errors = undefined;
  if (!unique) return true;
  const seen = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const key = canonicalJson(items[index]);
    const first = seen.get(key);
    if (first !== undefined) {
      uniqueItems.errors = [{ keyword: 'uniqueItems', params: { i: index, j: first }, message: `must NOT have duplicate items (items ## ${first} and ${index} are identical)` }];
      return false;
    }
    seen.set(key, index);
  }
  return true;
};

/** JSON with object keys sorted: equal JSON values (as JSON Schema defines equality) give equal strings. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function isWebUrl(text: string): boolean {
  if (!/^(?:https?|ftp):\/\/[^\s/?#@]/i.test(text) || /\s/.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function boundedErrors(errors: readonly ErrorObject[]): string[] {
  const shown = errors.slice(0, MAX_REPORTED_ERRORS).map(formatError);
  if (errors.length > MAX_REPORTED_ERRORS) shown.push(`… and ${errors.length - MAX_REPORTED_ERRORS} more errors`);
  return shown;
}

/** Longest error line: an instance path can hold a 100 MB property name. */
const MAX_ERROR_LENGTH = 1_000;

function formatError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const line = `${where} ${error.message ?? 'is invalid'}`;
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH)}…` : line;
}

function quotePattern(pattern: string): string {
  const shown = pattern.length > MAX_QUOTED_PATTERN ? `${pattern.slice(0, MAX_QUOTED_PATTERN)}…` : pattern;
  return JSON.stringify(shown);
}
