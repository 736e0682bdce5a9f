import { ErrorCodes, McpError } from '../errors';
import type { ElicitationHandler } from '../host';
import { isObject } from '../guards';

/**
 * Form-mode elicitation may only ask for a flat object of primitives (the spec's `requestedSchema`: `type:
 * "object"` and `properties` whose values are each a PrimitiveSchemaDefinition: string, number/integer,
 * boolean, or one of the single- and multi-select enum shapes). Anything else (nested objects, arrays of
 * objects, `$ref`, composition) is refused before any UI is built, with JSON-RPC -32602 as the SDKs answer an
 * invalid elicitation request. Annotation keywords a primitive may carry beyond the spec's list (`pattern`,
 * `examples`, ...) are tolerated: schema objects are open, and they do not nest.
 */

type ElicitationSchemaCheck = { kind: 'flat' } | { kind: 'refused'; reason: string };

/** Keywords that hold subschemas; their presence means nesting or composition the flat subset does not allow. */
const SUBSCHEMA_KEYWORDS = [
  '$ref',
  '$dynamicRef',
  '$defs',
  'definitions',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'dependentSchemas',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'contains',
  'unevaluatedItems',
] as const;

type Json = Record<string, unknown>;

export function checkElicitationSchema(schema: unknown): ElicitationSchemaCheck {
  if (!isObject(schema)) return refused('requestedSchema must be an object');
  if (schema.type !== 'object') return refused(`requestedSchema must have type "object", got ${describe(schema.type)}`);
  if (!isObject(schema.properties)) return refused('requestedSchema must have an object of properties');
  if (
    schema.required !== undefined &&
    !(Array.isArray(schema.required) && schema.required.every((name) => typeof name === 'string'))
  ) {
    return refused('requestedSchema.required must be an array of property names');
  }
  const topLevel = nestingKeyword(schema, ['properties', 'additionalProperties']);
  if (topLevel) return refused(`requestedSchema uses "${topLevel}"; only flat properties are allowed`);
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') {
    return refused('requestedSchema.additionalProperties must not be a schema');
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    const problem = primitiveProblem(property);
    if (problem) return refused(`property ${quote(name)} ${problem}`);
  }
  return { kind: 'flat' };
}

/**
 * For elicitation/create handlers: throws the McpError (-32602) that the client sends back as the response
 * when a form-mode request's schema is outside the flat primitive subset.
 */
export function assertFlatElicitationSchema(schema: unknown): void {
  const check = checkElicitationSchema(schema);
  switch (check.kind) {
    case 'flat':
      return;
    case 'refused':
      throw new McpError(ErrorCodes.InvalidParams, `Invalid elicitation request: ${check.reason}`);
    default: {
      const exhaustive: never = check;
      throw new Error(`unexpected check ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * The same check around a host's handler, for hosts (or the client) that want it in one place: form-mode
 * requests outside the flat subset are answered with -32602 and never reach the handler.
 */
export function withFlatElicitationSchemas(handler: ElicitationHandler): ElicitationHandler {
  return {
    modes: handler.modes,
    elicit: async (request, context) => {
      if ((request.mode ?? 'form') === 'form') assertFlatElicitationSchema(request.requestedSchema);
      return handler.elicit(request, context);
    },
    completed: handler.completed
      ? (elicitationId, serverName) => handler.completed?.(elicitationId, serverName)
      : undefined,
  };
}

const PRIMITIVE_TYPES = ['string', 'number', 'integer', 'boolean'];

/**
 * Why `property` is not one of the spec's PrimitiveSchemaDefinition shapes, or undefined when it is. One
 * leniency: a nullable primitive (`type: ["string", "null"]`, or `anyOf` of primitive types and null, which is
 * what the Python SDK generates for `Optional[str]` and itself accepts) is still flat, so it is allowed.
 */
function primitiveProblem(property: unknown): string | undefined {
  if (!isObject(property)) return 'must be a schema object';
  if (Array.isArray(property.type)) {
    const types = property.type.filter((type) => type !== 'null');
    if (types.length !== 1 || typeof types[0] !== 'string' || !PRIMITIVE_TYPES.includes(types[0]))
      return `has type ${describe(property.type)}; only one primitive type (or it and null) is allowed`;
    return primitiveProblem({ ...property, type: types[0] });
  }
  const variants = property.type === undefined ? (property.anyOf ?? property.oneOf) : undefined;
  if (Array.isArray(variants) && !(property.anyOf !== undefined && property.oneOf !== undefined)) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = property;
    if (nestingKeyword(rest, [])) return `uses "${nestingKeyword(rest, [])}", which nests schemas`;
    const nullable = (variant: unknown) =>
      isObject(variant) && variant.type === 'null' && Object.keys(variant).length === 1;
    const primitives = variants.filter((variant) => !nullable(variant));
    if (primitives.length === 0) return 'allows only null';
    for (const variant of primitives) {
      if (!isObject(variant) || typeof variant.type !== 'string' || !PRIMITIVE_TYPES.includes(variant.type))
        return 'combines schemas that are not primitive types';
      const problem = primitiveProblem(variant);
      if (problem) return problem;
    }
    return undefined;
  }
  switch (property.type) {
    case 'string': {
      const extra = nestingKeyword(property, ['oneOf']);
      if (extra) return `uses "${extra}", which nests schemas`;
      if (property.enum !== undefined && !isStringArray(property.enum))
        return 'has an enum that is not a list of strings';
      if (property.enumNames !== undefined && !isStringArray(property.enumNames))
        return 'has enumNames that are not strings';
      if (property.oneOf !== undefined && !isConstOptions(property.oneOf))
        return 'has oneOf entries that are not {const, title} options';
      return undefined;
    }
    case 'number':
    case 'integer':
    case 'boolean': {
      const extra = nestingKeyword(property, []);
      return extra ? `uses "${extra}", which nests schemas` : undefined;
    }
    case 'array': {
      const extra = nestingKeyword(property, ['items']);
      if (extra) return `uses "${extra}", which nests schemas`;
      const items = property.items;
      if (!isObject(items)) return 'is an array without an items schema of enum options';
      const inner = nestingKeyword(items, ['anyOf']);
      if (inner) return `has items using "${inner}"; only enum options are allowed`;
      if (items.type === 'string' && isStringArray(items.enum) && items.anyOf === undefined) return undefined;
      if (
        items.anyOf !== undefined &&
        isConstOptions(items.anyOf) &&
        (items.type === undefined || items.type === 'string')
      )
        return undefined;
      return 'is an array whose items are not string enum options (only multi-select enums may be arrays)';
    }
    case 'object':
      return 'is a nested object; elicitation forms are flat';
    default:
      return `has type ${describe(property.type)}; only string, number, integer, boolean and enum arrays are allowed`;
  }
}

function nestingKeyword(schema: Json, allowed: readonly string[]): string | undefined {
  return SUBSCHEMA_KEYWORDS.find((keyword) => schema[keyword] !== undefined && !allowed.includes(keyword));
}

function isConstOptions(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (option) =>
        isObject(option) &&
        typeof option.const === 'string' &&
        (option.title === undefined || typeof option.title === 'string') &&
        !nestingKeyword(option, []),
    )
  );
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A short description of a server-sent value: never serializes it whole (it may be huge or deeply nested). */
function describe(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return value === null ? 'null' : 'an object';
  return String(value);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

function refused(reason: string): ElicitationSchemaCheck {
  return { kind: 'refused', reason };
}
