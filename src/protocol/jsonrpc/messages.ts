/**
 * Base-protocol checks for every message that arrives, whatever the transport. vscode-jsonrpc accepts
 * several shapes MCP forbids (null ids, both result and error, non-integer codes, null results) and silently
 * rewrites others, so classification happens here, before the engine sees anything.
 */
import { isObject } from '../guards';

export type RequestId = string | number;

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId;
  error: JsonRpcErrorObject;
}

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'result'; message: JsonRpcResultResponse }
  | { kind: 'error'; message: JsonRpcErrorResponse }
  /** An error response without an id: the server could not tell which request it answers. */
  | { kind: 'orphan-error'; error: JsonRpcErrorObject }
  /** A response-shaped message that is invalid; `id` is set when the broken response can still be matched. */
  | { kind: 'violation'; reason: string; id?: RequestId; isResponse: boolean };

function isValidRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
}

const PREFIX_LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const META_NAME = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$/;

/** Keys this client may write even though their prefix is reserved: the spec defines them. */
const SPEC_DEFINED_RESERVED_META_KEYS = new Set([
  'io.modelcontextprotocol/related-task',
  'io.modelcontextprotocol/model-immediate-response',
  'io.modelcontextprotocol/protocolVersion',
  'io.modelcontextprotocol/clientCapabilities',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/logLevel',
  'io.modelcontextprotocol/subscriptionId',
  'io.modelcontextprotocol/serverInfo',
]);

type MetaKeyCheck = { ok: true; reserved: boolean } | { ok: false; reason: string };

/**
 * Keys already checked, with their outcome: in the 2026-07-28 era the same few keys come in every message (the
 * revision, the client's and the server's info), each checked twice (the base protocol's check and the reserved
 * keys' warning), and a check took about 300 ns (10 ns from here). Bounded in count and in key length, so keys a
 * server makes up per message are checked each time instead of kept.
 */
const checkedMetaKeys = new Map<string, MetaKeyCheck>();
const CHECKED_META_KEYS_KEPT = 256;
const CHECKED_META_KEY_MAX_LENGTH = 128;

/** Checks a `_meta` key against the naming rules of MCP 2025-06-18 and later (basic/index.mdx, "_meta"). */
export function checkMetaKey(key: string): MetaKeyCheck {
  const known = checkedMetaKeys.get(key);
  if (known !== undefined) return known;
  const check = checkMetaKeyNames(key);
  if (checkedMetaKeys.size < CHECKED_META_KEYS_KEPT && key.length <= CHECKED_META_KEY_MAX_LENGTH)
    checkedMetaKeys.set(key, check);
  return check;
}

function checkMetaKeyNames(key: string): MetaKeyCheck {
  const slash = key.lastIndexOf('/');
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (!META_NAME.test(name)) {
    return { ok: false, reason: `_meta key "${key}": name "${name}" must start and end with a letter or digit` };
  }
  if (slash === -1) return { ok: true, reserved: false };
  const labels = key.slice(0, slash).split('.');
  for (const label of labels) {
    if (!PREFIX_LABEL.test(label)) {
      return { ok: false, reason: `_meta key "${key}": prefix label "${label}" is not valid` };
    }
  }
  const reserved = labels.length >= 2 && (labels[1] === 'modelcontextprotocol' || labels[1] === 'mcp');
  return { ok: true, reserved };
}

function metaProblem(container: unknown): string | undefined {
  if (!isObject(container) || !('_meta' in container)) return undefined;
  const meta = container._meta;
  if (meta === undefined) return undefined;
  if (!isObject(meta)) return '_meta must be an object';
  // for…in over the own keys, not Object.keys: no array per message (2026-07-28 messages carry a _meta each).
  for (const key in meta) {
    // progressToken predates the naming rules and is defined by the spec itself.
    if (key === 'progressToken' || !Object.hasOwn(meta, key)) continue;
    const check = checkMetaKey(key);
    if (!check.ok) return check.reason;
  }
  return undefined;
}

/**
 * `_meta` keys of a valid message that sit under an MCP-reserved prefix without being defined by the spec.
 * They are not fatal (the spec says to assume nothing about their values) but they are worth a warning.
 */
