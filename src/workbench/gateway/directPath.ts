/**
 * The gateway's direct path (Gateway.serveDirect): the shapes of a 2025 session's hot requests it serves without the
 * SDK's transport, and how their answers, errors, an agent's answers to relayed server requests and its cancels are
 * read. Kept apart from gateway.ts, which routes and keeps the sessions. Why a direct path: CONTRIBUTING.md
 * ("Dependencies: when this project writes its own").
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/server';
import { ErrorCodes } from '../../protocol/errors';
import type { JsonObject } from '../../protocol/types';
import type { AgentRequestContext } from './agentServer';

/** What a 2025 session keeps for its direct requests. */
export interface DirectSession {
  /** The requests served directly (serveDirect) and not answered yet, by JSON-RPC id: the agent's cancel ends one. */
  direct: Map<string | number, AbortController>;
  /** The server's requests sent to the agent on a direct call's stream, by the gateway's id, until it answers. */
  asked: Map<string, { resolve(result: JsonObject): void; reject(error: unknown): void }>;
}

/**
 * Where a directly served request's answer goes (the listener's HTTP response). Nothing is written until the answer,
 * which is then one `application/json` body, unless a message comes first (a progress notification, a server's
 * request relayed to the agent): the first opens a `text/event-stream` answer and the answer is its last event.
 */
export interface DirectResponse {
  event(message: JsonObject): void;
  end(message: JsonObject): void;
}

/** A request the gateway serves without the SDK's transport. */
export interface DirectCall {
  /** Settles once the answer has been handed to the response. */
  readonly done: Promise<void>;
  /** The agent went away before its answer was written: the upstream request is cancelled. */
  cancel(): void;
}

/**
 * Sends a server's request to the agent on a direct call's stream and waits for the agent's answer, which comes as a
 * POST of its own (Gateway.fetch, answerAsked). `id` is the gateway's, apart from the SDK's numeric ids on the session.
 */
export function askAgent(
  session: Pick<DirectSession, 'asked'>,
  id: string,
  response: DirectResponse,
  request: { method: string; params?: Record<string, unknown> },
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Promise<JsonObject> {
  return new Promise<JsonObject>((resolve, reject) => {
    const finish = () => {
      session.asked.delete(id);
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      response.event({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
      reject(signal?.reason ?? new Error('cancelled'));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`the agent did not answer ${request.method} within ${timeoutMs ?? 60_000} ms`));
    }, timeoutMs ?? 60_000);
    session.asked.set(id, {
      resolve: (result) => (finish(), resolve(result)),
      reject: (error) => (finish(), reject(error)),
    });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    response.event({
      jsonrpc: '2.0',
      id,
      method: request.method,
      ...(request.params ? { params: request.params } : {}),
    } as JsonObject);
  });
}

/** A request the direct path serves: one JSON-RPC request object. */
export interface DirectMessage {
  id: string | number;
  method: string;
  params: Record<string, unknown> | undefined;
}

/**
 * Serves one direct request: `serve` is the same `run` the SDK's handlers call, with a context of the gateway's own
 * (its signal aborted by `cancel`, the agent's progress and the server's relayed requests written to `response`).
 * `inFlight` is a 2025 session's map of direct requests, where its agent's `notifications/cancelled` finds one.
 */
