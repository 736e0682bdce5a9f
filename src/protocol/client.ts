import { DisposableStore, Emitter, type Disposable } from './disposable';
import { ErrorCodes, LocalError, McpError, errorMessage } from './errors';
import type { ClientHost } from './host';
import { RpcConnection, silentLogger, type Logger, type ProgressUpdate, type RequestOptions } from './jsonrpc/rpcConnection';
import type { TraceDirection } from './jsonrpc/mcpStreams';
import type {
  AttemptContext,
  AttemptOutcome,
  ClientIdentity,
  EraWire,
  InputRequest,
  InputResponses,
  ProtocolEra,
  RequiredUrlElicitation,
  ServerSession,
} from './eras/era';
import { ResultCache } from './eras/modern/cache';
import { isRemovedInModern } from './eras/modern/meta';
import { createEra, type EraPreference } from './eras/select';
import {
  LIST_ITEM_KEYS,
  type ClientNotificationMethod,
  type ClientNotifications,
  type ClientRequestMethod,
  type ClientRequestParams,
  type ClientRequestResult,
  type CompleteParams,
  type JsonParams,
  type ListItems,
  type ListMethod,
  type ServerNotificationMethod,
  type ServerNotifications,
  type ServerRequestMethod,
  type ServerRequests,
  type Unverified,
} from './methods';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  GetPromptResult,
  Implementation,
  JsonObject,
  LogMessage,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from './types';
import { assertFlatElicitationSchema } from './validation/elicitationSchema';
import { validateSamplingRequest } from './validation/samplingValidation';
import { SchemaValidator, type ValidationVerdict } from './validation/schemaValidation';
import type { Transport } from './transports/transport';

export const CLIENT_INFO: Implementation = { name: 'mcp-workbench', title: 'MCP Workbench', version: '0.1.0' };

export interface McpClientOptions {
  /** The name users know the server by; it prefixes every error and log line. */
  serverName: string;
  transport: Transport;
  host?: ClientHost;
  clientInfo?: Implementation;
  logger?: Logger;
  trace?: (direction: TraceDirection, message: unknown) => void;
  requestTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /** How long a -32042 retry waits for notifications/elicitation/complete after the person opened the URL. */
  urlElicitationTimeoutMs?: number;
  /** Offered versions, newest first (defaults to every handshake-era revision this client speaks). */
  protocolVersions?: readonly string[];
  /**
   * How sessions are opened and requests shaped and read: an era preference ('auto' probes for the
   * 2026-07-28 era and falls back to the handshake, '2026-07-28', 'legacy'), or an era object. Defaults to
   * 'legacy', the handshake era built from `protocolVersions` and `initializeTimeoutMs`.
   */
  era?: ProtocolEra | EraPreference;
  /** auto over stdio: how long server/discover may go unanswered before the server counts as legacy. */
  eraProbeTimeoutMs?: number;
}

export type { HandshakeSession, ServerSession } from './eras/era';

export type ClientState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'ready'; session: ServerSession }
  | { kind: 'closed'; error?: Error };

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs?: number;
  /** Fetch again even when a 2026-07-28 cached result is still fresh (a manual refresh). */
  refresh?: boolean;
}

export interface CallToolOutcome {
  result: CallToolResult;
  /** Verdict of structuredContent against the tool's outputSchema; absent when the tool declares none. */
  outputValidation?: ValidationVerdict;
}

const MAX_PAGES = 10_000;
/** Attempts of one request across era retries and input rounds; a server that never completes is cut off. */
const MAX_ATTEMPTS = 16;

type ServerRequestHandlers = {
  [M in ServerRequestMethod]?: (params: Unverified<ServerRequests[M]['params']>, signal: AbortSignal) => Promise<ServerRequests[M]['result']>;
};

