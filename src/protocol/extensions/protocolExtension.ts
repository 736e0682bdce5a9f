import type { InputRequest, InputResponses, ServerSession } from '../eras/era';
import type { Logger, ProgressUpdate } from '../jsonrpc/rpcConnection';
import type { ClientRequestMethod, ClientRequestParams, ClientRequestResult, JsonParams } from '../methods';
import type { JsonObject } from '../types';
import type { CallToolOutcome } from '../client';

/**
 * The seam for protocol extensions (io.modelcontextprotocol/ui, …/tasks, …/skills, the auth extensions): one
 * definition per extension, in its own folder under src/protocol/extensions/, says
 *   - its client capability: the settings object declared under `capabilities.extensions[id]` (in `initialize` and
 *     in 2026-07-28's per-request `_meta` client capabilities; `{}` means "supported, no settings"),
 *   - its methods: names it adds to the typed method table (their params and results are declared by augmenting
 *     `ExtensionClientRequests` in methods.ts from the extension's own folder),
 *   - the result shapes it adds: `resultType` values (such as "task") the era hands to it instead of failing on them,
 *   - the host services it needs: the `Services` type the host passes when it enables the extension.
 * An extension is declared only when the host enables it (McpClientOptions.extensions).
 */

/** Extension ids follow the `_meta` key rules with a mandatory prefix: `io.modelcontextprotocol/tasks`. */
export type ExtensionId = `${string}/${string}`;

export interface ExtensionCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (update: ProgressUpdate) => void;
  /** Ask the server again even when a 2026-07-28 cached result is fresh (skills: re-read a file that failed verification). */
  refresh?: boolean;
  /** Hard limit however long the request stays answered in parts (events/stream: none). */
  maxTotalTimeoutMs?: number;
  /** Told the JSON-RPC id the request went out with (events/stream notifications name their stream by it). */
  onRequestId?: (id: string | number) => void;
}

/** What the client lends an extension. */
export interface ExtensionContext {
  readonly serverName: string;
  readonly logger: Logger;
  /** Sends a request of the method table (the extension's own included) through the client's request loop. */
  request<M extends ClientRequestMethod>(
    method: M,
    params: ClientRequestParams<M>,
    options?: ExtensionCallOptions,
  ): Promise<ClientRequestResult<M>>;
  /** The checks `McpClient.callTool` makes on a tools/call result (content, structuredContent against outputSchema), for a result that came another way (a task's). */
  checkToolResult(result: JsonObject, about: { toolName?: string; taskId?: string }): CallToolOutcome;
  /** The open session (its `capabilities.extensions` says what the server supports); throws when not connected. */
  session(): ServerSession;
  /** Aborted when the client closes: an extension's timers and waits end with it. */
  readonly lifetime: AbortSignal;
  /** Answers input requests through the host's services (the same handlers, reviews and forms as server requests). */
  answerInputRequests(
    inputRequests: Readonly<Record<string, InputRequest>>,
    signal: AbortSignal | undefined,
  ): Promise<InputResponses>;
  /** Lets the extension answer server→client requests (call it from `activate`). */
  interceptServerRequests(interceptor: ServerRequestInterceptor): void;
  /**
   * Hears a server notification the core does not handle (2025-11-25 `notifications/tasks/status`); its params are
   * untrusted and arrive unverified. Call it from `activate`; core methods are refused.
   */
  onServerNotification(method: string, handler: (params: JsonObject) => void): void;
  /**
   * Fields the extension adds to the 2026-07-28 `subscriptions/listen` filter (the tasks extension's `taskIds`),
   * replacing what it set under those names before; an undefined or empty value takes a field out. The stream is
   * reopened when the filter changes. The handshake era has no such stream and ignores them.
   */
  listenFor(fields: Readonly<Record<string, unknown>>): void;
}

