import type { SchemaValidator } from '../../../protocol/validation/schemaValidation';
import type { JsonObject } from '../../../protocol/types';
import { isObject } from '../../../protocol/guards';

/**
 * Helpers for the arguments input box: a starting value built from the schema's required properties, and a
 * validation message in the words the user needs (JSON syntax first, then the schema).
 */

/** `{}` or an object with each required property set to a placeholder of its type (its default or first enum value when given). */
export function argumentSkeleton(inputSchema: JsonObject): string {
  const required = Array.isArray(inputSchema.required)
    ? inputSchema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const properties = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const skeleton: JsonObject = {};
  for (const name of required) skeleton[name] = placeholderFor(properties[name]);
  return JSON.stringify(skeleton);
}

function placeholderFor(schema: unknown): unknown {
  if (!isObject(schema)) return null;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

type ArgumentsCheck = { kind: 'ok'; value: JsonObject; warning?: string } | { kind: 'error'; message: string };

/** Parses the text as a JSON object and validates it against the tool's input schema. */
export function checkArguments(
  text: string,
  inputSchema: JsonObject,
  validator: SchemaValidator,
  labels: ArgumentLabels,
): ArgumentsCheck {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (error) {
    return { kind: 'error', message: labels.notJson((error as Error).message) };
  }
  if (!isObject(value)) return { kind: 'error', message: labels.notObject };
  const verdict = validator.validate(inputSchema, value);
  switch (verdict.kind) {
    case 'valid':
      return { kind: 'ok', value };
    case 'invalid':
      return { kind: 'error', message: labels.invalid(verdict.errors.join('; ')) };
    case 'unchecked':
      return { kind: 'ok', value, warning: labels.unchecked(verdict.reason) };
    default: {
      const exhaustive: never = verdict;
      return exhaustive;
    }
  }
}

/** Localized wording, supplied by the caller so this module stays free of vscode. */
export interface ArgumentLabels {
  notJson(reason: string): string;
  notObject: string;
  invalid(errors: string): string;
  unchecked(reason: string): string;
}
