/**
 * Arguments a conformance run sends when the scenario names none: a value valid against the tool's input schema
 * (or an elicitation's requested schema), built from the schema alone. The stateless gauntlet's tools judge each
 * call on the arguments it carries (a string, a JSON number, an object behind a same-document `$ref`), so calling
 * with `{}` would grade the driver, not the client.
 *
 * Only what a schema states is used: `default`, `const`, the first `enum` value, then a value of the first
 * non-null `type` (respecting `minimum`, `minLength`, `minItems` and well-known string formats). Only `required`
 * properties are filled. `$ref` is followed within the same document only (`#/...`), never fetched, and the depth
 * is bounded so a cyclic schema ends.
 */
import { isObject } from '../protocol/guards';

type Schema = Record<string, unknown>;

const MAX_DEPTH = 16;

const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  email: 'conformance@example.com',
  uri: 'https://example.com/conformance',
  'uri-reference': 'https://example.com/conformance',
  url: 'https://example.com/conformance',
  date: '2026-07-28',
  'date-time': '2026-07-28T00:00:00Z',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/** A JSON pointer of the same document (`#/$defs/payload`); undefined for anything else (other documents, anchors). */
function resolveLocalRef(root: Schema, ref: string): Schema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Schema)[key];
  }
  return isObject(node) ? (node as Schema) : undefined;
}

function firstType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null') ?? 'null';
  if (isObject(schema.properties) || Array.isArray(schema.required)) return 'object';
  return undefined;
}

function sampleString(schema: Schema): string {
  const format = typeof schema.format === 'string' ? FORMAT_SAMPLES[schema.format] : undefined;
  let text = format ?? 'conformance';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  while (text.length < min) text += 'x';
  if (typeof schema.maxLength === 'number' && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
  return text;
}

function sampleNumber(schema: Schema, integer: boolean): number {
  let value = typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    value = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  return integer ? Math.ceil(value) : value;
}

function sample(schema: Schema, root: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    if (target) return sample(target, root, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && isObject(branches[0])) return sample(branches[0] as Schema, root, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isObject).map((part) => sample(part as Schema, root, depth + 1));
    if (parts.every(isObject)) return Object.assign({}, ...(parts as object[]), sampleObject(schema, root, depth));
  }
  switch (firstType(schema)) {
    case 'string':
      return sampleString(schema);
    case 'number':
      return sampleNumber(schema, false);
    case 'integer':
      return sampleNumber(schema, true);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = typeof schema.minItems === 'number' ? Math.min(schema.minItems, 8) : 0;
      const items = isObject(schema.items) ? (schema.items as Schema) : {};
      return Array.from({ length: count }, () => sample(items, root, depth + 1) ?? null);
    }
    case 'object':
      return sampleObject(schema, root, depth);
    default:
      return undefined;
  }
}

function sampleObject(schema: Schema, root: Schema, depth: number): Record<string, unknown> {
  const properties = isObject(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    const property = properties[name];
    const sampled = isObject(property) ? sample(property as Schema, root, depth + 1) : 'conformance';
    if (sampled !== undefined) value[name] = sampled;
  }
  return value;
}

/** An object valid against `schema` as far as the schema says: the required properties, each sampled. */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  if (!isObject(schema)) return {};
  const value = sample(schema as Schema, schema as Schema, 0);
  return isObject(value) ? (value as Record<string, unknown>) : {};
}
