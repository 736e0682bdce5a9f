import { DisposableStore, Emitter, type Disposable } from './disposable';
import { ErrorCodes, LocalError, McpError, errorMessage, requireCapability } from './errors';
import type { ClientIdentity, EraRequests, ProtocolEra, ServerSession } from './eras/era';
import { createEra, type EraPreference } from './eras/select';
import { ActiveExtensions } from './extensions/activeExtensions';
import {
  answerServerRequest,
  type ExtensionContext,
  type ExtensionKey,
  type ServerRequestInterceptor,
} from './extensions/protocolExtension';
import { PersonWaits } from './jsonrpc/personWaits';
import { RpcConnection, silentLogger, type Logger } from './jsonrpc/rpcConnection';
import type {
  ClientRequestMethod,
  ClientRequestParams,
  ClientRequestResult,
  CompleteParams,
  ListItems,
  ListMethod,
  ServerNotificationMethod,
  ServerNotifications,
  Unverified,
} from './methods';
import { CORE_NOTIFICATION_METHODS } from './methods';
import { listAllPages } from './requests/pagination';
import { RequestLoop, eraWireOf, type RequestLoopPeer } from './requests/requestLoop';
import {
  SERVER_REQUEST_METHODS,
  answerInputRequests,
  createServerRequestHandlers,
  type ServerRequestHandlers,
} from './requests/serverRequests';
import { UrlElicitations } from './requests/urlElicitations';
import type {
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
import { SchemaValidator } from './validation/schemaValidation';
import { NO_OPTIONS, type CallOptions, type CallToolOutcome, type McpClientOptions } from './clientOptions';
import { clientCapabilities } from './clientCapabilities';
import { checkToolResult } from './toolResultCheck';
import type { Transport } from './transports/transport';

const CLIENT_INFO: Implementation = { name: 'mcp-workbench', title: 'MCP Workbench', version: '0.1.0' };

export type { CallOptions, CallToolOutcome, McpClientOptions } from './clientOptions';
export type { ServerSession } from './eras/era';

type ClientState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'ready'; session: ServerSession }
  | { kind: 'closed'; error?: Error };

/** A complete MCP client for one server, over any transport. It names no era: the era strategy decides what differs. */
export class McpClient implements Disposable {
  private readonly rpc: RpcConnection;
  private readonly disposables = new DisposableStore();
  private readonly validator = new SchemaValidator();
  private readonly logger: Logger;
  private stateValue: ClientState = { kind: 'idle' };
  private toolsByName = new Map<string, Tool>();
  /** The resources the person subscribed to. */
  private readonly subscribedResources = new Set<string>();
  private extensionListenFields: Readonly<Record<string, unknown>> = {};
  private connecting: Promise<ServerSession> | undefined;
  private readonly era: ProtocolEra;
  private readonly loop: RequestLoop;
  private readonly serverRequestHandlers: ServerRequestHandlers;
  private readonly urlElicitations: UrlElicitations;
  private readonly activeExtensions: ActiveExtensions;
  private readonly eraRequests: EraRequests;
  /** The PersonWaits of this connection (the one given in the options, or the client's own). */
  readonly personWaits: PersonWaits;
  /** Server→client requests enabled extensions answer (registered while they activate). */
  private readonly serverRequestInterceptors: ServerRequestInterceptor[] = [];
  /** Aborted when the client closes, so extensions' timers end with it. */
  private readonly lifetime = new AbortController();

