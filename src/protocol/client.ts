import { DisposableStore, Emitter, type Disposable } from './disposable';
import { ErrorCodes, LocalError, McpError, errorMessage, isLocalError } from './errors';
import type { ClientHost } from './host';
import { RpcConnection, silentLogger, type Logger, type ProgressUpdate, type RequestOptions } from './jsonrpc/rpcConnection';
import type { TraceDirection } from './jsonrpc/mcpStreams';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  CreateMessageRequest,
  ElicitRequest,
  GetPromptResult,
  Implementation,
  InitializeResult,
  LogMessage,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from './types';
import { HANDSHAKE_VERSIONS, isSupportedHandshakeVersion } from './versions';
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
}

/** What the client knows about the server after the handshake. Later eras add their own kind. */
export interface HandshakeSession {
  kind: 'handshake';
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

export type ServerSession = HandshakeSession;

export type ClientState =
  | { kind: 'idle' }
  | { kind: 'connecting' }
  | { kind: 'ready'; session: ServerSession }
  | { kind: 'closed'; error?: Error };

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  timeoutMs?: number;
}

export interface CallToolOutcome {
  result: CallToolResult;
  /** Verdict of structuredContent against the tool's outputSchema; absent when the tool declares none. */
  outputValidation?: ValidationVerdict;
}

const MAX_PAGES = 10_000;

/** A complete MCP client for one server, over any transport. */
export class McpClient implements Disposable {
  private readonly rpc: RpcConnection;
  private readonly disposables = new DisposableStore();
  private readonly validator = new SchemaValidator();
  private readonly logger: Logger;
  private stateValue: ClientState = { kind: 'idle' };
  private toolsByName = new Map<string, Tool>();
  private connecting: Promise<ServerSession> | undefined;
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
    this.onViolation = this.rpc.onViolation;
    this.onClose = this.rpc.onClose;
    this.disposables.add(
      this.rpc.onClose((error) => this.setState({ kind: 'closed', error: error ? new LocalError('connection-closed', `${this.serverName}: ${errorMessage(error)}`) : undefined })),
    );
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