/** The core's own answer to a server→client request (validation, the host's service, the person's wait). */
export type ServerRequestNext = (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

/** How an extension answers server→client requests: 2025-11-25 tasks the client hosts for the server. */
export interface ServerRequestInterceptor {
  /** Server→client methods the extension adds (the core answers the others without it). */
  readonly methods: readonly string[];
  /**
   * Answers `method`, or returns undefined to leave it to the core (`next`; for a method the extension added,
   * `next` answers -32601).
   */
  intercept(
    method: string,
    params: JsonObject,
    signal: AbortSignal,
    next: ServerRequestNext,
  ): Promise<JsonObject> | undefined;
}

/** One request whose result carried a `resultType` the extension owns. */
export interface ResultTypeContext extends ExtensionContext {
  readonly method: ClientRequestMethod;
  readonly params: JsonParams | undefined;
  readonly signal?: AbortSignal;
}

/** Turns a result of the extension's own type into the request's final result (a task polled to completion…). */
type ResultTypeHandler<Services> = (
  result: JsonObject,
  context: ResultTypeContext,
  services: Services,
) => Promise<JsonObject>;

/**
 * What a host looks an extension's API up by (`McpClient.extension(key)`): its id, typed with its API. A definition is
 * one; a key alone (e.g. `TASKS_API`) lets a host ask a client for the API without loading the extension's code, which
 * the client loaded where it was enabled (the editor's views ask at start-up; the code loads at a server's start).
 */
export interface ExtensionKey<Api> {
  readonly id: ExtensionId;
  /** Never set: carries the API's type for `McpClient.extension`. */
  readonly apiType?: Api;
}

export interface ExtensionDefinition<Services = void, Api = void> extends ExtensionKey<Api> {
  /** The settings object declared as the client capability. */
  settings(services: Services): JsonObject;
  /** Core capabilities the extension also declares (2025-11-25 tasks predate extensions: `capabilities.tasks`). */
  coreCapabilities?(services: Services): JsonObject;
  /** Client→server methods the extension adds to the method table. */
  readonly methods?: readonly ClientRequestMethod[];
  /** `resultType` values the extension owns. */
  readonly resultTypes?: Readonly<Record<string, ResultTypeHandler<Services>>>;
  /** The API hosts reach the extension through (`McpClient.extension(definition)`); absent for declare-only extensions. */
  activate?(context: ExtensionContext, services: Services): Api;
}

/**
 * An extension the host turned on, its services bound: the client handles every extension alike, whatever its
 * Services and Api types (its id is the key its API is looked up by).
 */
export interface EnabledExtension {
  readonly id: ExtensionId;
  settings(): JsonObject;
  coreCapabilities(): JsonObject | undefined;
  readonly resultTypes: ReadonlyMap<string, (result: JsonObject, context: ResultTypeContext) => Promise<JsonObject>>;
  activate(context: ExtensionContext): unknown;
}

export function enableExtension<Services, Api>(
  definition: ExtensionDefinition<Services, Api>,
  services: Services,
): EnabledExtension {
  const resultTypes = new Map<string, (result: JsonObject, context: ResultTypeContext) => Promise<JsonObject>>();
  for (const [resultType, handler] of Object.entries(definition.resultTypes ?? {}))
    resultTypes.set(resultType, (result, context) => handler(result, context, services));
  return {
    id: definition.id,
    settings: () => definition.settings(services),
    coreCapabilities: () => definition.coreCapabilities?.(services),
    resultTypes,
    activate: (context) => definition.activate?.(context, services),
  };
}

/** The first extension that answers a server's request does; otherwise the core handler. */
export function answerServerRequest(
  interceptors: readonly ServerRequestInterceptor[],
  method: string,
  params: JsonObject,
  signal: AbortSignal,
  core: (params: JsonObject, signal: AbortSignal) => Promise<JsonObject>,
): Promise<JsonObject> {
  for (const interceptor of interceptors) {
    const answer = interceptor.intercept(method, params, signal, core);
    if (answer) return answer;
  }
  return core(params, signal);
}