  private readonly stateEmitter = this.disposables.add(new Emitter<ClientState>());
  private readonly toolsChanged = this.disposables.add(new Emitter<void>(() => this.wantedChanged()));
  private readonly resourcesChanged = this.disposables.add(new Emitter<void>(() => this.wantedChanged()));
  private readonly promptsChanged = this.disposables.add(new Emitter<void>(() => this.wantedChanged()));
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
    this.personWaits = options.personWaits ?? this.disposables.add(new PersonWaits());
    this.rpc = new RpcConnection(options.transport, {
      serverName: options.serverName,
      logger: this.logger,
      trace: options.trace,
      defaultTimeoutMs: options.requestTimeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      personWaits: this.personWaits,
    });
    this.era = typeof options.era === 'object' ? options.era : this.createEra(options.era ?? 'legacy');
    this.loop = new RequestLoop(this.loopPeer());
    this.eraRequests = {
      request: (method, params) => this.loop.request(method, params as never),
      notify: (method, params) => this.rpc.notify(method, params),
    };
    this.activeExtensions = new ActiveExtensions(options.extensions ?? [], this.extensionContext());
    this.urlElicitations = this.disposables.add(
      new UrlElicitations(
        options.serverName,
        options.host?.elicitation,
        this.personWaits,
        options.urlElicitationTimeoutMs,
      ),
    );
    options.transport.setProtocolHeaders?.((request) => this.era.headersFor(request));
    this.onViolation = this.rpc.onViolation;
    this.onClose = this.rpc.onClose;
    this.disposables.add(
      this.rpc.onClose((error) => {
        this.lifetime.abort();
        this.setState({
          kind: 'closed',
          error: error ? new LocalError('connection-closed', `${this.serverName}: ${errorMessage(error)}`) : undefined,
        });
      }),
    );
    this.serverRequestHandlers = createServerRequestHandlers({
      serverName: options.serverName,
      host: options.host ?? {},
      personWaits: this.personWaits,
      urlElicitationNeedsId: () => this.era.urlElicitationNeedsId(),
    });
    for (const method of SERVER_REQUEST_METHODS) this.serve(method);
    for (const interceptor of this.serverRequestInterceptors)
      for (const method of interceptor.methods) this.serveExtensionMethod(method);
    this.registerNotifications();
  }

  private createEra(preference: EraPreference): ProtocolEra {
    const options = this.options;
    const timeoutMs = options.initializeTimeoutMs ?? options.requestTimeoutMs;
    return createEra(preference, {
      handshake: { protocolVersions: options.protocolVersions, initializeTimeoutMs: timeoutMs },
      modern: { discoverTimeoutMs: timeoutMs, cacheMaxBytes: options.resultCacheMaxBytes },
      probeTimeoutMs: options.eraProbeTimeoutMs,
      probeGraceMs: options.eraProbeGraceMs,
      memory: options.eraMemory,
    });
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
    if (this.stateValue.kind !== 'ready')
      throw new LocalError('connection-closed', `${this.serverName} is not connected`);
    return this.stateValue.session;
  }

  get capabilities(): ClientCapabilities {
    return clientCapabilities(this.options.host ?? {}, this.activeExtensions);
  }

  /** The API of an enabled protocol extension, or undefined when the host did not enable it. */
  extension<Api>(key: ExtensionKey<Api>): Api | undefined {
    return this.activeExtensions.api(key);
  }

  /** How this client introduces itself to the server. */
  private get identity(): ClientIdentity {
    return { clientInfo: this.options.clientInfo ?? CLIENT_INFO, capabilities: this.capabilities };
  }

  /** Connects and opens a session as the era prescribes. Idempotent: concurrent callers share one attempt. */
  connect(): Promise<ServerSession> {
    if (this.stateValue.kind === 'ready') return Promise.resolve(this.stateValue.session);
    if (this.connecting) return this.connecting;
    if (this.stateValue.kind === 'closed')
      return Promise.reject(
        new LocalError('connection-closed', `${this.serverName}: the client was closed; create a new one`),
      );
    this.connecting = this.doConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async doConnect(): Promise<ServerSession> {
    this.setState({ kind: 'connecting' });
    try {
      await this.rpc.start();
      this.wantedChanged();
      const session = await this.era.open(
        eraWireOf({ serverName: this.serverName, logger: this.logger, rpc: this.rpc }),
        this.identity,
      );
      const roots = this.options.host?.roots;
      if (roots?.onDidChangeRoots)
        this.disposables.add(roots.onDidChangeRoots(() => void this.notifyRootsChanged().catch(() => undefined)));
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
    this.lifetime.abort();
    this.era.close?.();
    await this.rpc.close();
    this.setState({ kind: 'closed' });
    this.disposables.dispose();
  }

  dispose(): void {
    void this.close();
  }

  // ---- server features -------------------------------------------------------------------------

  /** Checks the server answers, with the era's liveness request (never served from a cache). */
  async ping(options: CallOptions = {}): Promise<void> {
    await this.forward(this.era.livenessMethod(), undefined, { ...options, refresh: true });
  }

  async listTools(options: CallOptions = {}): Promise<Tool[]> {
    if (!this.session.capabilities.tools) return [];
    const tools = await this.listAll('tools/list', options);
    this.toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  /** Not an async function, its check rides on the request: a call in flight holds no frame, `then` or closure of its own. */
  callTool(name: string, args: Record<string, unknown> = {}, options = NO_OPTIONS): Promise<CallToolOutcome> {
    try {
      this.require('tools', 'call tools'); // throws when not connected too: a rejection, as from an async function
    } catch (error) {
      return Promise.reject(error);
    }
    return this.loop.request('tools/call', { name, arguments: args }, options, this.toolCallCheck);
  }

  /** callTool's check of a result, made once for every call. */
  private readonly toolCallCheck = (result: JsonObject, params: JsonObject | undefined): CallToolOutcome =>
    this.checkToolResult(result, { toolName: params?.name as string });

  /** The checks every tools/call result gets, however it came (toolResultCheck.ts). */
  checkToolResult(result: JsonObject, about: { toolName?: string; taskId?: string }): CallToolOutcome {
    const tool = about.toolName === undefined ? undefined : this.toolsByName.get(about.toolName);
    return checkToolResult(result, this.serverName, tool, about, this.validator);
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
    const result = await this.forward('resources/read', { uri }, options);
    if (!Array.isArray(result.contents))
      throw new LocalError('protocol-violation', `${this.serverName}: resources/read result has no contents array`);
    return result;
  }

  async subscribeResource(uri: string): Promise<void> {
    await this.changeSubscription(uri, true);
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.changeSubscription(uri, false);
  }

  private async changeSubscription(uri: string, subscribed: boolean): Promise<void> {
    if (!this.session.capabilities.resources?.subscribe) {
      throw new LocalError('capability-missing', `${this.serverName} does not support resource subscriptions`);
    }
    if (subscribed) this.subscribedResources.add(uri);
    else this.subscribedResources.delete(uri);
    await this.era.changeResourceSubscription(uri, subscribed, [...this.subscribedResources], this.eraRequests);
  }

  async listPrompts(options: CallOptions = {}): Promise<Prompt[]> {
    if (!this.session.capabilities.prompts) return [];
    return this.listAll('prompts/list', options);
  }

  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    this.require('prompts', 'get prompts');
    const result = await this.forward('prompts/get', { name, arguments: args }, options);
    if (!Array.isArray(result.messages))
      throw new LocalError('protocol-violation', `${this.serverName}: prompts/get result has no messages array`);
    return result;
  }

  async complete(
    ref: CompletionReference,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<CompleteResult['completion']> {
    this.require('completions', 'complete arguments');
    const params: CompleteParams = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.forward('completion/complete', params);
    return result.completion ?? { values: [] };
  }

  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.require('logging', 'set a log level');
    await this.era.setLogLevel(level, this.eraRequests);
  }

  /** Tells the server the roots changed (the host calls this, or wires onDidChangeRoots). */
  async notifyRootsChanged(): Promise<void> {
    if (this.stateValue.kind === 'ready') await this.era.rootsChanged(this.eraRequests);
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private require(capability: keyof ServerCapabilities, what: string): void {
    requireCapability(this.serverName, this.session.capabilities, capability, what);
  }

  forward<M extends ClientRequestMethod>(
    method: M,
    params: ClientRequestParams<M>,
    options = NO_OPTIONS,
  ): Promise<ClientRequestResult<M>> {
    return this.loop.request(method, params, options);
  }

  private listAll<M extends ListMethod>(method: M, options: CallOptions): Promise<ListItems[M][]> {
    return listAllPages(this.serverName, method, (cursor) =>
      this.forward<ListMethod>(method, cursor === undefined ? undefined : { cursor }, options),
    );
  }

  private loopPeer(): RequestLoopPeer {
    return {
      serverName: this.options.serverName,
      logger: this.logger,
      rpc: this.rpc,
      era: this.era,
      identity: () => this.identity,
      session: () => this.session,
      currentSession: () => (this.stateValue.kind === 'ready' ? this.stateValue.session : undefined),
      sessionRenewed: (session) => this.setState({ kind: 'ready', session }),
      extensionResultTypes: () => this.activeExtensions.resultTypes,
      answerInputRequests: (inputRequests, signal) =>
        answerInputRequests(this.serverName, this.serverRequestHandlers, inputRequests, signal),
      completeUrlElicitations: (elicitations, signal) => this.urlElicitations.completeAll(elicitations, signal),
      relist: async (method, signal) => {
        if (method === 'tools/list') await this.listTools({ refresh: true, signal });
        else await this.listAll(method, { refresh: true, signal });
      },
      resolveExtensionResult: (resultType, result, method, params, signal) =>
        this.activeExtensions.resolve(resultType, result, { ...this.extensionContext(), method, params, signal }),
    };
  }

  private extensionContext(): ExtensionContext {
    return {
      serverName: this.options.serverName,
      logger: this.logger,
      request: (method, params, options) => this.forward(method, params, options),
      checkToolResult: (result, about) => this.checkToolResult(result, about),
      session: () => this.session,
      lifetime: this.lifetime.signal,
      answerInputRequests: (inputRequests, signal) =>
        answerInputRequests(this.serverName, this.serverRequestHandlers, inputRequests, signal),
      interceptServerRequests: (interceptor) => void this.serverRequestInterceptors.push(interceptor),
      onServerNotification: (method, handler) => {
        // The core's own notifications (list changes, logs, progress…) stay the core's: an extension only adds methods.
        if (CORE_NOTIFICATION_METHODS.has(method))
          throw new LocalError('invalid-argument', `an extension cannot take over the core notification ${method}`);
        this.rpc.setNotificationHandler(method, handler);
      },
      listenFor: (fields) => {
        this.extensionListenFields = { ...this.extensionListenFields, ...fields };
        this.wantedChanged();
      },
    };
  }

  /** The era opens what delivers change notifications only while something listens for them. */
  private wantedChanged(): void {
    this.era?.setWantedNotifications?.({
      toolsListChanged: this.toolsChanged.listenerCount > 0,
      promptsListChanged: this.promptsChanged.listenerCount > 0,
      resourcesListChanged: this.resourcesChanged.listenerCount > 0,
      resourceSubscriptions: [...this.subscribedResources],
      extensionFields: this.extensionListenFields,
    });
  }

  /** Answers server→client requests for `method` with its handler; without one the RPC layer answers -32601. */
  private serve<M extends keyof ServerRequestHandlers>(method: M): void {
    const handler = this.serverRequestHandlers[method] as
      ((params: JsonObject, signal: AbortSignal) => Promise<JsonObject>) | undefined;
    if (handler)
      this.rpc.setRequestHandler(method, (params, signal) =>
        answerServerRequest(this.serverRequestInterceptors, method, params, signal, handler),
      );
  }

  /** A server→client method an extension added: without an extension's answer it is -32601, as for any unknown one. */
  private serveExtensionMethod(method: string): void {
    const unknown = () => Promise.reject(new McpError(ErrorCodes.MethodNotFound, `method not found: ${method}`));
    this.rpc.setRequestHandler(method, (params, signal) =>
      answerServerRequest(this.serverRequestInterceptors, method, params, signal, unknown),
    );
  }

  /** Subscribes to a server notification; its params arrive unverified. */
  private onNotification<M extends ServerNotificationMethod>(
    method: M,
    handler: (params: Unverified<ServerNotifications[M]['params']>) => void,
  ): void {
    this.rpc.setNotificationHandler(method, handler);
  }

  private registerNotifications(): void {
    // The era decides whether a notification belongs to this session (2026-07-28: it names one of our subscriptions)
    // and what it makes stale; the client only tells its listeners. It never requests anything itself here, so a
    // flood of N notifications is N events, never N requests.
    const ours = (method: ServerNotificationMethod, params: JsonObject) =>
      this.era.acceptsNotification?.(method, params) ?? true;
    const relay = (method: ServerNotificationMethod, emitter: Emitter<void>) =>
      this.onNotification(method, (params) => {
        if (ours(method, params)) emitter.fire();
      });
    relay('notifications/tools/list_changed', this.toolsChanged);
    relay('notifications/resources/list_changed', this.resourcesChanged);
    relay('notifications/prompts/list_changed', this.promptsChanged);
    this.onNotification('notifications/resources/updated', (params) => {
      if (!ours('notifications/resources/updated', params) || typeof params.uri !== 'string') return;
      this.resourceUpdated.fire(params.uri);
    });
    this.onNotification('notifications/message', (params) => {
      // The level is passed on as sent; hosts map unknown levels to their default.
      this.logMessage.fire({
        level: params.level as LoggingLevel,
        logger: typeof params.logger === 'string' ? params.logger : undefined,
        data: params.data,
      });
    });
    this.onNotification('notifications/elicitation/complete', (params) => {
      if (typeof params.elicitationId !== 'string') return;
      this.urlElicitations.completed(params.elicitationId);
      this.options.host?.elicitation?.completed?.(params.elicitationId, this.serverName);
    });
  }

  private setState(state: ClientState): void {
    if (this.stateValue.kind === 'closed') return;
    this.stateValue = state;
    this.stateEmitter.fire(state);
  }
}