  /** Connects and performs the handshake. Idempotent: concurrent callers share one attempt. */
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
      const session = await this.handshake();
      const roots = this.options.host?.roots;
      if (roots?.onDidChangeRoots) {
        this.disposables.add(roots.onDidChangeRoots(() => void this.rpc.notify('notifications/roots/list_changed').catch(() => undefined)));
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

  private async handshake(): Promise<HandshakeSession> {
    const offered = this.options.protocolVersions ?? HANDSHAKE_VERSIONS;
    const result = await this.rpc.request<InitializeResult>(
      'initialize',
      {
        protocolVersion: offered[0],
        capabilities: this.capabilities,
        clientInfo: this.options.clientInfo ?? CLIENT_INFO,
      },
      { cancellable: false, timeoutMs: this.options.initializeTimeoutMs ?? this.options.requestTimeoutMs ?? 30_000 },
    );
    const version = result.protocolVersion;
    if (!isSupportedHandshakeVersion(version) || !offered.includes(version)) {
      throw new LocalError(
        'unsupported-version',
        `${this.serverName} answered with protocol version ${JSON.stringify(version)}, which this client does not support (it supports ${offered.join(', ')}); disconnecting`,
      );
    }
    if (typeof result.serverInfo !== 'object' || result.serverInfo === null || typeof result.capabilities !== 'object' || result.capabilities === null) {
      throw new LocalError('protocol-violation', `${this.serverName}: the initialize result lacks serverInfo or capabilities`);
    }
    this.options.transport.setProtocolVersion(version);
    await this.rpc.notify('notifications/initialized');
    return {
      kind: 'handshake',
      protocolVersion: version,
      capabilities: result.capabilities,
      serverInfo: result.serverInfo,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
  }

  async close(): Promise<void> {
    await this.rpc.close();
    this.setState({ kind: 'closed' });
    this.disposables.dispose();
  }

  dispose(): void {
    void this.close();
  }

  // ---- server features -------------------------------------------------------------------------

  async ping(options: CallOptions = {}): Promise<void> {
    await this.request('ping', undefined, options);
  }

  async listTools(options: CallOptions = {}): Promise<Tool[]> {
    if (!this.session.capabilities.tools) return [];
    const tools = await this.listAll<Tool>('tools/list', 'tools', options);
    this.toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<CallToolOutcome> {
    this.require('tools', 'call tools');
    const result = await this.request<CallToolResult>('tools/call', { name, arguments: args }, options);
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

  async listResources(options: CallOptions = {}): Promise<Resource[]> {
    if (!this.session.capabilities.resources) return [];
    return this.listAll<Resource>('resources/list', 'resources', options);
  }

  async listResourceTemplates(options: CallOptions = {}): Promise<ResourceTemplate[]> {
    if (!this.session.capabilities.resources) return [];
    return this.listAll<ResourceTemplate>('resources/templates/list', 'resourceTemplates', options);
  }

  async readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    this.require('resources', 'read resources');
    const result = await this.request<ReadResourceResult>('resources/read', { uri }, options);
    if (!Array.isArray(result.contents)) throw new LocalError('protocol-violation', `${this.serverName}: resources/read result has no contents array`);
    return result;
  }

  async subscribeResource(uri: string): Promise<void> {
    if (!this.session.capabilities.resources?.subscribe) {
      throw new LocalError('capability-missing', `${this.serverName} does not support resource subscriptions`);
    }
    await this.request('resources/subscribe', { uri });
  }

  async unsubscribeResource(uri: string): Promise<void> {
    if (!this.session.capabilities.resources?.subscribe) {
      throw new LocalError('capability-missing', `${this.serverName} does not support resource subscriptions`);
    }
    await this.request('resources/unsubscribe', { uri });
  }

  async listPrompts(options: CallOptions = {}): Promise<Prompt[]> {
    if (!this.session.capabilities.prompts) return [];
    return this.listAll<Prompt>('prompts/list', 'prompts', options);
  }

  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    this.require('prompts', 'get prompts');
    const result = await this.request<GetPromptResult>('prompts/get', { name, arguments: args }, options);
    if (!Array.isArray(result.messages)) throw new LocalError('protocol-violation', `${this.serverName}: prompts/get result has no messages array`);
    return result;
  }

  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: Record<string, string>): Promise<CompleteResult['completion']> {
    this.require('completions', 'complete arguments');
    const params: Record<string, unknown> = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.request<CompleteResult>('completion/complete', params);
    return result.completion ?? { values: [] };
  }

  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    this.require('logging', 'set a log level');
    await this.request('logging/setLevel', { level });
  }

  /** Tells the server the roots changed (the host calls this, or wires onDidChangeRoots). */
  async notifyRootsChanged(): Promise<void> {
    if (this.stateValue.kind === 'ready') await this.rpc.notify('notifications/roots/list_changed');
  }

  // ---- plumbing --------------------------------------------------------------------------------

  private require(capability: keyof ServerCapabilities, what: string): void {
    if (!this.session.capabilities[capability]) {
      throw new LocalError('capability-missing', `${this.serverName} does not offer ${String(capability)}, so this client cannot ${what}`);
    }
  }