/** A complete MCP client for one server, over any transport. */
export class McpClient implements Disposable {
  private readonly rpc: RpcConnection;
  private readonly disposables = new DisposableStore();
  private readonly validator = new SchemaValidator();
  private readonly logger: Logger;
  private stateValue: ClientState = { kind: 'idle' };
  private toolsByName = new Map<string, Tool>();
  /** 2026-07-28 results reused while their ttlMs says they are fresh. */
  private readonly resultCache = new ResultCache();
  /** 2026-07-28: the resources the subscription stream asks updates for. */
  private readonly subscribedResources = new Set<string>();
  private connecting: Promise<ServerSession> | undefined;
  /** The one renewal in flight; concurrent requests that saw the session expire all wait for it. */
  private renewing: Promise<ServerSession> | undefined;
  private readonly era: ProtocolEra;
  private readonly wire: EraWire;
  private readonly serverRequestHandlers: ServerRequestHandlers;
  private readonly pendingUrlElicitations = new Map<string, () => void>();

  private readonly stateEmitter = this.disposables.add(new Emitter<ClientState>());
  private readonly toolsChanged = this.disposables.add(new Emitter<void>());
  private readonly resourcesChanged = this.disposables.add(new Emitter<void>());
  private readonly promptsChanged = this.disposables.add(new Emitter<void>());
  private readonly resourceUpdated = this.disposables.add(new Emitter<string>());
  private readonly logMessage = this.disposables.add(new Emitter<LogMessage>());

  readonly onDidChangeState = this.stateEmitter.event;
  readonly onToolsChanged = this.toolsChanged.event;
  readonly onResourcesChanged = this.resourcesChanged.event;
  readonly onPromptsChanged = this.promptsChanged.event;
  readonly onResourceUpdated = this.resourceUpdated.event;
  readonly onLogMessage = this.logMessage.event;
  readonly onViolation: RpcConnection['onViolation'];
  readonly onClose: RpcConnection['onClose'];

  constructor(private readonly options: McpClientOptions) {
    this.logger = options.logger ?? silentLogger;
    this.rpc = new RpcConnection(options.transport, {
      serverName: options.serverName,
      logger: this.logger,
      trace: options.trace,
      defaultTimeoutMs: options.requestTimeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
    });
    const handshakeOptions = { protocolVersions: options.protocolVersions, initializeTimeoutMs: options.initializeTimeoutMs ?? options.requestTimeoutMs };
    const era = options.era ?? 'legacy';
    this.era =
      typeof era === 'string'
        ? createEra(era, { handshake: handshakeOptions, modern: { discoverTimeoutMs: options.initializeTimeoutMs ?? options.requestTimeoutMs }, probeTimeoutMs: options.eraProbeTimeoutMs })
        : era;
    this.wire = {
      serverName: options.serverName,
      logger: this.logger,
      transport: options.transport,
      request: (method, params, requestOptions) => this.rpc.request(method, params, requestOptions),
      notify: (method, params) => this.rpc.notify(method, params),
    };
    options.transport.setProtocolHeaders?.((request) => this.era.headersFor(request));
    this.onViolation = this.rpc.onViolation;
    this.onClose = this.rpc.onClose;
    this.disposables.add(
      this.rpc.onClose((error) => this.setState({ kind: 'closed', error: error ? new LocalError('connection-closed', `${this.serverName}: ${errorMessage(error)}`) : undefined })),
    );
    this.serverRequestHandlers = this.createServerRequestHandlers();
    this.registerServerRequests();
    this.registerNotifications();
  }

  get serverName(): string {
    return this.options.serverName;
  }

  get state(): ClientState {
    return this.stateValue;
  }

  get transport(): Transport {
    return this.options.transport;
  }

  /** The negotiated session; throws when the client is not connected. */
  get session(): ServerSession {
    if (this.stateValue.kind !== 'ready') throw new LocalError('connection-closed', `${this.serverName} is not connected`);
    return this.stateValue.session;
  }

  get capabilities(): ClientCapabilities {
    const host = this.options.host ?? {};
    const capabilities: ClientCapabilities = {};
    if (host.roots) capabilities.roots = { listChanged: host.roots.onDidChangeRoots !== undefined };
    if (host.sampling) capabilities.sampling = host.sampling.supportsTools ? { tools: {} } : {};
    if (host.elicitation) {
      const modes = host.elicitation.modes;
      capabilities.elicitation = Object.fromEntries(modes.map((mode) => [mode, {}]));
    }
    return capabilities;
  }

  /** How this client introduces itself to the server. */
  private get identity(): ClientIdentity {
    return { clientInfo: this.options.clientInfo ?? CLIENT_INFO, capabilities: this.capabilities };
  }

