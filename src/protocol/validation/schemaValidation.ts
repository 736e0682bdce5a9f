import { compileSchema, type CompiledSchema } from './jsonSchema/compile';
import { DepthLimitReached, Evaluation, ReferenceLoop, StepLimitReached } from './jsonSchema/evaluate';
import { SchemaError, type Dialect } from './jsonSchema/refs';
import {
  MAX_ERROR_LENGTH,
  MAX_REPORTED_ERRORS,
  MAX_SCHEMA_OBJECTS,
  MAX_VALIDATION_STEPS,
  StringCheckRun,
} from './jsonSchema/run';

export { MAX_REPORTED_ERRORS, MAX_SCHEMA_OBJECTS, MAX_VALIDATION_STEPS, PATTERN_BUDGET_CHARS } from './jsonSchema/run';

/**
 * JSON Schema validation for tool inputs and outputs and elicitation forms. 2020-12 is MCP's default dialect;
 * draft-07 is what many SDK servers still declare. The validator is our own interpreter (jsonSchema/): a schema
 * is read once into nodes and evaluated, never turned into code, with ajv's semantics and error messages (ajv
 * stays as the oracle of the tests). Remote `$ref`s are never fetched, so a schema that needs one cannot be
 * prepared and the verdict says so instead of reaching the network.
 *
 * Schemas and values both come from servers, so nothing here may block or crash the host: patterns run on a
 * linear-time engine (see linearRegExp.ts) and formats on linear checks, both within a budget of characters;
 * evaluation counts its steps and its depth, so alternatives that multiply and values too deep for the stack
 * get a verdict instead of hours of work or a RangeError; the error list is bounded.
 */

export type ValidationVerdict =
  { kind: 'valid' } | { kind: 'invalid'; errors: string[] } | { kind: 'unchecked'; reason: string };

const DIALECTS: Record<string, Dialect> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-07/schema#': 'draft-07',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
  'https://json-schema.org/draft/2020-12/schema#': '2020-12',
};

/** Keywords whose values are data, not subschemas: they are not counted as schema objects. */
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

export class SchemaValidator {
  /** Prepared schemas, or why one could not be prepared, by schema object. */
  private readonly cache = new WeakMap<object, CompiledSchema | string>();

  validate(schema: unknown, value: unknown): ValidationVerdict {
    // `true` and `false` are schemas too: everything is valid against the one, nothing against the other.
    if (schema === true) return { kind: 'valid' };
    if (schema === false) return { kind: 'invalid', errors: ['(root) boolean schema is false'] };
    if (typeof schema !== 'object' || schema === null) return { kind: 'unchecked', reason: 'no schema' };
    const compiled = this.compile(schema as Record<string, unknown>);
    if (typeof compiled === 'string') return { kind: 'unchecked', reason: compiled };
    const run = new StringCheckRun();
    const evaluation = new Evaluation(run);
    let valid: boolean;
    try {
      valid = evaluation.evaluate(compiled.root, value);
    } catch (error) {
      if (error instanceof StepLimitReached) {
        return {
          kind: 'unchecked',
          reason: `validation stopped after ${MAX_VALIDATION_STEPS} steps (the schema's alternatives multiply, or the value is huge)`,
        };
      }
      if (error instanceof ReferenceLoop) {
        return {
          kind: 'unchecked',
          reason: `the schema's references loop: ${shorten(error.message || '(root)')} applies to itself without going deeper into the value`,
        };
      }
      // RangeError: a value nested deeper than the stack where const, enum or uniqueItems compare it.
      if (error instanceof DepthLimitReached || error instanceof RangeError)
        return { kind: 'unchecked', reason: 'the value is too deeply nested to validate' };
      return { kind: 'unchecked', reason: `validation failed: ${shorten((error as Error).message)}` };
    }
    const errors = valid ? [] : evaluation.lines();
    if (!valid && evaluation.errorCount > MAX_REPORTED_ERRORS)
      errors.push(`… and ${evaluation.errorCount - MAX_REPORTED_ERRORS} more errors`);
    if (run.unevaluated) {
      const notes = [...run.unevaluated].map(([label, why]) => `${label} could not be evaluated: ${why}`);
      const others = errors.length > 0 ? `; other checks reported: ${errors.join('; ')}` : '';
      return { kind: 'unchecked', reason: `${notes.join('; ')}${others}` };
    }
    return valid ? { kind: 'valid' } : { kind: 'invalid', errors };
  }

  private compile(schema: Record<string, unknown>): CompiledSchema | string {
    const cached = this.cache.get(schema);
    if (cached) return cached;
    let result: CompiledSchema | string;
    const declared = schema.$schema;
    const dialect = declared === undefined ? '2020-12' : DIALECTS[String(declared)];
    if (!dialect) {
      result = `unsupported JSON Schema dialect ${JSON.stringify(declared)}`;
    } else if (exceedsSchemaObjects(schema)) {
      result = `the schema is too large to validate (more than ${MAX_SCHEMA_OBJECTS} subschemas)`;
    } else {
      try {
        result = compileSchema(schema, dialect);
      } catch (error) {
        // The messages quote parts of the schema, such as a 1 MB $ref.
        if (error instanceof SchemaError) result = `schema could not be compiled: ${shorten(error.message)}`;
        else if (error instanceof RangeError) result = 'the schema is too deeply nested or too large to compile';
        else result = `schema could not be compiled: ${shorten((error as Error).message)}`;
      }
    }
    this.cache.set(schema, result);
    return result;
  }
}

function shorten(message: string): string {
  return message.length > MAX_ERROR_LENGTH ? `${message.slice(0, MAX_ERROR_LENGTH)}…` : message;
}
