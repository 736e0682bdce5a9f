/**
 * The gateway's direct path (Gateway.serveDirect): the shapes of a 2025 session's hot requests it serves without the
 * SDK's transport, and how their answers, errors, an agent's answers to relayed server requests and its cancels are
 * read. Kept apart from gateway.ts, which routes and keeps the sessions. Why a direct path: CONTRIBUTING.md
 * ("Dependencies: when this project writes its own").
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { ErrorCodes } from '../../protocol/errors';
import type { JsonObject } from '../../protocol/types';

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

/** One JSON-RPC request object (not a batch, not a notification), or undefined. */
export function directRequest(
  body: unknown,
): { id: string | number; method: string; params: Record<string, unknown> | undefined } | undefined {
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
