import { MAX_SCHEMA_DEPTH, MAX_SCHEMA_OBJECTS } from '../../protocol/validation/jsonSchema/run';
import { quote, type FindingSink } from './findings';

/**
 * The rules read inside a tool's inputSchema and outputSchema: JSON Schema portability (the same four checks as MCP
 * Inspector 2.12's --strict, core/json/schemaLint.ts, with its paths) and OpenAI's strict function schemas.
 *
 * A schema comes from the server, so the walk is bounded: an explicit stack (no recursion to overflow), at most
 * MAX_SCHEMA_OBJECTS schema objects and MAX_SCHEMA_DEPTH levels, the validator's own budgets (a schema past them is
 * one the validator refuses to prepare too); past them the walk stops with a schema/too-large finding.
 */

/** Keywords whose value is one subschema. */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
const SUBSCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  'dependencies',
  '$defs',
  'definitions',
] as const;
/** Where a bare boolean is the ordinary spelling ("additionalProperties": false), not a schema to flag. */
const BOOLEAN_VALUED_KEYWORDS = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);
/** A schema with any of these constrains its instance (the Inspector's list; if/then/else only as a pair). */
const CONSTRAINING_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  'dependencies',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const JSON_SCHEMA_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);
/**
 * What OpenAI's strict mode (structured outputs, which strict function calling uses) does not support, from "Supported
 * schemas": composition other than anyOf, conditionals, and these type-specific keywords.
 */
const OPENAI_UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'unevaluatedItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'prefixItems',
];

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The Inspector's path notation: `a.b` for identifier keys, `a["x y"]` otherwise, `a[0]` for items. */
function childPath(parent: string, key: string): string {
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return parent === '' ? key : `${parent}.${key}`;
  return `${parent}[${quote(key)}]`;
}

interface Visit {
  node: unknown;
  path: string;
  keyword: string | undefined;
  depth: number;
}

/** Whether the schema declares a `$id` anywhere: its non-# `$ref`s may then resolve inside the document. */
function declaresAnyId(schema: unknown): boolean {
  let seen = 0;
  const pending: unknown[] = [schema];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (++seen > MAX_SCHEMA_OBJECTS) return false;
    if (Array.isArray(next)) {
      for (const item of next) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    if (!isRecord(next)) continue;
    if (typeof next.$id === 'string' && next.$id !== '') return true;
    for (const [key, value] of Object.entries(next))
      if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples' && typeof value === 'object')
        pending.push(value);
  }
  return false;
}

function forEachSubschema(
  node: JsonRecord,
  path: string,
  visit: (child: unknown, path: string, keyword: string) => void,
): void {
  for (const key of SUBSCHEMA_MAP_KEYWORDS) {
    const map = node[key];
    if (!isRecord(map)) continue;
    for (const [name, sub] of Object.entries(map)) visit(sub, childPath(childPath(path, key), name), key);
  }
  for (const key of SUBSCHEMA_ARRAY_KEYWORDS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((sub, i) => visit(sub, `${childPath(path, key)}[${i}]`, key));
  }
  for (const key of SUBSCHEMA_KEYWORDS) {
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value))
      value.forEach((sub, i) => visit(sub, `${childPath(path, key)}[${i}]`, key));
    else visit(value, childPath(path, key), key);
  }
}

export type SchemaRole = 'inputSchema' | 'outputSchema';

