import {
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { DisposableStore } from '../../protocol/disposable';
import { LOGGING_LEVELS, type JsonObject, type LoggingLevel } from '../../protocol/types';
import { maskSecrets, maskText } from '../secrets';
import {
  DIRECT_METHODS,
  createAgentServer,
  serveDirect,
  type AgentRequestContext,
  type AgentServerContext,
  modernAgentKey,
} from './agentServer';
import {
  exchangeAgent,
  heardFrom,
  isListen,
  sessionAgent,
  toldDirect,
  toldTo,
  type AgentMessageTap,
} from './agentMessages';
import { GatewayAgents } from './agents';
import * as directPath from './directPath';
import type { GatewayHostRelay } from './hostRelay';
import { IdleSweep } from './idleSweep';
import { InputRounds } from './inputRounds';
import { RequestLimiter } from './limiter';
import type { GatewayUpstream } from './upstream';

export interface GatewayOptions {
  upstream: GatewayUpstream;
  /** The upstream client's host (built with `relay.host`): where the server's requests go. */
  relay: GatewayHostRelay;
  /** The server's secrets (env and header values): masked out of every error an agent receives. */
  secrets?: readonly string[];
  /** The largest request body read (the client's `maxMessageBytes`). */
  maxBodyBytes: number;
  /** Per agent: requests running upstream at once, and waiting for a turn (default 32 and 256). */
  maxInFlightPerAgent?: number;
  maxQueuedPerAgent?: number;
  /** 2025 sessions open at once (default 256); a new one past it is refused with 503. */
  maxSessions?: number;
  /** A 2025 session with no request for this long is ended (default 30 minutes). */
  sessionIdleMs?: number;
  /**
   * How long a 2026-07-28 agent has to come back with the answers of an input-required round (default 10 minutes:
   * a person may be answering); its requestState expires with it.
   */
  inputRoundTtlMs?: number;
  /** Upstream calls waiting for 2026-07-28 agents' answers at once (default 256). */
  maxRelayedCalls?: number;
  /** Where every message between an agent and the gateway is shown (the Protocol view), while someone looks. */
  traffic?: AgentMessageTap;
}

/** Who holds subscriptions to the server's resources: a 2025 session, or an open 2026-07-28 listen stream. */
interface Subscriber {
  subscriptions: Set<string>;
}

interface AgentSession extends Subscriber, directPath.DirectSession {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  limiter: RequestLimiter;
  lastActive: number;
  level?: LoggingLevel;
  /** What its agent's server reaches the gateway through (the direct path uses the same). */
  context: AgentServerContext;
}

const SESSION_HEADER = 'mcp-session-id';
/** How many 2026-07-28 agents (told apart by their clientInfo) keep a limiter between requests. */
const MAX_MODERN_AGENTS = 1024;
/** The resource URIs one `subscriptions/listen` stream has the server subscribed to; the rest are not followed. */
const MAX_LISTEN_URIS = 256;

/**
 * The serving side of a gateway, host-neutral: a fetch-style handler (a Request in, a Response out) that serves one
 * upstream server to any number of agents, in each agent's era. A 2025-era agent (an `initialize` handshake, any
 * revision the SDK speaks) gets a session of its own: one SDK Server over a sessionful Streamable HTTP transport.
 * A 2026-07-28 agent is served statelessly by the SDK's `createMcpHandler` (`server/discover`, per-request `_meta`,
 * `subscriptions/listen`). The SDK answers 2025 traffic only statelessly, so the gateway routes it with the SDK's
 * own `isLegacyRequest` to the sessions it keeps here, as the SDK documents for a sessionful 2025 wiring.
 *
 * Access (the secret, Host and Origin) is checked before a request reaches `fetch`: the Node listener does it.
 */
export class Gateway {
  private readonly sessions = new Map<string, AgentSession>();
  private readonly modernAgents = new Map<string, RequestLimiter>();
  private readonly modern: McpHttpHandler;
  private readonly disposables = new DisposableStore();
  /** Which sessions subscribed to each URI; the server is subscribed while any is. */
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  /** The open 2026-07-28 listen streams that hold subscriptions, ended with the gateway. */
  private readonly listeners = new Set<Subscriber>();
  private readonly sweep: IdleSweep;
  private readonly rounds: InputRounds;
  private closed = false;
  private askedCount = 0;
  /** Numbers the exchanges of agents without a session, whose messages are told (agentMessages.ts). */
  private exchanges = 0;
  /** What 2026-07-28 requests on the direct path are served through (made at the first). */
  private modernDirect?: { context: AgentServerContext; server: Server | undefined };
  /** The 2025 agents with an open session (their clientInfo, cut and untrusted), for a host to list and disconnect. */
  readonly agents = new GatewayAgents();

  constructor(private readonly options: GatewayOptions) {
    this.rounds = new InputRounds({
      ttlMs: options.inputRoundTtlMs ?? 10 * 60_000,
      maxCalls: options.maxRelayedCalls ?? 256,
      // A round's state is good only for the agent and the method it was minted for.
      bind: (ctx) => `${ctx.mcpReq.method}\0${modernAgentKey(ctx)}`,
    });
    this.modern = createMcpHandler(() => createAgentServer(this.agentContext(undefined)), {
      legacy: 'reject',
      maxRequestBodySize: options.maxBodyBytes,
    });
    const { upstream } = options;
    this.disposables.add(upstream.onToolsChanged(() => this.broadcast('tools')));
    this.disposables.add(upstream.onPromptsChanged(() => this.broadcast('prompts')));
    this.disposables.add(upstream.onResourcesChanged(() => this.broadcast('resources')));
    this.disposables.add(upstream.onResourceUpdated((uri) => this.resourceUpdated(uri)));
    this.disposables.add(upstream.onLogMessage((message) => this.log(message)));
    const idleMs = options.sessionIdleMs ?? 30 * 60_000;
    this.sweep = new IdleSweep(Math.max(50, Math.min(idleMs / 4, 60_000)), () => this.endIdleSessions(idleMs));
  }

  /** 2025 sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Ends one agent's session (its open requests and streams); false when no such session is open. */
  async disconnect(id: string): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session) return false;
    await this.endSession(id, session);
    return true;
  }

  /** Upstream calls of 2026-07-28 agents waiting for the answers of an input-required round. */
  get relayedCalls(): number {
    return this.rounds.size;
  }

  /**
   * A request for one of the calls agents make all the time (DIRECT_METHODS), of a 2025 session or of a 2026-07-28
   * agent, served without the SDK: the request goes through the same `run` as the SDK's handlers (the limits, the
   * tool rules, the masking) and is answered with one `application/json` body, which Streamable HTTP allows whenever
   * the agent accepts it, or with an event stream once a message comes before the answer (its progress, a server's
   * request relayed to a 2025 agent). The SDK cost more than the rest of the gateway together on such a call (a web
   * Request and Response, a stream per POST, each message and result parsed against its schemas, and for a
   * 2026-07-28 agent a server built per request: the gateway's CPU per call was 2.7 times a direct 2025 call's in the
   * bench's profile), and the gateway targets a tenth of a millisecond added per call. Undefined, synchronously, when
   * anything about the request needs the SDK: not a POST of one JSON-RPC request with the headers the SDK requires,
   * a 2025 request outside a known, initialized session or with an id already in flight, a task, a 2026-07-28
   * request whose envelope or headers are not plainly valid or whose agent can answer the server's questions
   * (directModernEnvelope), or params the SDK would refuse. The SDK then serves it, and words every refusal as always.
   */
  serveDirect(
    httpMethod: string | undefined,
    header: (name: string) => string | undefined,
    body: unknown,
    response: directPath.DirectResponse,
  ): directPath.DirectCall | undefined {
    if (this.closed || httpMethod !== 'POST' || !directPath.directHeaders(header)) return undefined;
    const message = directPath.directRequest(body);
    if (!message) return undefined;
    const capability = DIRECT_METHODS.get(message.method);
    if (capability === undefined || !directPath.validDirectParams(message.method, message.params)) return undefined;
    const id = header(SESSION_HEADER);
    if (id === undefined) return this.serveModernDirect(message, capability, header, body, response);
    const session = this.sessions.get(id);
    if (!session || session.direct.has(message.id)) return undefined;
    const version = header('mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
    const { server } = session;
    if (server.getCapabilities()[capability] === undefined || !server.getClientCapabilities()) return undefined;
    session.lastActive = Date.now();
    const sink = this.options.traffic?.listening();
    const agent = sink && sessionAgent(id, server);
    if (sink && agent) heardFrom(sink, agent, body);
    const answer = sink && agent ? toldDirect(response, agent, sink) : response;
    return directPath.directCall({
      message,
      response: answer,
      envelope: undefined,
      sessionId: id,
      inFlight: session.direct,
      serve: (ctx) => serveDirect(session.context, server, ctx, message.method, message.params),
      encode: (result) => directPath.directResult(message.method, result),
      // A server's request during this call, to the agent that declared what it needs (hostRelay decides).
      ask: (request, signal, timeoutMs) =>
        directPath.askAgent(session, `gateway-${++this.askedCount}`, answer, request, signal, timeoutMs),
    });
  }

  /** A 2026-07-28 agent's request on the direct path (serveDirect), over one agent server kept for them all. */
  private serveModernDirect(
    message: directPath.DirectMessage,
    capability: string,
    header: (name: string) => string | undefined,
    body: unknown,
    response: directPath.DirectResponse,
  ): directPath.DirectCall | undefined {
    const envelope = directPath.directModernEnvelope(message, header);
    if (!envelope) return undefined;
    // The SDK builds a server per request from the same context; what `run` reads of it is the envelope's.
    this.modernDirect ??= { context: this.agentContext(undefined), server: undefined };
    const direct = this.modernDirect;
    direct.server ??= createAgentServer(direct.context);
    const server = direct.server;
    if ((server.getCapabilities() as Record<string, unknown>)[capability] === undefined) return undefined;
    const serverInfo = { ...this.options.upstream.session().serverInfo } as JsonObject;
    const sink = this.options.traffic?.listening();
    const agent = sink && exchangeAgent(body, ++this.exchanges);
    if (sink && agent) heardFrom(sink, agent, body);
    return directPath.directCall({
      message,
      response: sink && agent ? toldDirect(response, agent, sink) : response,
      envelope,
      serve: (ctx) => serveDirect(direct.context, server, ctx, message.method, message.params),
      encode: (result) => directPath.modernResult(message.method, result, serverInfo),
    });
  }

  /**
   * Serves one authorized request. `parsedBody` is the JSON body the listener already read, when it parsed. While
   * someone looks (`traffic`), the agent's messages and every message of the answer are told, labelled with the agent;
   * a stream the server's notifications reach an agent on (a 2025 session's GET, a `subscriptions/listen`) is told for
   * as long as it is open, so a look that begins later sees them too.
   */
  async fetch(request: Request, parsedBody?: unknown): Promise<Response> {
    const traffic = this.options.traffic;
    if (!traffic) return this.serve(request, parsedBody);
    const lasting = request.method === 'GET' || isListen(parsedBody);
    const sink = traffic.listening();
    if (!sink && !lasting) return this.serve(request, parsedBody);
    const id = request.headers.get(SESSION_HEADER);
    const session = id === null ? undefined : this.sessions.get(id);
    const agent =
      id !== null && session ? sessionAgent(id, session.server) : exchangeAgent(parsedBody, ++this.exchanges);
    if (sink) heardFrom(sink, agent, parsedBody);
    const response = await this.serve(request, parsedBody);
    return toldTo(response, agent, lasting ? () => traffic.listening() : () => sink);
  }

  private async serve(request: Request, parsedBody: unknown): Promise<Response> {
    if (this.closed) return new Response(null, { status: 503 });
    const legacy = await isLegacyRequest(request, parsedBody, { maxRequestBodySize: this.options.maxBodyBytes });
    if (!legacy) {
      const listening = this.listen(request, parsedBody);
      const response = await this.modern.fetch(request, parsedBody === undefined ? undefined : { parsedBody });
      // A listen the SDK refused (a bad envelope, too many streams) answers at once: its subscriptions end with it.
      if (!listening) return response;
      if (response.headers.get('content-type')?.includes('text/event-stream') !== true || !response.body) {
        this.endListen(listening);
        return response;
      }
      // The stream's end (the SDK ends it, or the agent goes away: the request's signal) ends its subscriptions.
      const body = response.body.pipeThrough(new TransformStream({ flush: () => this.endListen(listening) }));
      return new Response(body, { status: response.status, headers: response.headers });
    }
    const id = request.headers.get(SESSION_HEADER);
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return directPath.jsonRpcError(404, -32001, 'Session not found');
      session.lastActive = Date.now();
      // The SDK knows nothing of the requests served directly: their cancellation is the gateway's. The SDK still
      // gets the notification (it answers 202 and ignores an id it does not know).
      if (session.direct.size > 0) directPath.cancelDirect(session, parsedBody);
      // The agent's answers to the server's requests the gateway sent on a direct call's stream.
      if (session.asked.size > 0 && directPath.answerAsked(session, parsedBody))
        return new Response(null, { status: 202 });
      return session.transport.handleRequest(request, { parsedBody });
    }
    if (request.method !== 'POST' || !directPath.isInitialize(parsedBody))
      return directPath.jsonRpcError(400, -32000, 'Bad Request: no valid session ID; start with initialize');
    if (this.sessions.size >= (this.options.maxSessions ?? 256))
      return directPath.jsonRpcError(503, -32000, 'The gateway has as many sessions as it serves; retry later');
    return this.openSession(request, parsedBody);
  }

  private async openSession(request: Request, parsedBody: unknown): Promise<Response> {
    const limiter = new RequestLimiter(this.options.maxInFlightPerAgent ?? 32, this.options.maxQueuedPerAgent ?? 256);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => globalThis.crypto.randomUUID(),
      onsessioninitialized: (id) => this.sweep.sessionsOpen(this.sessions.set(id, session).size),
      onsessionclosed: (id) => this.forget(id),
      maxRequestBodySize: this.options.maxBodyBytes,
    });
    // The agent's server asks for its session only while it serves a request, after the session exists.
    const holder: { session?: AgentSession } = {};
    const context = this.agentContext(() => holder.session as AgentSession);
    const server = createAgentServer(context);
    const session: AgentSession = {
      transport,
      server,
      context,
      limiter,
      lastActive: Date.now(),
      subscriptions: new Set(),
      direct: new Map(),
      asked: new Map(),
    };
    holder.session = session;
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
    };
    server.oninitialized = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.sessions.has(id)) this.agents.add(id, server.getClientVersion());
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody });
  }

  /** What an agent's server reaches the gateway through; `session` is undefined for a 2026-07-28 agent. */
  private agentContext(session: (() => AgentSession) | undefined): AgentServerContext {
    const secrets = this.options.secrets ?? [];
    return {
      upstream: this.options.upstream,
      relay: this.options.relay,
      rounds: this.rounds,
      mask: (text) => maskText(text, secrets),
      maskData: (data) => maskSecrets(data, secrets),
      agentOf: (ctx) =>
        session ? { key: `session:${ctx.sessionId ?? ''}`, limiter: session().limiter } : this.modernAgent(ctx),
      subscribe: async (uri) => {
        if (!session) return;
        await this.subscribe(session(), uri);
      },
      unsubscribe: async (uri) => {
        if (!session) return;
        await this.unsubscribe(session(), uri);
      },
      setLevel: async (level) => {
        // Every agent's messages come from the one server: it is asked for the most detailed level any agent
        // wants, and each agent is sent only what its own level lets through.
        if (session) session().level = level;
        await this.options.upstream.setLogLevel(this.mostDetailedLevel(level));
      },
    };
  }

  /**
   * A 2026-07-28 agent's `subscriptions/listen`: the SDK serves the stream and filters what reaches it, but keeps the
   * filter to itself, so the gateway reads the URIs from the request and has the server subscribed to them while
   * the stream is open (its request's signal ends when the agent's connection closes).
   */
  private listen(request: Request, body: unknown): Subscriber | undefined {
    if (!this.options.upstream.session().capabilities.resources?.subscribe) return undefined;
    const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
    if (typeof message !== 'object' || message === null || message.method !== 'subscriptions/listen') return undefined;
    const uris = message.params?.notifications?.resourceSubscriptions;
    if (!Array.isArray(uris) || uris.length === 0) return undefined;
    const listening: Subscriber = { subscriptions: new Set() };
    this.listeners.add(listening);
    for (const uri of new Set(uris.filter((uri): uri is string => typeof uri === 'string').slice(0, MAX_LISTEN_URIS)))
      void this.subscribe(listening, uri).catch(() => undefined);
    if (request.signal.aborted) this.endListen(listening);
    else request.signal.addEventListener('abort', () => this.endListen(listening), { once: true });
    return listening;
  }

  private endListen(listening: Subscriber): void {
    if (!this.listeners.delete(listening)) return;
    for (const uri of [...listening.subscriptions]) void this.unsubscribe(listening, uri).catch(() => undefined);
  }

  private modernAgent(ctx: AgentRequestContext): { key: string; limiter: RequestLimiter } {
    const key = modernAgentKey(ctx);
    let limiter = this.modernAgents.get(key);
    if (!limiter) {
      // Forget idle agents first, so names the agents make up cannot grow the table.
      if (this.modernAgents.size >= MAX_MODERN_AGENTS)
        for (const [name, idle] of this.modernAgents) if (idle.load === 0) this.modernAgents.delete(name);
      limiter = new RequestLimiter(this.options.maxInFlightPerAgent ?? 32, this.options.maxQueuedPerAgent ?? 256);
      if (this.modernAgents.size < MAX_MODERN_AGENTS) this.modernAgents.set(key, limiter);
    }
    return { key, limiter };
  }

  private mostDetailedLevel(level: LoggingLevel): LoggingLevel {
    let index = LOGGING_LEVELS.indexOf(level);
    for (const session of this.sessions.values())
      if (session.level) index = Math.min(index, LOGGING_LEVELS.indexOf(session.level));
    return LOGGING_LEVELS[Math.max(0, index)];
  }

  private async subscribe(session: Subscriber, uri: string): Promise<void> {
    let subscribers = this.subscribers.get(uri);
    const first = !subscribers;
    subscribers ??= new Set();
    this.subscribers.set(uri, subscribers);
    subscribers.add(session);
    session.subscriptions.add(uri);
    if (first) await this.options.upstream.subscribe(uri);
  }

  private async unsubscribe(session: Subscriber, uri: string): Promise<void> {
    session.subscriptions.delete(uri);
    const subscribers = this.subscribers.get(uri);
    if (!subscribers?.delete(session) || subscribers.size > 0) return;
    this.subscribers.delete(uri);
    await this.options.upstream.unsubscribe(uri);
  }

  private broadcast(list: 'tools' | 'prompts' | 'resources'): void {
    for (const { server } of this.sessions.values()) {
      const sent =
        list === 'tools'
          ? server.sendToolListChanged()
          : list === 'prompts'
            ? server.sendPromptListChanged()
            : server.sendResourceListChanged();
      void sent.catch(() => undefined);
    }
    const notify = this.modern.notify;
    if (list === 'tools') notify.toolsChanged();
    else if (list === 'prompts') notify.promptsChanged();
    else notify.resourcesChanged();
  }

  private resourceUpdated(uri: string): void {
    for (const session of this.subscribers.get(uri) ?? [])
      if (isSession(session)) void session.server.sendResourceUpdated({ uri }).catch(() => undefined);
    this.modern.notify.resourceUpdated(uri);
  }

  private log(message: { level: LoggingLevel; logger?: string; data: unknown }): void {
    const secrets = this.options.secrets ?? [];
    const rank = LOGGING_LEVELS.indexOf(message.level);
    for (const session of this.sessions.values()) {
      if (session.level && rank < LOGGING_LEVELS.indexOf(session.level)) continue;
      void session.server
        .sendLoggingMessage({
          level: message.level,
          ...(message.logger !== undefined ? { logger: message.logger } : {}),
          data: maskSecrets(message.data, secrets),
        })
        .catch(() => undefined);
    }
  }

  private endIdleSessions(idleMs: number): void {
    const now = Date.now();
    for (const [id, session] of this.sessions)
      if (session.limiter.load === 0 && now - session.lastActive > idleMs) void this.endSession(id, session);
  }

  private async endSession(id: string, session: AgentSession): Promise<void> {
    this.forget(id);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.sweep.sessionsOpen(this.sessions.size);
    this.agents.remove(id);
    for (const controller of session.direct.values()) controller.abort();
    session.direct.clear();
    for (const asked of [...session.asked.values()]) asked.reject(new Error('the agent’s session ended'));
    for (const uri of [...session.subscriptions]) void this.unsubscribe(session, uri).catch(() => undefined);
  }

  /** Ends every agent session and the 2026-07-28 exchanges; the listener closes its sockets after. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.sweep.dispose();
    this.disposables.dispose();
    this.rounds.close();
    for (const listening of [...this.listeners]) this.endListen(listening);
    await Promise.all([...this.sessions].map(([id, session]) => this.endSession(id, session)));
    await this.modern.close().catch(() => undefined);
  }
}

function isSession(subscriber: Subscriber): subscriber is AgentSession {
  return 'transport' in subscriber;
}