  /** Connects and opens a session as the era prescribes. Idempotent: concurrent callers share one attempt. */
  connect(): Promise<ServerSession> {
    if (this.stateValue.kind === 'ready') return Promise.resolve(this.stateValue.session);
    if (this.connecting) return this.connecting;
    if (this.stateValue.kind === 'closed') return Promise.reject(new LocalError('connection-closed', `${this.serverName}: the client was closed; create a new one`));
    this.connecting = this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async doConnect(): Promise<ServerSession> {
    this.setState({ kind: 'connecting' });
    try {
      await this.rpc.start();
      const session = await this.era.open(this.wire, this.identity);
      const roots = this.options.host?.roots;
      // 2026-07-28 has no roots/list_changed: roots travel with each request that needs them.
      if (roots?.onDidChangeRoots && session.kind === 'handshake') {
        this.disposables.add(roots.onDidChangeRoots(() => void this.notify('notifications/roots/list_changed', undefined).catch(() => undefined)));
      }
      this.setState({ kind: 'ready', session });
      return session;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      await this.rpc.close().catch(() => undefined);
      this.setState({ kind: 'closed', error: failure });
      throw failure;
    }
  }

  async close(): Promise<void> {
    this.era.close?.();
    await this.rpc.close();
    this.setState({ kind: 'closed' });
    this.disposables.dispose();
  }

  dispose(): void {
    void this.close();
  }

  // ---- server features -------------------------------------------------------------------------

  /**
   * Checks the server answers. 2026-07-28 removed `ping`; there the liveness check is a server/discover
   * (never served from the cache), the one request every modern server must answer.
   */
  async ping(options: CallOptions = {}): Promise<void> {
    if (this.session.kind === 'modern') {
      await this.request('server/discover', undefined, { ...options, refresh: true });
      return;
    }
    await this.request('ping', undefined, options);
  }

  async listTools(options: CallOptions = {}): Promise<Tool[]> {
    if (!this.session.capabilities.tools) return [];
    const tools = await this.listAll('tools/list', options);
    this.toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<CallToolOutcome> {
    this.require('tools', 'call tools');
    const result = await this.sendToolCall(name, args, options);
    if (!Array.isArray(result.content)) {
      throw new LocalError('protocol-violation', `${this.serverName}: tools/call result for ${name} has no content array`);
    }
    const tool = this.toolsByName.get(name);
    if (!tool?.outputSchema || result.isError) return { result };
    if (result.structuredContent === undefined) {
      return { result, outputValidation: { kind: 'invalid', errors: ['the tool declares an outputSchema but returned no structuredContent'] } };
    }
    return { result, outputValidation: this.validator.validate(tool.outputSchema, result.structuredContent) };
  }

  /**
   * 2026-07-28 over HTTP: a HeaderMismatch (-32020) usually means the tool's x-mcp-header annotations changed
   * since tools/list; the spec's advice is to list the tools again and retry once with the new headers.
   */
  private sendToolCall(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const call = this.request('tools/call', { name, arguments: args }, options);
    // Only a modern session can answer HeaderMismatch; elsewhere the call is passed on without another async frame
    // (each one is a promise and more turns on the way back to the caller).
    const modern = this.stateValue.kind === 'ready' && this.stateValue.session.kind === 'modern';
    return modern ? this.retryOnHeaderMismatch(call, name, args, options) : call;
  }

  private async retryOnHeaderMismatch(call: Promise<CallToolResult>, name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    try {
      return await call;
    } catch (error) {
      if (!(error instanceof McpError) || error.code !== ErrorCodes.HeaderMismatch || this.session.kind !== 'modern') throw error;
      this.logger.info(`${this.serverName}: the server says the headers of ${name} do not match; listing tools again and retrying once`);
      await this.listTools({ refresh: true, signal: options.signal });
      return this.request('tools/call', { name, arguments: args }, options);
    }
  }

  async listResources(options: CallOptions = {}): Promise<Resource[]> {
    if (!this.session.capabilities.resources) return [];
    return this.listAll('resources/list', options);
  }

  async listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplate[]> {
    if (!this.session.capabilities.resources) return [];
    return this.listAll('resources/templates/list', options);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    this.require('resources', 'read resources');
    const result = await this.request('resources/read', { uri }, options);
    if (!Array.isArray(result.contents)) throw new LocalError('protocol-violation', `${this.serverName}: resources/read result has no contents array`);
    return result;
  }

  async subscribeResource(uri: string): Promise<void> {
    if (!this.session.capabilities.resources?.subscribe) {
      throw new LocalError('capability-missing', `${this.serverName} does not support resource subscriptions`);
    }
    if (this.session.kind === 'modern') {
      // 2026-07-28: the subscription stream is reopened with the new resource list.
      this.subscribedResources.add(uri);
      this.era.setSubscribedResources?.([...this.subscribedResources]);
      return;
    }
    await this.request('resources/subscribe', { uri });
  }

  async unsubscribeResource(uri: string): Promise<void> {
    if (!this.session.capabilities.resources?.subscribe) {
      throw new LocalError('capability-missing', `${this.serverName} does not support resource subscriptions`);
    }
    if (this.session.kind === 'modern') {
      this.subscribedResources.delete(uri);
      this.era.setSubscribedResources?.([...this.subscribedResources]);
      return;
    }
    await this.request('resources/unsubscribe', { uri });
  }

  async listPrompts(options: CallOptions = {}): Promise<Prompt[]> {
    if (!this.session.capabilities.prompts) return [];
    return this.listAll('prompts/list', options);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    this.require('prompts', 'get prompts');
    const result = await this.request('prompts/get', { name, arguments: args }, options);
    if (!Array.isArray(result.messages)) throw new LocalError('protocol-violation', `${this.serverName}: prompts/get result has no messages array`);
    return result;
  }

  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: Record<string, string>): Promise<CompleteResult['completion']> {
    this.require('completions', 'complete arguments');
    const params: CompleteParams = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.request('completion/complete', params);
    return result.completion ?? { values: [] };
  }

  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.require('logging', 'set a log level');
    if (this.session.kind === 'modern') {
      // 2026-07-28: every request asks for its own log level in _meta (logging/setLevel no longer exists).
      this.era.setLogLevel?.(level);
      return;
    }
    await this.request('logging/setLevel', { level });
  }

