import type { JsonObject, Tool } from '../../types';
import { isObject } from '../../guards';

/**
 * HTTP request metadata of the 2026-07-28 Streamable HTTP transport (basic/transports/streamable-http.mdx,
 * "Request Metadata"): selected body fields mirrored into headers so intermediaries can route without
 * parsing the body, and tool parameters annotated `x-mcp-header` mirrored into `Mcp-Param-{Name}`.
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Visible ASCII, space and tab: what RFC 9110 allows in a field value. */
const HEADER_SAFE = /^[\x20-\x7e\t]*$/;
/** RFC 9110 §5.1 token (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** Methods whose `Mcp-Name` header mirrors `params.name`, `params.uri` or (tasks extension, SEP-2663) `params.taskId`. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

function base64OfUtf8(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A header value as the spec's "Value Encoding" demands: as-is when it is plain header-safe ASCII without
 * leading or trailing whitespace, otherwise `=?base64?<UTF-8 Base64>?=`. A plain value that happens to look
 * like the sentinel is encoded too, so it cannot be mistaken for an encoded one.
 */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  const plain = HEADER_SAFE.test(value) && value.trim() === value && !looksEncoded;
  return plain ? value : `${SENTINEL_PREFIX}${base64OfUtf8(value)}${SENTINEL_SUFFIX}`;
}

/** `MCP-Protocol-Version`, `Mcp-Method` and (for tools/call, resources/read, prompts/get) `Mcp-Name`. */
export function standardHeaders(
  protocolVersion: string,
  method: string,
  params: JsonObject | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': protocolVersion, 'Mcp-Method': method };
  const source = NAME_SOURCE[method];
  const value = source === undefined ? undefined : params?.[source];
  if (typeof value === 'string') headers['Mcp-Name'] = encodeHeaderValue(value);
  return headers;
}

// ---- x-mcp-header ----------------------------------------------------------------------------------------

export interface HeaderParameter {
  /** The chain of `properties` keys from the schema root to the annotated property. */
  path: readonly string[];
  /** The `{name}` of `Mcp-Param-{name}`, as the server spelled it. */
  name: string;
  type: 'string' | 'integer' | 'boolean';
}

type HeaderAnnotationScan = { kind: 'valid'; parameters: HeaderParameter[] } | { kind: 'invalid'; reason: string };

const ANNOTATION = 'x-mcp-header';
const PRIMITIVE_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
/**
 * Keywords whose subschemas are not "statically reachable via a chain of properties keys": an annotation
 * found under any of them makes the tool invalid.
 */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;
/** Of those, the keywords whose value is a map of name → subschema rather than a subschema or a list. */
const MAP_KEYWORDS: ReadonlySet<string> = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

function describePath(path: readonly string[]): string {
  return path.length === 0 ? 'the schema root' : `property ${path.join('.')}`;
}

/** Checks every `x-mcp-header` annotation in a tool's inputSchema against the spec's constraints. */
export function scanHeaderAnnotations(inputSchema: unknown): HeaderAnnotationScan {
  const parameters: HeaderParameter[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean, where: string): string | undefined => {
    if (!isObject(node)) return undefined;
    const schema = node as JsonObject;
    if (Object.prototype.hasOwnProperty.call(schema, ANNOTATION)) {
      const name = schema[ANNOTATION];
      if (!reachable || path.length === 0) {
        return `x-mcp-header on ${where} is not reachable from the schema root through properties alone (items, composition, conditionals and $ref are not allowed)`;
      }
      if (typeof name !== 'string' || name.length === 0)
        return `x-mcp-header on ${describePath(path)} must be a non-empty string`;
      if (!TOKEN.test(name))
        return `x-mcp-header ${JSON.stringify(name)} on ${describePath(path)} is not an HTTP field-name token`;
      const type = schema.type;
      if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type)) {
        return `x-mcp-header ${JSON.stringify(name)} on ${describePath(path)} annotates type ${JSON.stringify(type ?? null)}; only string, integer and boolean are allowed`;
      }
      const lower = name.toLowerCase();
      const earlier = seen.get(lower);
      if (earlier !== undefined)
        return `x-mcp-header ${JSON.stringify(name)} is declared twice (case-insensitively; also as ${JSON.stringify(earlier)})`;
      seen.set(lower, name);
      parameters.push({ path: [...path], name, type: type as HeaderParameter['type'] });
    }
    const properties = schema.properties;
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const problem = visit(child, [...path, key], reachable, describePath([...path, key]));
        if (problem) return problem;
      }
    }
    for (const keyword of SUBSCHEMA_KEYWORDS) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAP_KEYWORDS.has(keyword) && typeof sub === 'object' && sub !== null
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) {
        const problem = visit(branch, path, false, `a subschema under ${keyword} of ${describePath(path)}`);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  const problem = visit(inputSchema, [], true, 'the schema root');
  return problem === undefined ? { kind: 'valid', parameters } : { kind: 'invalid', reason: problem };
}

interface ToolFilterOutcome {
  tools: Tool[];
  /** Tools removed from the list, with the reason to log. */
  rejected: { name: string; reason: string }[];
  /** Header parameters of each kept tool that has any. */
  headerParameters: Map<string, HeaderParameter[]>;
}

/**
 * Over Streamable HTTP the client MUST exclude a tool whose `x-mcp-header` annotations are invalid from the
 * tools/list result (one bad definition must not make the others unusable).
 */
export function filterToolsByHeaderAnnotations(tools: readonly Tool[]): ToolFilterOutcome {
  const outcome: ToolFilterOutcome = { tools: [], rejected: [], headerParameters: new Map() };
  for (const tool of tools) {
    const scan = scanHeaderAnnotations(tool.inputSchema);
    switch (scan.kind) {
      case 'valid':
        outcome.tools.push(tool);
        if (scan.parameters.length > 0) outcome.headerParameters.set(tool.name, scan.parameters);
        break;
      case 'invalid':
        outcome.rejected.push({ name: tool.name, reason: scan.reason });
        break;
      default: {
        const unreachable: never = scan;
        throw new Error(`unhandled scan ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return outcome;
}

function valueAt(args: JsonObject, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as JsonObject)[key];
  }
  return current;
}

/**
 * `Mcp-Param-{Name}` headers for one tools/call: the value at each annotated path, converted (integers in
 * decimal, booleans lowercase) and encoded. A missing or null value omits the header. A value whose JSON type
 * does not fit the annotation is left out too: the server rejects the call with a clear -32602/-32020, which
 * beats inventing a header value.
 */
export function paramHeaders(
  parameters: readonly HeaderParameter[],
  args: JsonObject | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!args) return headers;
  for (const parameter of parameters) {
    const value = valueAt(args, parameter.path);
    if (value === undefined || value === null) continue;
    let text: string | undefined;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'boolean') text = value ? 'true' : 'false';
    else if (typeof value === 'number' && Number.isSafeInteger(value)) text = String(value);
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${parameter.name}`] = encodeHeaderValue(text);
  }
  return headers;
}