export function unknownReservedMetaKeys(value: unknown): readonly string[] {
  if (!isObject(value)) return NO_KEYS;
  const container = 'method' in value ? value.params : value.result;
  // Nearly every message has none: the shared empty answer, not a new array per message.
  if (!isObject(container) || !isObject(container._meta)) return NO_KEYS;
  const meta = container._meta;
  let found: string[] | undefined;
  for (const key in meta) {
    if (!Object.hasOwn(meta, key)) continue;
    const check = checkMetaKey(key);
    if (check.ok && check.reserved && !SPEC_DEFINED_RESERVED_META_KEYS.has(key)) (found ??= []).push(key);
  }
  return found ?? NO_KEYS;
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/** Classifies one parsed JSON value. Never throws. */
export function classifyIncoming(value: unknown): Classified {
  if (Array.isArray(value)) {
    return {
      kind: 'violation',
      reason: 'JSON-RPC batches are not allowed in MCP (removed in 2025-06-18)',
      isResponse: false,
    };
  }
  if (!isObject(value)) {
    return { kind: 'violation', reason: `expected a JSON-RPC object, got ${describeType(value)}`, isResponse: false };
  }
  const hasId = 'id' in value;
  const id = value.id;
  if (value.jsonrpc !== '2.0') {
    return {
      kind: 'violation',
      reason: 'missing or wrong "jsonrpc" member (must be "2.0")',
      id: matchableId(id),
      isResponse: !('method' in value),
    };
  }
  if ('method' in value) {
    if (typeof value.method !== 'string') {
      return { kind: 'violation', reason: '"method" must be a string', isResponse: false };
    }
    if ('params' in value && value.params !== undefined && !isObject(value.params)) {
      return { kind: 'violation', reason: `"params" of ${value.method} must be an object`, isResponse: false };
    }
    const problem = metaProblem(value.params);
    if (problem) return { kind: 'violation', reason: `${value.method}: ${problem}`, isResponse: false };
    if (!hasId) {
      return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    }
    if (!isValidRequestId(id)) {
      return {
        kind: 'violation',
        reason: `request ${value.method} has an invalid id ${JSON.stringify(id)} (must be a string or integer, never null)`,
        isResponse: false,
      };
    }
    if (value.method.startsWith('notifications/')) {
      return { kind: 'violation', reason: `notification ${value.method} must not carry an id`, isResponse: false };
    }
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult && hasError) {
    return {
      kind: 'violation',
      reason: 'response has both "result" and "error"',
      id: matchableId(id),
      isResponse: true,
    };
  }
  if (!hasResult && !hasError) {
    return {
      kind: 'violation',
      reason: 'message is neither a request, a notification nor a response',
      id: matchableId(id),
      isResponse: true,
    };
  }
  if (hasError) {
    const error = value.error;
    if (!isObject(error)) {
      return { kind: 'violation', reason: '"error" must be an object', id: matchableId(id), isResponse: true };
    }
    if (typeof error.code !== 'number' || !Number.isInteger(error.code)) {
      return {
        kind: 'violation',
        reason: `error code ${JSON.stringify(error.code)} is not an integer`,
        id: matchableId(id),
        isResponse: true,
      };
    }
    if (typeof error.message !== 'string') {
      return { kind: 'violation', reason: 'error "message" must be a string', id: matchableId(id), isResponse: true };
    }
    if (!hasId || id === null) {
      return { kind: 'orphan-error', error: error as unknown as JsonRpcErrorObject };
    }
    if (!isValidRequestId(id)) {
      return {
        kind: 'violation',
        reason: `response id ${JSON.stringify(id)} is not a string or integer`,
        isResponse: true,
      };
    }
    return { kind: 'error', message: value as unknown as JsonRpcErrorResponse };
  }
  if (!isValidRequestId(id)) {
    return {
      kind: 'violation',
      reason: `response id ${JSON.stringify(id)} is not a string or integer (never null)`,
      isResponse: true,
    };
  }
  if (!isObject(value.result)) {
    return {
      kind: 'violation',
      reason: `result must be an object, got ${describeType(value.result)}`,
      id,
      isResponse: true,
    };
  }
  const problem = metaProblem(value.result);
  if (problem) return { kind: 'violation', reason: `result: ${problem}`, id, isResponse: true };
  return { kind: 'result', message: value as unknown as JsonRpcResultResponse };
}

function matchableId(id: unknown): RequestId | undefined {
  return isValidRequestId(id) ? id : undefined;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":N,` or `{"id":N,` at the very start of a message. */
const LEADING_ID = new RegExp(
  String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE + String.raw`\s*,`,
);
/**
 * `,"id":N}` closing the message (the TypeScript SDK writes {result, jsonrpc, id}; a hand-written server may put the
 * id right after the result object). What precedes the comma ends a value: an unescaped quote, a closing bracket or
 * brace, a digit or a literal; a nested `"id"` cannot be followed by the message's last brace alone.
 */
const TRAILING_ID = new RegExp(String.raw`(?:[^\\]"|[}\]\deul])\s*,\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);
/** One of the first top-level members is "result" or "error": the message is a response. */
const RESPONSE_START = /^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*(?:"[^"]*"|-?\d+)\s*,\s*){0,2}"(?:result|error)"\s*:/;

/**
 * Best-effort recovery of the id of a response that could not be parsed (truncated, or discarded because it
 * was too large) from its text, or from its first and last bytes joined. Only an id that is unambiguously a
 * top-level member of a response is returned, so the matching request can fail at once instead of timing out.
 */
export function responseIdFromFragment(text: string): RequestId | undefined {
  if (!RESPONSE_START.test(text)) return undefined;
  const match = LEADING_ID.exec(text) ?? TRAILING_ID.exec(text);
  if (!match) return undefined;
  let id: unknown;
  try {
    id = JSON.parse(match[1]);
  } catch {
    return undefined;
  }
  return isValidRequestId(id) ? id : undefined;
}

/** A short, single-line excerpt of a message for logs, so a 100 MB payload never floods the output. */
export function excerpt(value: unknown, max = 200): string {
  let text: string;
  if (typeof value === 'string') {
    text = value.length > max * 4 ? value.slice(0, max * 4) : value;
  } else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
