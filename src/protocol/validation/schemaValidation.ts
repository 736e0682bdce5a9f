import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * JSON Schema validation for tool inputs and outputs and elicitation forms. 2020-12 is MCP's default dialect;
 * draft-07 is what many SDK servers still declare. Remote `$ref`s are never fetched (no loadSchema), so a
 * schema that needs one fails to compile and the verdict says so instead of reaching the network.
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

export class SchemaValidator {
  private readonly engines = new Map<Dialect, Ajv>();
  private readonly cache = new WeakMap<object, ValidateFunction | string>();

  validate(schema: unknown, value: unknown): ValidationVerdict {
    if (typeof schema !== 'object' || schema === null) return { kind: 'unchecked', reason: 'no schema' };
    const compiled = this.compile(schema as Record<string, unknown>);
    if (typeof compiled === 'string') return { kind: 'unchecked', reason: compiled };
    if (compiled(value)) return { kind: 'valid' };
    return { kind: 'invalid', errors: (compiled.errors ?? []).map(formatError) };
  }

  private compile(schema: Record<string, unknown>): ValidateFunction | string {
    const cached = this.cache.get(schema);
    if (cached) return cached;
    let result: ValidateFunction | string;
    const declared = schema.$schema;
    const dialect = declared === undefined ? '2020-12' : DIALECTS[String(declared)];
    if (!dialect) {
      result = `unsupported JSON Schema dialect ${JSON.stringify(declared)}`;
    } else {
      try {
        // $id would register the schema globally in Ajv; strip it so repeated tools never collide.
        const { $id: _ignored, ...withoutId } = schema;
        result = this.engine(dialect).compile(withoutId);
      } catch (error) {
        result = `schema could not be compiled: ${(error as Error).message}`;
      }
    }
    this.cache.set(schema, result);
    return result;
  }

  private engine(dialect: Dialect): Ajv {
    let engine = this.engines.get(dialect);
    if (!engine) {
      const options = { strict: false, allErrors: true, validateFormats: true } as const;
      engine = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
      addFormats(engine);
      this.engines.set(dialect, engine);
    }
    return engine;
  }
}

function formatError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  return `${where} ${error.message ?? 'is invalid'}`;
}