  private async request<T extends object>(method: string, params: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<T> {
    void this.session; // throws when not connected
    const requestOptions: RequestOptions = { signal: options.signal, onProgress: options.onProgress, timeoutMs: options.timeoutMs };
    try {
      return await this.rpc.request<T>(method, params, requestOptions);
    } catch (error) {
      if (isLocalError(error, 'session-expired')) {
        // Streamable HTTP: a 404 for our session id means the server forgot us; start a new session once.
        this.logger.info(`${this.serverName}: session expired; starting a new session`);
        const session = await this.handshake();
        this.setState({ kind: 'ready', session });
        return this.rpc.request<T>(method, params, requestOptions);
      }
      if (error instanceof McpError && error.code === ErrorCodes.UrlElicitationRequired && (await this.completeRequiredUrlElicitations(error, options.signal))) {
        return this.rpc.request<T>(method, params, requestOptions);
      }
      throw error;
    }
  }

  /**
   * A -32042 error lists URL-mode elicitations the server needs before it can serve the request. They go
   * through the same consent flow as elicitation/create; the request is retried once if the person accepted
   * every one of them. Returns false when they could not be completed (the original error then stands).
   */
  private async completeRequiredUrlElicitations(error: McpError, signal: AbortSignal | undefined): Promise<boolean> {
    const elicitation = this.options.host?.elicitation;
    const data = error.data as { elicitations?: unknown } | undefined;
    if (!elicitation?.modes.includes('url') || !Array.isArray(data?.elicitations) || data.elicitations.length === 0) return false;
    const context = { serverName: this.serverName, signal: signal ?? new AbortController().signal };
    for (const item of data.elicitations as Record<string, unknown>[]) {
      if (typeof item?.url !== 'string' || typeof item.elicitationId !== 'string') return false;
      const message = typeof item.message === 'string' ? item.message : `${this.serverName} needs you to open a URL`;
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

  private async listAll<T>(method: string, key: string, options: CallOptions): Promise<T[]> {
    const items: T[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.request<Record<string, unknown>>(method, cursor === undefined ? undefined : { cursor }, options);
      const pageItems = result[key];
      if (!Array.isArray(pageItems)) throw new LocalError('protocol-violation', `${this.serverName}: ${method} result has no "${key}" array`);
      items.push(...(pageItems as T[]));
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

  private registerServerRequests(): void {
    const host = this.options.host ?? {};
    this.rpc.setRequestHandler('ping', () => ({}));
    const roots = host.roots;
    if (roots) {
      this.rpc.setRequestHandler('roots/list', async () => ({ roots: await roots.listRoots() }));
    }
    const sampling = host.sampling;
    if (sampling) {
      this.rpc.setRequestHandler('sampling/createMessage', async (params, signal) => {
        const problem = validateSamplingRequest(params, Boolean(sampling.supportsTools));
        if (problem) throw new McpError(ErrorCodes.InvalidParams, problem);
        return sampling.createMessage(params as unknown as CreateMessageRequest, { serverName: this.serverName, signal });
      });
    }
    const elicitation = host.elicitation;
    if (elicitation) {
      this.rpc.setRequestHandler('elicitation/create', async (params, signal) => {
        const mode = params.mode === undefined ? 'form' : params.mode;
        if (mode !== 'form' && mode !== 'url') throw new McpError(ErrorCodes.InvalidParams, `unknown elicitation mode ${JSON.stringify(mode)}`);
        if (!elicitation.modes.includes(mode)) throw new McpError(ErrorCodes.InvalidParams, `elicitation mode "${mode}" was not declared by this client`);
        if (typeof params.message !== 'string') throw new McpError(ErrorCodes.InvalidParams, 'elicitation/create needs a message');
        if (mode === 'url' && (typeof params.url !== 'string' || typeof params.elicitationId !== 'string')) {
          throw new McpError(ErrorCodes.InvalidParams, 'URL-mode elicitation needs url and elicitationId');
        }
        return elicitation.elicit({ ...(params as unknown as ElicitRequest), mode }, { serverName: this.serverName, signal });
      });
    }
  }

  private registerNotifications(): void {
    this.rpc.setNotificationHandler('notifications/tools/list_changed', () => this.toolsChanged.fire());
    this.rpc.setNotificationHandler('notifications/resources/list_changed', () => this.resourcesChanged.fire());
    this.rpc.setNotificationHandler('notifications/prompts/list_changed', () => this.promptsChanged.fire());
    this.rpc.setNotificationHandler('notifications/resources/updated', (params) => {
      if (typeof params.uri === 'string') this.resourceUpdated.fire(params.uri);
    });
    this.rpc.setNotificationHandler('notifications/message', (params) => {
      this.logMessage.fire({ level: params.level as LoggingLevel, logger: typeof params.logger === 'string' ? params.logger : undefined, data: params.data });
    });
    this.rpc.setNotificationHandler('notifications/elicitation/complete', (params) => {
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