/** Lints one schema of a tool into `sink`. The paths start with the role (`inputSchema.properties.x`). */
export function lintSchema(schema: unknown, role: SchemaRole, target: string, sink: FindingSink): void {
  const hasEmbeddedIds = declaresAnyId(schema);
  const pending: Visit[] = [{ node: schema, path: role, keyword: undefined, depth: 0 }];
  let objects = 0;
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { node, path, keyword, depth } = visit;
    if (depth > MAX_SCHEMA_DEPTH || objects >= MAX_SCHEMA_OBJECTS) {
      sink.add(
        'schema/too-large',
        target,
        path,
        `The ${role} is deeper than ${MAX_SCHEMA_DEPTH} levels or has more than ${MAX_SCHEMA_OBJECTS} subschemas; the lint stopped here (the validator refuses it too).`,
      );
      return;
    }
    if (typeof node === 'boolean') {
      if (keyword !== undefined && BOOLEAN_VALUED_KEYWORDS.has(keyword)) continue;
      sink.add(
        'schema/boolean-schema',
        target,
        path,
        `Bare \`${String(node)}\` used where a schema object is expected.`,
        node
          ? keyword === 'not'
            ? 'Use `{}`.'
            : 'Declare what the value is, e.g. `{"type": "object"}`.'
          : 'Use `{"not": {}}`.',
      );
      continue;
    }
    if (!isRecord(node)) continue;
    objects++;
    lintNode(node, path, keyword, role, target, sink, hasEmbeddedIds);
    const children: Visit[] = [];
    forEachSubschema(node, path, (child, childPathValue, childKeyword) =>
      children.push({ node: child, path: childPathValue, keyword: childKeyword, depth: depth + 1 }),
    );
    // Reversed onto the stack, so findings come in document order, as the Inspector's recursive walk gives them.
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
}

function lintNode(
  node: JsonRecord,
  path: string,
  keyword: string | undefined,
  role: SchemaRole,
  target: string,
  sink: FindingSink,
  hasEmbeddedIds: boolean,
): void {
  const type = node.type;
  if (Array.isArray(type) && isTypeUnion(type)) {
    sink.add(
      'schema/type-array',
      target,
      path,
      `\`type\` is an array (${quote(JSON.stringify(type))}): a single-type dialect such as the OpenAPI subset of Gemini's function declarations rejects the tool or drops the constraint.`,
      `Use {"anyOf": [${type.map((t) => `{"type": "${t}"}`).join(', ')}]}.`,
    );
  }
  const ref = node.$ref;
  if (typeof ref === 'string' && ref !== '' && !ref.startsWith('#') && !hasEmbeddedIds) {
    sink.add(
      'schema/remote-ref',
      target,
      path,
      `\`$ref\` points outside this document (${quote(ref)}); clients do not fetch remote schemas.`,
      'Inline the schema, or move it into `$defs` and refer to it as `#/$defs/<name>`.',
    );
  }
  const constrains =
    Object.keys(node).some((key) => CONSTRAINING_KEYWORDS.has(key)) ||
    ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') {
    sink.add(
      'schema/untyped-schema',
      target,
      path,
      'The schema has no validation keyword at all, so it accepts any value.',
      'Declare what the value is, e.g. `{"type": "string"}`.',
    );
  }
  // OpenAI strict mode reads the input schema (the function's parameters) only.
  if (role !== 'inputSchema') return;
  const isObject = type === 'object' || (type === undefined && isRecord(node.properties));
  if (isObject) {
    if (node.additionalProperties !== false) {
      sink.add(
        'openai/strict-additional-properties',
        target,
        path,
        'An object schema without "additionalProperties": false: OpenAI strict function calling refuses it, so a client calls the tool without strict mode (arguments may not match the schema).',
        'Add "additionalProperties": false.',
      );
    }
    const properties = isRecord(node.properties) ? Object.keys(node.properties) : [];
    const required = new Set(Array.isArray(node.required) ? node.required.filter((r) => typeof r === 'string') : []);
    const optional = properties.filter((name) => !required.has(name));
    if (optional.length > 0) {
      sink.add(
        'openai/strict-required',
        target,
        path,
        `Properties not in "required": ${optional.slice(0, 10).map(quote).join(', ')}${optional.length > 10 ? ` and ${optional.length - 10} more` : ''}. OpenAI strict mode needs every property required.`,
        'List every property in "required"; make an optional one nullable ({"anyOf": [<schema>, {"type": "null"}]}).',
      );
    }
  }
  const unsupported = OPENAI_UNSUPPORTED.filter((key) => Object.hasOwn(node, key));
  if (unsupported.length > 0) {
    sink.add(
      'openai/strict-unsupported-keyword',
      target,
      path,
      `OpenAI strict mode does not support ${unsupported.map((key) => `"${key}"`).join(', ')}.`,
    );
  }
}

function isTypeUnion(type: unknown[]): boolean {
  if (type.length === 0) return false;
  if (!type.every((t) => typeof t === 'string' && JSON_SCHEMA_TYPES.has(t))) return false;
  return new Set(type).size === type.length;
}
