import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  Server,
  type ServerCapabilities as SdkServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ErrorCodes, McpError, errorMessage } from '../../protocol/errors';
import type { ProgressUpdate } from '../../protocol/jsonrpc/rpcConnection';
import type { JsonObject, LoggingLevel, ServerCapabilities } from '../../protocol/types';
import { agentIdentity, type AgentIdentity } from './agents';
import type { AgentCall, GatewayHostRelay, RelayedCapability } from './hostRelay';
import { ROUND_METHODS, type InputRounds, type RelayedCall } from './inputRounds';
import type { RequestLimiter } from './limiter';
import { resultProblem } from './resultCheck';
import { SdkSchemaValidator } from './sdkSchemaValidator';
import type { GatewayUpstream } from './upstream';

/** What an agent's server asks of the gateway around it. */
export interface AgentServerContext {
  upstream: GatewayUpstream;
  relay: GatewayHostRelay;
  /** Masks the server's secrets (its env and header values) out of what reaches an agent. */
  mask(text: string): string;
  maskData(data: unknown): unknown;
  /** The agent a request comes from (its session, or a 2026-07-28 agent's clientInfo) and its limiter. */
  agentOf(ctx: AgentRequestContext): { key: string; limiter: RequestLimiter };
  subscribe(uri: string, ctx: ServerContext): Promise<void>;
  unsubscribe(uri: string, ctx: ServerContext): Promise<void>;
  setLevel(level: LoggingLevel, ctx: ServerContext): Promise<void>;
  /** The input-required rounds of 2026-07-28 agents that declared sampling, elicitation or roots. */
  rounds?: InputRounds;
}

/**
 * What the path of an agent's request to the server reads of it: the SDK's ServerContext when the SDK serves the
 * request, or the gateway's own when it serves a 2025 session's request directly (gateway.ts, `serveDirect`).
 */
export interface AgentRequestContext {
  readonly sessionId?: string;
  readonly mcpReq: Pick<ServerContext['mcpReq'], 'signal' | 'envelope' | 'requestState' | 'notify' | 'send'>;
}

/**
 * The requests a 2025 session's agent may have served without the SDK's transport (gateway.ts, `serveDirect`): the
 * calls an agent makes all the time, which pass to the server as sent (`run` below). Each needs its capability.
 */
export const DIRECT_METHODS: ReadonlyMap<string, keyof SdkServerCapabilities> = new Map([
  ['tools/call', 'tools'],
  ['tools/list', 'tools'],
  ['resources/list', 'resources'],
  ['resources/templates/list', 'resources'],
  ['resources/read', 'resources'],
  ['prompts/list', 'prompts'],
  ['prompts/get', 'prompts'],
]);

/**
 * An agent's request served without the SDK's transport: the same `run` as the SDK's handlers, so whatever sits
 * before the upstream call there holds for both paths.
 */
export function serveDirect(
  context: AgentServerContext,
  server: Server,
  ctx: AgentRequestContext,
  method: string,
  params: Record<string, unknown> | undefined,
): Promise<JsonObject> {
  return run(context, server, ctx, method, params);
}

/** A Standard Schema that takes any value as it is: the server's own answer is not the gateway's to judge. */
const PASS_THROUGH = {
  '~standard': { version: 1 as const, vendor: 'mcp-workbench-gateway', validate: (value: unknown) => ({ value }) },
};
const SCHEMA_VALIDATOR = new SdkSchemaValidator();
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELAYED_CAPABILITIES: readonly RelayedCapability[] = ['sampling', 'elicitation', 'roots'];

/** How long an agent may take to answer a server's sampling or elicitation (a person may be answering). */
const RELAY_TIMEOUT_MS = 10 * 60_000;

/** The `_meta` keys of the 2026-07-28 envelope: the agent's, not the server's; the upstream client sets its own. */
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_INFO_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
]);

/**
 * The capabilities an agent is told about: only what the server has, and only the features this gateway passes
 * through.
 */
export function servedCapabilities(upstream: ServerCapabilities): SdkServerCapabilities {
  const served: Record<string, unknown> = {};
  for (const key of ['tools', 'resources', 'prompts', 'completions', 'logging', 'tasks', 'experimental', 'extensions'])
    if (upstream[key] !== undefined) served[key] = upstream[key];
  return served as SdkServerCapabilities;
}

/**
 * The official SDK's low-level server for one agent (a 2025 session, or one 2026-07-28 request), with a handler per
 * method that passes the agent's request to the upstream client as sent: cursors, arguments and `_meta` kept, the
 * agent's progress token answered with the upstream's progress, its cancellation cancelling the upstream request.
 * Methods the gateway does not list (an extension's) go through the fallback handler the same way.
 */