  /** Tells the server the roots changed (the host calls this, or wires onDidChangeRoots). */
  async notifyRootsChanged(): Promise<void> {
    if (this.stateValue.kind === 'ready' && this.stateValue.session.kind === 'handshake') await this.notify('notifications/roots/list_changed', undefined);
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private require(capability: keyof ServerCapabilities, what: string): void {
    if (!this.session.capabilities[capability]) {
      throw new LocalError('capability-missing', `${this.serverName} does not offer ${String(capability)}, so this client cannot ${what}`);
    }
  }

  /**
   * Sends one request through the era: the era shapes each attempt and reads its outcome, and this loop
   * carries out the verdict (renew the session once, complete URL elicitations once, answer input requests,
   * send again), bounded by MAX_ATTEMPTS.
   */
  private async request<M extends ClientRequestMethod>(method: M, params: ClientRequestParams<M>, options: CallOptions = {}): Promise<ClientRequestResult<M>> {
    let session = this.session; // throws when not connected
    if (session.kind === 'modern') {
      if (isRemovedInModern(method)) {
        throw new LocalError('capability-missing', `${this.serverName}: ${method} does not exist in protocol ${session.protocolVersion}, so this client does not send it`);
      }
      if (!options.refresh) {
        const cached = this.resultCache.lookup(method, params);
        if (cached.kind === 'fresh') return cached.result as ClientRequestResult<M>;
      }
    }
    const requestOptions: RequestOptions = { signal: options.signal, onProgress: options.onProgress, timeoutMs: options.timeoutMs };
    let currentParams: JsonParams | undefined = params;
    let renewed = false;
    let elicitedUrls = false;
    for (let attempt = 1; ; attempt++) {
      // A request that starts while a renewal is in flight waits for the new session instead of racing it.
      if (this.renewing) session = await this.renewing;
      const context: AttemptContext = { method, attempt, session, identity: this.identity };
      const outcome = await this.attempt(method, this.era.shapeParams(currentParams, context), requestOptions);
      const verdict = this.era.interpret(outcome, context);
      if (verdict.kind !== 'complete' && verdict.kind !== 'fail' && attempt >= MAX_ATTEMPTS) {
        throw new LocalError('protocol-violation', `${this.serverName}: ${method} did not complete after ${attempt} attempts; giving up`);
      }
      switch (verdict.kind) {
        case 'complete':
          if (session.kind === 'modern') this.resultCache.store(method, params, verdict.result);
          // The declared shape of the method's result; callers check the fields they rely on.
          return verdict.result as ClientRequestResult<M>;
        case 'fail':
          throw verdict.error;
        case 'retry':
          this.logger.debug(`${this.serverName}: sending ${method} again: ${verdict.reason}`);
          continue;
        case 'renew-session':
          // A request that fails again after a renewal is not renewed in a loop.
          if (renewed) throw outcomeError(outcome, `${this.serverName}: ${method} failed again after a new session: ${verdict.reason}`);
          renewed = true;
          session = await this.renewSession(session, verdict.reason);
          continue;
        case 'url-elicitation-required':
          if (elicitedUrls || !(await this.completeRequiredUrlElicitations(verdict.elicitations, options.signal))) throw verdict.error;
          elicitedUrls = true;
          continue;
        case 'input-required':
          currentParams = verdict.continueWith(currentParams, await this.answerInputRequests(verdict.inputRequests, options.signal));
          continue;
      }
    }
  }

  private attempt(method: ClientRequestMethod, params: JsonParams | undefined, options: RequestOptions): Promise<AttemptOutcome> {
    // Not an async function: module-level callbacks, no closure and no extra promise per request.
    return this.rpc.request<JsonObject>(method, params, options).then(resultOutcome, errorOutcome);
  }

  /**
   * Single-flight renewal: every request that saw `expired` end shares one renewal, and a request that saw
   * the expiry of a session already replaced simply uses the new one.
   */
  private renewSession(expired: ServerSession, reason: string): Promise<ServerSession> {
    if (this.renewing) return this.renewing;
    if (this.stateValue.kind === 'ready' && this.stateValue.session !== expired) return Promise.resolve(this.stateValue.session);
    this.renewing = this.era
      .renew(this.wire, this.identity, reason)
      .then((session) => {
        this.setState({ kind: 'ready', session });
        return session;
      })
      .finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** Answers the server's input requests through the host, with the handlers that serve server→client requests. */
  private async answerInputRequests(inputRequests: Readonly<Record<string, InputRequest>>, signal: AbortSignal | undefined): Promise<InputResponses> {
    const responses: InputResponses = {};
    const scope = signal ?? new AbortController().signal;
    for (const [key, input] of Object.entries(inputRequests)) {
      responses[key] = await this.answerServerRequest(input, scope);
    }
    return responses;
  }

  private answerServerRequest(input: InputRequest, signal: AbortSignal): Promise<JsonObject> {
    const missing = () => new LocalError('capability-missing', `${this.serverName} asked for ${input.method}, which this client does not offer`);
    const handlers = this.serverRequestHandlers;
    switch (input.method) {
      case 'ping':
        return handlers.ping ? handlers.ping(input.params, signal) : Promise.reject(missing());
      case 'roots/list':
        return handlers['roots/list'] ? handlers['roots/list'](input.params, signal) : Promise.reject(missing());
      case 'sampling/createMessage':
        return handlers['sampling/createMessage'] ? handlers['sampling/createMessage'](input.params, signal) : Promise.reject(missing());
      case 'elicitation/create':
        return handlers['elicitation/create'] ? handlers['elicitation/create'](input.params, signal) : Promise.reject(missing());
    }
  }

  /**
   * A -32042 error lists URL-mode elicitations the server needs before it can serve the request. They go
   * through the same consent flow as elicitation/create; the request is retried once if the person accepted
   * every one of them. Returns false when they could not be completed (the original error then stands).
   */
  private async completeRequiredUrlElicitations(elicitations: readonly RequiredUrlElicitation[], signal: AbortSignal | undefined): Promise<boolean> {
    const elicitation = this.options.host?.elicitation;
    if (!elicitation?.modes.includes('url')) return false;
    const context = { serverName: this.serverName, signal: signal ?? new AbortController().signal };
    for (const item of elicitations) {
      const message = item.message ?? `${this.serverName} needs you to open a URL`;
      const completed = this.waitForElicitationComplete(item.elicitationId, context.signal);
      const answer = await elicitation.elicit({ mode: 'url', message, url: item.url, elicitationId: item.elicitationId }, context);
      if (answer.action !== 'accept') {
        completed.cancel();
        return false;
      }
      // The person only agreed to open the page; the server says when the out-of-band step is done.
      if (!(await completed.done)) return false;
    }
    return true;
  }

  private waitForElicitationComplete(elicitationId: string, signal: AbortSignal): { done: Promise<boolean>; cancel(): void } {
    let finish!: (completed: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finish = resolve));
    const timer = setTimeout(() => settle(false), this.options.urlElicitationTimeoutMs ?? 10 * 60_000);
    const onAbort = () => settle(false);
    const settle = (completed: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.pendingUrlElicitations.delete(elicitationId);
      finish(completed);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.pendingUrlElicitations.set(elicitationId, () => settle(true));
    return { done, cancel: () => settle(false) };
  }

  private async listAll<M extends ListMethod>(method: M, options: CallOptions): Promise<ListItems[M][]> {
    const key = LIST_ITEM_KEYS[method];
    const items: ListItems[M][] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result: JsonObject = await this.request<ListMethod>(method, cursor === undefined ? undefined : { cursor }, options);
      const pageItems: unknown = result[key];
      if (!Array.isArray(pageItems)) throw new LocalError('protocol-violation', `${this.serverName}: ${method} result has no "${key}" array`);
      // One at a time: spreading a hostile 200,000-item page into push() overflows the call stack.
      for (const item of pageItems as ListItems[M][]) items.push(item);
      const next = result.nextCursor;
      if (typeof next !== 'string') return items;
      if (seenCursors.has(next)) {
        throw new LocalError('protocol-violation', `${this.serverName}: ${method} returned cursor ${JSON.stringify(next)} twice; stopping to avoid an endless loop`);
      }
      seenCursors.add(next);
      cursor = next;
    }
    throw new LocalError('protocol-violation', `${this.serverName}: ${method} returned more than ${MAX_PAGES} pages`);
  }

  /** The host's services as handlers of server→client requests (handshake era) and of input requests (modern era). */
  private createServerRequestHandlers(): ServerRequestHandlers {
    const host = this.options.host ?? {};
    const handlers: ServerRequestHandlers = { ping: async () => ({}) };
    const roots = host.roots;
    if (roots) handlers['roots/list'] = async () => ({ roots: await roots.listRoots() });
    const sampling = host.sampling;
    if (sampling) {
      handlers['sampling/createMessage'] = async (params, signal) => {
        const problem = validateSamplingRequest(params, Boolean(sampling.supportsTools));
        if (problem) throw new McpError(ErrorCodes.InvalidParams, problem);
        // validateSamplingRequest checked the shape the handler relies on.
        return sampling.createMessage(params as ServerRequests['sampling/createMessage']['params'], { serverName: this.serverName, signal });
      };
    }
    const elicitation = host.elicitation;
    if (elicitation) {
      handlers['elicitation/create'] = async (params, signal) => {
        const mode = params.mode === undefined ? 'form' : params.mode;
        if (mode !== 'form' && mode !== 'url') throw new McpError(ErrorCodes.InvalidParams, `unknown elicitation mode ${JSON.stringify(mode)}`);
        if (!elicitation.modes.includes(mode)) throw new McpError(ErrorCodes.InvalidParams, `elicitation mode "${mode}" was not declared by this client`);
        const message = params.message;
        if (typeof message !== 'string') throw new McpError(ErrorCodes.InvalidParams, 'elicitation/create needs a message');
        // 2026-07-28 removed elicitationId (a URL elicitation is an input request of one retried request).
        const needsId = !(this.stateValue.kind === 'ready' && this.stateValue.session.kind === 'modern');
        if (mode === 'url' && (typeof params.url !== 'string' || (needsId && typeof params.elicitationId !== 'string'))) {
          throw new McpError(ErrorCodes.InvalidParams, needsId ? 'URL-mode elicitation needs url and elicitationId' : 'URL-mode elicitation needs a url');
        }
        // A form may only ask for flat primitive fields (the spec's PrimitiveSchemaDefinition); anything else is
        // refused with -32602 before a person sees it. The form layer still bounds what it renders.
        if (mode === 'form') assertFlatElicitationSchema(params.requestedSchema);
        return elicitation.elicit({ ...(params as ServerRequests['elicitation/create']['params']), mode, message }, { serverName: this.serverName, signal });
      };
    }
    return handlers;
  }

  private registerServerRequests(): void {
    this.serve('ping');
    this.serve('roots/list');
    this.serve('sampling/createMessage');
    this.serve('elicitation/create');
  }

  /** Answers server→client requests for `method` with its handler; without one the RPC layer answers -32601. */
  private serve<M extends ServerRequestMethod>(method: M): void {
    const handler: ServerRequestHandlers[M] = this.serverRequestHandlers[method];
    if (handler) this.rpc.setRequestHandler(method, (params, signal) => handler(params, signal));
  }

  /** Subscribes to a server notification; its params arrive unverified. */
  private onNotification<M extends ServerNotificationMethod>(method: M, handler: (params: Unverified<ServerNotifications[M]['params']>) => void): void {
    this.rpc.setNotificationHandler(method, handler);
  }

  private notify<M extends ClientNotificationMethod>(method: M, params: ClientNotifications[M]['params']): Promise<void> {
    return this.rpc.notify(method, params);
  }

  private registerNotifications(): void {
    // 2026-07-28: change notifications count only when they name one of our subscriptions, and they make
    // the cached list (or read) stale.
    const ours = (method: ServerNotificationMethod, params: JsonObject) => this.era.acceptsNotification?.(method, params) ?? true;
    this.onNotification('notifications/tools/list_changed', (params) => {
      if (!ours('notifications/tools/list_changed', params)) return;
      this.resultCache.invalidate('tools/list');
      this.toolsChanged.fire();
    });
    this.onNotification('notifications/resources/list_changed', (params) => {
      if (!ours('notifications/resources/list_changed', params)) return;
      this.resultCache.invalidate('resources/list');
      this.resultCache.invalidate('resources/templates/list');
      this.resourcesChanged.fire();
    });
    this.onNotification('notifications/prompts/list_changed', (params) => {
      if (!ours('notifications/prompts/list_changed', params)) return;
      this.resultCache.invalidate('prompts/list');
      this.promptsChanged.fire();
    });
    this.onNotification('notifications/resources/updated', (params) => {
      if (!ours('notifications/resources/updated', params) || typeof params.uri !== 'string') return;
      const uri = params.uri;
      this.resultCache.invalidate('resources/read', (read) => read.uri === uri);
      this.resourceUpdated.fire(uri);
    });
    this.onNotification('notifications/message', (params) => {
      // The level is passed on as sent; hosts map unknown levels to their default.
      this.logMessage.fire({ level: params.level as LoggingLevel, logger: typeof params.logger === 'string' ? params.logger : undefined, data: params.data });
    });
    this.onNotification('notifications/elicitation/complete', (params) => {
      if (typeof params.elicitationId !== 'string') return;
      this.pendingUrlElicitations.get(params.elicitationId)?.();
      this.options.host?.elicitation?.completed?.(params.elicitationId, this.serverName);
    });
  }

  private setState(state: ClientState): void {
    if (this.stateValue.kind === 'closed' && state.kind !== 'closed') return;
    if (this.stateValue.kind === 'closed' && state.kind === 'closed') return;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }
}

function resultOutcome(result: JsonObject): AttemptOutcome {
  return { kind: 'result', result };
}

function errorOutcome(error: unknown): AttemptOutcome {
  return { kind: 'error', error: error instanceof Error ? error : new Error(String(error)) };
}

/** The error behind an outcome, or a new one saying what happened when the outcome was a result. */
function outcomeError(outcome: AttemptOutcome, otherwise: string): Error {
  return outcome.kind === 'error' ? outcome.error : new LocalError('session-expired', otherwise);
}