export function directCall(options: {
  message: DirectMessage;
  response: DirectResponse;
  /** The 2026-07-28 request's `_meta` (its envelope); undefined for a 2025 session's. */
  envelope: Record<string, unknown> | undefined;
  sessionId?: string;
  inFlight?: Map<string | number, AbortController>;
  serve(ctx: AgentRequestContext): Promise<JsonObject>;
  /** The result as the agent's era writes it. */
  encode(result: JsonObject): JsonObject;
  /** Sends a server's request to the agent (hostRelay decides when); a 2026-07-28 agent served here declared none. */
  ask?(
    request: { method: string; params?: Record<string, unknown> },
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
  ): Promise<JsonObject>;
}): DirectCall {
  const { message, response, inFlight } = options;
  const controller = new AbortController();
  inFlight?.set(message.id, controller);
  const ctx: AgentRequestContext = {
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    mcpReq: {
      signal: controller.signal,
      envelope: options.envelope,
      requestState: () => undefined,
      // The agent's progress, on this request's stream (run calls it only when the agent sent a progress token).
      notify: async (notification: { method: string; params?: Record<string, unknown> }) => {
        if (!controller.signal.aborted) response.event({ jsonrpc: '2.0', ...notification } as JsonObject);
      },
      send: (
        request: { method: string; params?: Record<string, unknown> },
        sendOptions?: { signal?: AbortSignal; timeout?: number },
      ) =>
        options.ask
          ? options.ask(request, sendOptions?.signal, sendOptions?.timeout)
          : Promise.reject(new Error(`the agent declared no way to answer ${request.method}`)),
    } as unknown as AgentRequestContext['mcpReq'],
  };
  const done = options
    .serve(ctx)
    .then((result) => options.encode(result))
    .then(
      (result) => response.end({ jsonrpc: '2.0', id: message.id, result }),
      (error: unknown) => response.end({ jsonrpc: '2.0', id: message.id, error: directError(error) }),
    );
  const settled = done.finally(() => {
    if (inFlight?.get(message.id) === controller) inFlight.delete(message.id);
  });
  return { done: settled, cancel: () => controller.abort() };
}

/** The headers every direct request carries as the SDK requires them: it accepts both answers and sends JSON. */
export function directHeaders(header: (name: string) => string | undefined): boolean {
  const accept = header('accept');
  return (
    accept?.includes('application/json') === true &&
    accept.includes('text/event-stream') &&
    /^application\/json\s*(;|$)/i.test(header('content-type') ?? '')
  );
}

const MODERN_REVISION = '2026-07-28';
/** Where the Mcp-Name header's value comes from, per method (the SDK checks it against the body). */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The envelope (`_meta`) of a 2026-07-28 request the direct path may serve, or undefined when anything about it needs
 * the SDK: its headers and envelope exactly as the SDK takes them (MCP-Protocol-Version and Mcp-Method naming the
 * body's, Mcp-Name the body's name or URI as it is, a clientInfo of a string name and version, capabilities that
 * declare nothing the server may ask for — such an agent is answered through input-required rounds — nor the tasks
 * extension, no log level, no requestState or inputResponses of a round), and params the SDK's schemas take (a
 * prompt's arguments are strings). The SDK then serves it and words every refusal as it always does.
 */
export function directModernEnvelope(
  message: DirectMessage,
  header: (name: string) => string | undefined,
): Record<string, unknown> | undefined {
  const { method, params } = message;
  if (header('mcp-protocol-version') !== MODERN_REVISION || header('mcp-method') !== method) return undefined;
  const source = NAME_SOURCE[method];
  if (source !== undefined && header('mcp-name') !== params?.[source]) return undefined;
  if (params?.inputResponses !== undefined || params?.requestState !== undefined) return undefined;
  if (method === 'prompts/get' && isPlainObject(params?.arguments))
    if (Object.values(params.arguments).some((value) => typeof value !== 'string')) return undefined;
  const meta = params?._meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  for (const key of Object.keys(meta))
    if (
      key.startsWith('io.modelcontextprotocol/') &&
      key !== PROTOCOL_VERSION_META_KEY &&
      key !== CLIENT_INFO_META_KEY &&
      key !== CLIENT_CAPABILITIES_META_KEY
    )
      return undefined;
  const info = meta[CLIENT_INFO_META_KEY];
  if (!isPlainObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return undefined;
  if (Object.keys(info).some((key) => key !== 'name' && key !== 'version' && key !== 'title')) return undefined;
  if (info.title !== undefined && typeof info.title !== 'string') return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isPlainObject(capabilities)) return undefined;
  for (const [key, value] of Object.entries(capabilities)) {
    if ((key !== 'experimental' && key !== 'extensions') || !isPlainObject(value)) return undefined;
    if (Object.values(value).some((entry) => !isPlainObject(entry))) return undefined;
  }
  if (isPlainObject(capabilities.extensions) && capabilities.extensions[TASKS_EXTENSION] !== undefined)
    return undefined;
  return meta;
}

/** Methods whose 2026-07-28 results may carry another `resultType` than `complete` (input_required). */
const EXTENDED_RESULT_TYPES = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** Methods whose 2026-07-28 results are cacheable: `ttlMs` and `cacheScope` are required. */
const CACHEABLE = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * A 2026-07-28 result as the SDK's encoder writes it (its encode contract, step by step): `resultType` stamped
 * `complete` when absent (another one is an error but where the method allows it), a cacheable result's `ttlMs` and
 * `cacheScope` filled with the defaults (0, private) unless valid ones came, and the server's identity in `_meta`
 * unless the result names one.
 */