export function createAgentServer(context: AgentServerContext): Server {
  const session = context.upstream.session();
  const capabilities = servedCapabilities(session.capabilities);
  const server = new Server(
    { ...session.serverInfo },
    {
      capabilities,
      // This project's validator where the SDK validates a schema (a form's answer in elicitInput), never its ajv.
      jsonSchemaValidator: SCHEMA_VALIDATOR,
      ...(session.instructions !== undefined ? { instructions: session.instructions } : {}),
      // Every requestState an agent echoes is checked (HMAC, expiry, binding) before a handler sees it.
      ...(context.rounds ? { requestState: { verify: context.rounds.verify } } : {}),
    },
  );

  const forward =
    (method: string) =>
    async (request: { params?: Record<string, unknown> }, ctx: ServerContext): Promise<never> =>
      (await run(context, server, ctx, method, request.params)) as never;
  const serve = (method: string) => server.setRequestHandler(method as 'tools/list', forward(method));

  if (capabilities.tools) {
    serve('tools/list');
    // A check every agent's call must pass goes in `run`: a 2025 session's call (other than a task) does not come
    // through this handler, the gateway serves it directly (serveDirect).
    server.setRequestHandler('tools/call', async (request, ctx) => {
      if (declaresTasks(ctx) && context.upstream.callToolUnwaited) {
        const unwaited = context.upstream.callToolUnwaited;
        const { name, arguments: args } = request.params;
        const answered = await context
          .agentOf(ctx)
          .limiter.run(() =>
            guard(context, () =>
              unwaited(name, args ?? {}, { signal: ctx.mcpReq.signal, agent: identify(server, ctx, context) }),
            ),
          );
        // The agent polls its task itself: tasks/get and tasks/cancel (below) and tasks/update (the fallback) pass.
        if (answered) return answered as never;
      }
      const result = await run(context, server, ctx, 'tools/call', request.params);
      // A 2025-11-25 task-augmented call is answered with the server's task. The SDK checks a tools/call answer as a
      // tool result and refuses one without `content`, so the task goes out with an empty `content` beside it: an
      // agent that asked for a task reads `task`, as the spec's CreateTaskResult has it.
      if (ctx.mcpReq.envelope === undefined && result.task !== undefined && result.content === undefined)
        return { ...result, content: [] } as never;
      return result as never;
    });
  }
  if (capabilities.resources) {
    for (const method of ['resources/list', 'resources/templates/list', 'resources/read']) serve(method);
    if (session.capabilities.resources?.subscribe) {
      server.setRequestHandler('resources/subscribe', async (request, ctx) => {
        await guard(context, () => context.subscribe(request.params.uri, ctx));
        return {};
      });
      server.setRequestHandler('resources/unsubscribe', async (request, ctx) => {
        await guard(context, () => context.unsubscribe(request.params.uri, ctx));
        return {};
      });
    }
  }
  if (capabilities.prompts) for (const method of ['prompts/list', 'prompts/get']) serve(method);
  if (capabilities.completions) serve('completion/complete');
  if (capabilities.logging)
    server.setRequestHandler('logging/setLevel', async (request, ctx) => {
      await guard(context, () => context.setLevel(request.params.level as LoggingLevel, ctx));
      return {};
    });
  server.setRequestHandler('ping', async (_request, ctx) => {
    await guard(context, () =>
      context.upstream.ping({ signal: ctx.mcpReq.signal, agent: identify(server, ctx, context) }),
    );
    return {};
  });
  // tasks/get and tasks/cancel are methods of the 2025-11-25 core that the tasks extension reuses in 2026-07-28; the
  // SDK serves such a method in the modern era only with a handler registered with its own schemas. The gateway's
  // schemas check nothing (the server's answer passes as it is), so both eras reach the server.
  for (const method of ['tasks/get', 'tasks/cancel'])
    (
      server.setRequestHandler as unknown as (
        method: string,
        schemas: { params: typeof PASS_THROUGH; result: typeof PASS_THROUGH },
        handler: (params: Record<string, unknown>, ctx: ServerContext) => Promise<JsonObject>,
      ) => void
    )(method, { params: PASS_THROUGH, result: PASS_THROUGH }, (params, ctx) =>
      run(context, server, ctx, method, params),
    );
  server.fallbackRequestHandler = async (request, ctx) =>
    (await run(context, server, ctx, request.method, request.params)) as never;
  return server;
}

