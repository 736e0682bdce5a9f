import { compileLinearPattern } from '../../protocol/validation/linearRegExp';
import type { FormField } from './formModel';

/**
 * Checks form values field by field against the form model, so each problem can be shown next to its field in words
 * a person reads ("Required", "Must be an email address") instead of the JSON Schema validator's text. The schema
 * validator still runs afterwards (the model does not express every keyword); what it finds is mapped to fields by
 * `fromSchemaErrors`.
 */

export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'format'; format: 'email' | 'uri' | 'date' | 'date-time' }
  | { kind: 'too-short'; minLength: number }
  | { kind: 'too-long'; maxLength: number }
  | { kind: 'pattern'; pattern: string }
  | { kind: 'not-a-number' }
  | { kind: 'not-an-integer' }
  | { kind: 'too-small'; minimum: number }
  | { kind: 'too-large'; maximum: number }
  | { kind: 'not-an-option' }
  | { kind: 'too-few-items'; minItems: number }
  | { kind: 'too-many-items'; maxItems: number }
  /** What the schema validator said, for keywords the form model does not know (kept as its text). */
  | { kind: 'schema'; detail: string };

export interface FieldError {
  /** JSON Pointer of the field ("/email", "/address/city"); "" for the form as a whole. */
  path: string;
  problem: FieldProblem;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/;

export function validateFormValues(model: FormField, value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  check(model, value, '', errors);
  return errors;
}

function check(field: FormField, value: unknown, path: string, errors: FieldError[]): void {
  const add = (problem: FieldProblem) => errors.push({ path, problem });
  // An empty string in a required field is as empty as a missing value: a person left it blank.
  const blank =
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '' && field.kind !== 'json');
  if (blank) {
    if (field.required && path !== '') add({ kind: 'required' });
    return;
  }
  switch (field.kind) {
    case 'string': {
      if (typeof value !== 'string') return;
      const format = field.format;
      if (format === 'email' && !EMAIL.test(value)) add({ kind: 'format', format });
      else if (format === 'uri' && !isUrl(value)) add({ kind: 'format', format });
      else if (format === 'date' && !DATE.test(value)) add({ kind: 'format', format });
      else if (format === 'date-time' && !DATE_TIME.test(value)) add({ kind: 'format', format });
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength)
        add({ kind: 'too-short', minLength: field.minLength });
      if (field.maxLength !== undefined && length > field.maxLength)
        add({ kind: 'too-long', maxLength: field.maxLength });
      if (field.pattern !== undefined && !matches(field.pattern, value))
        add({ kind: 'pattern', pattern: field.pattern });
      return;
    }
    case 'number': {
      if (typeof value !== 'number' || Number.isNaN(value)) {
        add({ kind: 'not-a-number' });
        return;
      }
      if (field.integer && !Number.isInteger(value)) add({ kind: 'not-an-integer' });
      if (field.minimum !== undefined && value < field.minimum) add({ kind: 'too-small', minimum: field.minimum });
      if (field.maximum !== undefined && value > field.maximum) add({ kind: 'too-large', maximum: field.maximum });
      return;
    }
    case 'enum':
      if (!field.options.some((option) => option.value === value)) add({ kind: 'not-an-option' });
      return;
    case 'multi-enum':
    case 'array': {
      if (!Array.isArray(value)) return;
      if (field.required && value.length === 0 && field.minItems === undefined) add({ kind: 'required' });
      if (field.minItems !== undefined && value.length < field.minItems)
        add({ kind: 'too-few-items', minItems: field.minItems });
      if (field.maxItems !== undefined && value.length > field.maxItems)
        add({ kind: 'too-many-items', maxItems: field.maxItems });
      if (field.kind === 'multi-enum') {
        if (value.some((item) => !field.options.some((option) => option.value === item)))
          add({ kind: 'not-an-option' });
        return;
      }
      value.forEach((item, index) => check(field.item, item, `${path}/${index}`, errors));
      return;
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return;
      const record = value as Record<string, unknown>;
      for (const child of field.fields)
        check(child, record[child.name], `${path}/${escapePointer(child.name)}`, errors);
      return;
    }
    case 'boolean':
    case 'json':
      return;
    default: {
      const exhaustive: never = field;
      throw new Error(`unknown form field ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * The schema validator's messages ("/a must be number", "(root) must have required property 'b'") as field errors:
 * a missing property belongs to that property's field.
 */
export function fromSchemaErrors(messages: readonly string[]): FieldError[] {
  return messages.map((message) => {
    const [where = '', ...rest] = message.split(' ');
    const path = where === '(root)' ? '' : where;
    const detail = rest.join(' ');
    const missing = /^must have required property '([^']+)'$/.exec(detail);
    if (missing) return { path: `${path}/${escapePointer(missing[1])}`, problem: { kind: 'required' } };
    return { path, problem: { kind: 'schema', detail } };
  });
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isUrl(value: string): boolean {
  try {
    return new URL(value).protocol.length > 1;
  } catch {
    return false;
  }
}

/**
 * A pattern is the server's: it runs on the linear engine, never the native backtracking RegExp, so `^(a|a)+$`
 * against a long value cannot freeze the host. A pattern the engine cannot take (invalid, backreferences, too big)
 * is left to the schema validator, which uses the same engine.
 */
function matches(pattern: string, value: string): boolean {
  const compiled = compileLinearPattern(pattern);
  switch (compiled.kind) {
    case 'linear':
      return compiled.test(value);
    case 'unsupported':
      return true;
    default: {
      const exhaustive: never = compiled;
      throw new Error(`unknown pattern kind ${JSON.stringify(exhaustive)}`);
    }
  }
}