export function modernResult(method: string, result: JsonObject, serverInfo: JsonObject): JsonObject {
  let encoded: JsonObject = result;
  const provided = encoded.resultType;
  if (provided === undefined) encoded = { ...encoded, resultType: 'complete' };
  else if (provided !== 'complete' && !EXTENDED_RESULT_TYPES.has(method))
    throw new ProtocolError(
      ErrorCodes.InternalError,
      `Handler for ${method} returned resultType '${String(provided)}', but results of ${method} only support 'complete' on protocol revision 2026-07-28`,
    );
  if (encoded.resultType === 'complete' && CACHEABLE.has(method)) {
    const ttl = encoded.ttlMs;
    const scope = encoded.cacheScope;
    encoded = {
      ...encoded,
      ttlMs: typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl >= 0 ? ttl : 0,
      cacheScope: scope === 'public' || scope === 'private' ? scope : 'private',
    };
  }
  const meta = encoded._meta;
  if (meta === undefined) return { ...encoded, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isPlainObject(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return encoded;
  return { ...encoded, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

/** One JSON-RPC request object (not a batch, not a notification), or undefined. */
export function directRequest(body: unknown): DirectMessage | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  return { id, method: body.method, params };
}

/**
 * Params the SDK would take as they are: the method's required strings, a progress token that is a string or a
 * number, no task (a 2025 task-augmented call's answer is shaped by the SDK's handler).
 */
export function validDirectParams(method: string, params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta;
  if (meta !== undefined && !isPlainObject(meta)) return false;
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') return false;
  if (params?.task !== undefined) return false;
  const cursor = params?.cursor;
  if (cursor !== undefined && typeof cursor !== 'string') return false;
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof params?.name === 'string' && (params.arguments === undefined || isPlainObject(params.arguments));
    case 'resources/read':
      return typeof params?.uri === 'string';
    default:
      return true;
  }
}

/** A 2025 `tools/call` answer always has `content` (the SDK adds an empty one, as the spec's result requires). */
export function directResult(method: string, result: JsonObject): JsonObject {
  if (method === 'tools/call' && result.content === undefined) return { ...result, content: [] };
  return result;
}

/** An error as the SDK writes it: the code of a ProtocolError or of the gateway's own refusals, else internal. */
export function directError(error: unknown): { code: number; message: string; data?: unknown } {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof code === 'number' && Number.isSafeInteger(code) ? code : -32603,
    message: typeof message === 'string' ? message : 'Internal error',
    ...(data !== undefined ? { data } : {}),
  };
}

/**
 * Settles the server's requests an agent answers in this body (a response, or a batch of them, naming the gateway's
 * ids); true when the body held nothing else, so the SDK need not see it.
 */
export function answerAsked(session: Pick<DirectSession, 'asked'>, body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  let ours = 0;
  for (const message of messages) {
    if (!isPlainObject(message) || message.method !== undefined || typeof message.id !== 'string') continue;
    const asked = session.asked.get(message.id);
    if (!asked) continue;
    ours++;
    if (isPlainObject(message.result)) asked.resolve(message.result as JsonObject);
    else {
      const error = isPlainObject(message.error) ? message.error : {};
      asked.reject(
        new ProtocolError(
          typeof error.code === 'number' ? error.code : ErrorCodes.InternalError,
          typeof error.message === 'string' ? error.message : 'the agent answered without a result',
          error.data,
        ),
      );
    }
  }
  return ours > 0 && ours === messages.length;
}

/** Aborts the direct requests an agent's `notifications/cancelled` (alone or in a batch) names. */
export function cancelDirect(session: Pick<DirectSession, 'direct'>, body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || message.id !== undefined) continue;
    const params = message.params;
    const requestId = isPlainObject(params) ? params.requestId : undefined;
    if (typeof requestId === 'string' || typeof requestId === 'number') session.direct.get(requestId)?.abort();
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a body is an `initialize` request (it opens a 2025 session). */
export function isInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/** A JSON-RPC error answer with its HTTP status, as the SDK writes its refusals. */
export function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