async function run(
  context: AgentServerContext,
  server: Server,
  ctx: AgentRequestContext,
  method: string,
  params: Record<string, unknown> | undefined,
): Promise<JsonObject> {
  const agent = context.agentOf(ctx);
  return agent.limiter.run(async () => {
    const { meta, progressToken } = splitMeta(params?._meta);
    const sent: JsonObject | undefined = params === undefined ? undefined : { ...params };
    if (sent) {
      if (meta) sent._meta = meta;
      else delete sent._meta;
      // A round's answers and state are the gateway's own (below), never the server's.
      delete sent.inputResponses;
      delete sent.requestState;
    }
    const progress =
      progressToken === undefined
        ? undefined
        : (update: ProgressUpdate) =>
            void ctx.mcpReq
              .notify({ method: 'notifications/progress', params: { ...update, progressToken } })
              .catch(() => undefined);
    const upstream = async (signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void) =>
      checked(
        context,
        method,
        await guard(context, () =>
          context.upstream.request(method, sent, { signal, onProgress, agent: identify(server, ctx, context) }),
        ),
      );

    const rounds = context.rounds;
    if (
      rounds &&
      ctx.mcpReq.envelope !== undefined &&
      ROUND_METHODS.has(method) &&
      (ctx.mcpReq.requestState() !== undefined || RELAYED_CAPABILITIES.some((cap) => declares(server, ctx, cap)))
    ) {
      // A 2026-07-28 agent that can answer the server's questions: the call runs past this request, its questions
      // go back as input-required rounds.
      return rounds.serve(
        // Only the SDK serves a 2026-07-28 request (the direct path is a 2025 session's): its context is the SDK's.
        ctx as ServerContext,
        async (relayed: RelayedCall) => {
          const call: AgentCall = {
            agent: agent.key,
            declares: (capability) => declares(server, ctx, capability),
            send: (relayedMethod, relayedParams, relaySignal) => relayed.ask(relayedMethod, relayedParams, relaySignal),
          };
          const tracked = context.relay.track(relayed.signal, call);
          try {
            return await upstream(relayed.signal, (update) => relayed.progress?.(update));
          } finally {
            tracked.dispose();
          }
        },
        progress,
      );
    }

    const signal = ctx.mcpReq.signal;
    const call: AgentCall = {
      agent: agent.key,
      declares: (capability) => declares(server, ctx, capability),
      send: (relayedMethod, relayedParams, relaySignal) =>
        ctx.mcpReq.send(
          { method: relayedMethod as 'sampling/createMessage', params: relayedParams },
          {
            signal: relaySignal,
            timeout: RELAY_TIMEOUT_MS,
          },
        ) as Promise<never>,
    };
    const tracked = context.relay.track(signal, call);
    try {
      return await upstream(signal, progress);
    } finally {
      tracked.dispose();
    }
  });
}

/**
 * Whether the agent declared a capability the server's request needs: a 2025 agent in `initialize`, a 2026-07-28
 * agent in its request's envelope (it is then asked through input-required rounds, its only channel).
 */
function declares(server: Server, ctx: AgentRequestContext, capability: RelayedCapability): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope !== undefined) {
    const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
    return (
      typeof declared === 'object' &&
      declared !== null &&
      (declared as Record<string, unknown>)[capability] !== undefined
    );
  }
  return server.getClientCapabilities()?.[capability] !== undefined;
}

/** Who sent a request: a 2025 agent as its `initialize` named it, a 2026-07-28 agent by its envelope's clientInfo. */
function identify(server: Server, ctx: AgentRequestContext, context: AgentServerContext): AgentIdentity {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = envelope === undefined ? server.getClientVersion() : envelope[CLIENT_INFO_META_KEY];
  return agentIdentity(context.agentOf(ctx).key, info as { name?: unknown; version?: unknown } | undefined);
}

/** A 2026-07-28 agent that declared the tasks extension wants the task itself, not its end. */
function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = envelope?.[CLIENT_CAPABILITIES_META_KEY] as { extensions?: Record<string, unknown> } | undefined;
  return declared?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The agent's `_meta` without the envelope keys, and its progress token (answered by the gateway, not passed on). */
function splitMeta(value: unknown): { meta?: JsonObject; progressToken?: string | number } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const meta: JsonObject = {};
  let progressToken: string | number | undefined;
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'progressToken') {
      if (typeof entry === 'string' || typeof entry === 'number') progressToken = entry;
    } else if (!ENVELOPE_KEYS.has(key)) meta[key] = entry;
  }
  return { meta: Object.keys(meta).length > 0 ? meta : undefined, progressToken };
}

/**
 * The server's result as it may reach an agent, or the JSON-RPC error `-32603` naming the server and what was wrong
 * (resultCheck.ts): one verdict for the direct path and the SDK's, where a malformed result would be refused with
 * another code, dropped, or handed on.
 */
function checked(context: AgentServerContext, method: string, result: JsonObject): JsonObject {
  const problem = resultProblem(method, result);
  if (problem === undefined) return result;
  throw new ProtocolError(
    ErrorCodes.InternalError,
    context.mask(`${context.upstream.name}: the server's ${method} result is malformed: ${problem}`),
  );
}

/** Runs an upstream step; its failure reaches the agent as a JSON-RPC error, the server's code and message kept. */
async function guard<T>(context: AgentServerContext, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw wireError(context, error);
  }
}

function wireError(context: AgentServerContext, error: unknown): ProtocolError {
  if (error instanceof McpError)
    return new ProtocolError(error.code, context.mask(error.rawMessage), context.maskData(error.data));
  const code = (error as { code?: unknown }).code;
  // The gateway's own refusals (busy) carry their code; anything else of ours is an internal error.
  return new ProtocolError(
    typeof code === 'number' && Number.isSafeInteger(code) ? code : ErrorCodes.InternalError,
    context.mask(errorMessage(error)),
  );
}

/** A 2026-07-28 agent is told apart by the clientInfo of its envelope (it has no session). */
export function modernAgentKey(ctx: AgentRequestContext): string {
  const envelope = ctx.mcpReq.envelope as Record<string, { name?: unknown; version?: unknown } | undefined> | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY];
  return `modern:${String(info?.name ?? '')}@${String(info?.version ?? '')}`;
}
