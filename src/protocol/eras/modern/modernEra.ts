import { ErrorCodes, LocalError, McpError, isLocalError } from '../../errors';
import type {
  ClientRequestMethod,
  DiscoverResult,
  JsonParams,
  ServerRequestMethod,
  SubscriptionFilter,
} from '../../methods';
import type { OutgoingHttpRequest } from '../../transports/transport';
import type { JsonObject, LoggingLevel, ServerCapabilities, Tool } from '../../types';
import type {
  AttemptContext,
  AttemptOutcome,
  AttemptVerdict,
  ClientIdentity,
  EraWire,
  InputRequest as EraInputRequest,
  ModernSession,
  Preflight,
  ProtocolEra,
  WantedNotifications,
} from '../era';
import { ResultCache, invalidateOnNotification } from './cache';
import { filterToolsByHeaderAnnotations, paramHeaders, standardHeaders, type HeaderParameter } from './headers';
import { retryParams } from './inputRounds';
import { MODERN_VERSIONS, MetaKeys, buildRequestMeta, isRemovedInModern, serverInfoOf, withRequestMeta } from './meta';
import { readResult } from './results';
import { DiscoverFailure, handshakeFallbackReason } from './handshakeFallback';
import { negotiateAfterRejection } from './versionNegotiation';
import { modernCapabilities, negotiationFailed, validServerInfo } from './discoverExchange';
import { isObject } from '../../guards';

/**
 * The 2026-07-28 ("modern", stateless) era: no handshake. `server/discover` learns what the server speaks and
 * offers; every request carries the revision, the client's capabilities and info in `_meta` (and, over
 * Streamable HTTP, mirrored into headers); results may ask for input (MRTR) and are retried; change
 * notifications arrive on a `subscriptions/listen` stream and are correlated by its id.
 */

export interface ModernEraOptions {
  /** Revisions offered, newest first (defaults to every modern revision this client speaks). */
  versions?: readonly string[];
  /** How long server/discover may take; the auto selection shortens it to probe a stdio server. */
  discoverTimeoutMs?: number;
  /**
   * server/discover is a probe (auto selection): on timeout it is abandoned without notifications/cancelled,
   * because a handshake-era server must see nothing before initialize.
   */
  probe?: boolean;
  /** The most bytes (serialized JSON) the ttlMs result cache keeps; the oldest entries are evicted first. */
  cacheMaxBytes?: number;
}

const DEFAULT_DISCOVER_TIMEOUT_MS = 30_000;
/** setTimeout's largest delay: the subscription stream has no idle timeout of its own. */
const FOREVER_MS = 2 ** 31 - 1;
/** Consecutive failures of the subscription stream before the era stops reopening it. */
const MAX_LISTEN_FAILURES = 3;

const INPUT_REQUEST_METHODS: ReadonlySet<string> = new Set<ServerRequestMethod>([
  'elicitation/create',
  'sampling/createMessage',
  'roots/list',
]);
/** Notifications that only arrive on a subscription stream and so must carry one of our subscription ids. */
const SUBSCRIPTION_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

type Subscription = { kind: 'none' } | { kind: 'listening'; filter: SubscriptionFilter; abort: AbortController };

export class ModernEra implements ProtocolEra {
  readonly kind = 'modern' as const;
  private readonly offered: readonly string[];
  private version: string;
  private wire: EraWire | undefined;
  private identity: ClientIdentity | undefined;
  private overHttp = false;
  private logLevel: LoggingLevel | undefined;
  private headerParameters = new Map<string, HeaderParameter[]>();
  private capabilities: ServerCapabilities = {};
  /** Nothing is wanted until a listener or a resource subscription asks: one-shot commands open no stream. */
  private wanted: WantedNotifications = {
    toolsListChanged: false,
    promptsListChanged: false,
    resourcesListChanged: false,
    resourceSubscriptions: [],
    extensionFields: {},
  };
  /** Results reused while their ttlMs says they are fresh, bounded by bytes. */
  private readonly cache: ResultCache;
  private subscription: Subscription = { kind: 'none' };
  /** Ids of every listen stream this era opened: a notification may still arrive on one being replaced. */
  private readonly subscriptionIds = new Set<string | number>();
  private closed = false;

  constructor(private readonly options: ModernEraOptions = {}) {
    this.offered = options.versions ?? MODERN_VERSIONS;
    this.cache = new ResultCache({ maxBytes: options.cacheMaxBytes });
    this.version = this.offered[0];
  }

  get protocolVersion(): string {
    return this.version;
  }

  async open(wire: EraWire, identity: ClientIdentity): Promise<ModernSession> {
    this.wire = wire;
    this.identity = identity;
    this.overHttp = wire.transport.kind === 'streamable-http';
    wire.transport.setSessionMode?.('stateless');
    let result: DiscoverResult;
    try {
      result = await this.discover(wire, identity);
    } catch (error) {
      // Pinned to 2026-07-28, a failure that says "older server" deserves to be named as such.
      const handshakeHint = this.options.probe ? undefined : handshakeFallbackReason(error, wire.transport.kind);
      if (handshakeHint === undefined) throw error;
      throw new LocalError(
        'unsupported-version',
        `${wire.serverName} does not seem to speak protocol 2026-07-28 (${handshakeHint}); connect with era "auto" or "handshake"`,
        { cause: error },
      );
    }
    const supported = Array.isArray(result.supportedVersions)
      ? result.supportedVersions.filter((v): v is string => typeof v === 'string')
      : [];
    if (!isObject(result.capabilities)) {
      throw new DiscoverFailure(
        'protocol-violation',
        `${wire.serverName}: the server/discover result has no capabilities object`,
      );
    }
    if (supported.length > 0 && !supported.includes(this.version)) {
      const mutual = this.offered.find((v) => supported.includes(v));
      if (mutual === undefined) {
        throw new DiscoverFailure(
          'unsupported-version',
          `${wire.serverName} supports protocol versions ${supported.join(', ')}; this client speaks ${this.offered.join(', ')} in the 2026-07-28 era`,
        );
      }
      this.version = mutual;
    }
    this.capabilities = result.capabilities;
    const serverInfo = serverInfoOf(result) ??
      validServerInfo(result.serverInfo) ?? { name: wire.serverName, version: 'unknown' };
    this.startSubscription();
    return {
      kind: 'modern',
      protocolVersion: this.version,
      supportedVersions: supported,
      capabilities: result.capabilities,
      serverInfo,
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
  }

  renew(wire: EraWire, identity: ClientIdentity, reason: string): Promise<ModernSession> {
    void identity;
    return Promise.reject(
      new LocalError(
        'protocol-violation',
        `${wire.serverName}: ${reason}, but protocol ${this.version} has no sessions to renew`,
      ),
    );
  }

  shapeParams(params: JsonParams | undefined, context: AttemptContext): JsonParams | undefined {
    return withRequestMeta(params, this.meta(context.identity));
  }

  headersFor(request: OutgoingHttpRequest): Record<string, string> {
    if (request.kind !== 'message') return { 'MCP-Protocol-Version': this.version };
    const message = request.message as { method?: unknown; params?: unknown };
    if (typeof message.method !== 'string') return { 'MCP-Protocol-Version': this.version };
    const params = isObject(message.params) ? message.params : undefined;
    const headers = standardHeaders(this.version, message.method, params);
    if (message.method === 'tools/call' && typeof params?.name === 'string') {
      const parameters = this.headerParameters.get(params.name);
      if (parameters)
        Object.assign(headers, paramHeaders(parameters, isObject(params.arguments) ? params.arguments : undefined));
    }
    return headers;
  }

  interpret(outcome: AttemptOutcome, context: AttemptContext): AttemptVerdict {
    const serverName = this.wire?.serverName ?? 'server';
    if (outcome.kind === 'error') return this.interpretError(outcome.error, context);
    let read;
    try {
      read = readResult(serverName, context.method, outcome.result, context.extensionResultTypes);
    } catch (error) {
      return { kind: 'fail', error: error as Error };
    }
    switch (read.kind) {
      case 'complete':
        return {
          kind: 'complete',
          result: context.method === 'tools/list' ? this.admitTools(read.result) : read.result,
        };
      case 'extension':
        return { kind: 'extension-result', resultType: read.resultType, result: read.result };
      case 'input_required': {
        const inputRequests: Record<string, EraInputRequest> = {};
        for (const [key, request] of Object.entries(read.inputRequests ?? {})) {
          if (!INPUT_REQUEST_METHODS.has(request.method)) {
            return {
              kind: 'fail',
              error: new LocalError(
                'invalid-result',
                `${serverName}: ${context.method} asked for ${JSON.stringify(request.method)} (input request ${JSON.stringify(key)}), which is not an input request`,
              ),
            };
          }
          inputRequests[key] = { method: request.method, params: request.params ?? {} } as EraInputRequest;
        }
        const requestState = read.requestState;
        return {
          kind: 'input-required',
          inputRequests,
          continueWith: (params, responses) => retryParams(params, responses, requestState),
        };
      }
      default: {
        const unreachable: never = read;
        return { kind: 'fail', error: new Error(`unhandled result ${JSON.stringify(unreachable)}`) };
      }
    }
  }

  /** Change notifications count only when they name one of our subscriptions, and they make cached results stale. */
  acceptsNotification(method: string, params: JsonObject): boolean {
    if (!SUBSCRIPTION_NOTIFICATIONS.has(method)) return true;
    const meta = params._meta;
    const id = isObject(meta) ? meta[MetaKeys.subscriptionId] : undefined;
    if (!((typeof id === 'string' || typeof id === 'number') && this.subscriptionIds.has(id))) return false;
    invalidateOnNotification(this.cache, method, params);
    return true;
  }

  livenessMethod(): 'server/discover' {
    return 'server/discover';
  }

  preflight(method: ClientRequestMethod, params: JsonParams | undefined, refresh: boolean): Preflight {
    if (isRemovedInModern(method)) {
      throw new LocalError(
        'capability-missing',
        `${this.wire?.serverName ?? 'server'}: ${method} does not exist in protocol ${this.version}, so this client does not send it`,
      );
    }
    if (refresh) return SEND;
    const cached = this.cache.lookup(method, params);
    return cached.kind === 'fresh' ? { kind: 'answered', result: cached.result } : SEND;
  }

  completed(method: ClientRequestMethod, params: JsonParams | undefined, result: JsonObject): void {
    this.cache.store(method, params, result);
  }

  urlElicitationNeedsId(): boolean {
    // 2026-07-28 removed elicitationId (a URL elicitation is an input request of one retried request).
    return false;
  }

  async changeResourceSubscription(_uri: string, _subscribed: boolean, all: readonly string[]): Promise<void> {
    // The subscription stream is reopened with the new resource list (resources/subscribe no longer exists).
    this.wanted = { ...this.wanted, resourceSubscriptions: [...all] };
    this.startSubscription();
  }

  async setLogLevel(level: LoggingLevel): Promise<void> {
    // Every request asks for its own log level in _meta (logging/setLevel no longer exists).
    this.logLevel = level;
  }

  async rootsChanged(): Promise<void> {
    // No roots/list_changed: roots travel with each request that needs them.
  }

  setWantedNotifications(wanted: WantedNotifications): void {
    const before = this.wantedFilter();
    this.wanted = wanted;
    if (!sameFilter(before, this.wantedFilter())) this.startSubscription();
  }

  close(): void {
    this.closed = true;
    this.stopSubscription();
  }

  // ---- internals -------------------------------------------------------------------------------------------

  private meta(identity: ClientIdentity): JsonObject {
    return buildRequestMeta({
      protocolVersion: this.version,
      capabilities: modernCapabilities(identity.capabilities),
      clientInfo: identity.clientInfo,
      logLevel: this.logLevel,
    });
  }

  /** server/discover, retried once with another version when the server answers -32022. */
  private async discover(wire: EraWire, identity: ClientIdentity): Promise<DiscoverResult> {
    const timeoutMs = this.options.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS;
    for (let round = 1; ; round++) {
      try {
        const result = await wire.request(
          'server/discover',
          { _meta: this.meta(identity) },
          { timeoutMs, cancellable: !this.options.probe },
        );
        if (!isObject(result))
          throw new DiscoverFailure(
            'protocol-violation',
            `${wire.serverName}: the server/discover result is not an object`,
          );
        if (result.resultType !== undefined && result.resultType !== 'complete') {
          throw new DiscoverFailure(
            'invalid-result',
            `${wire.serverName}: the server/discover result has resultType ${JSON.stringify(result.resultType)}`,
          );
        }
        return result;
      } catch (error) {
        const verdict = negotiateAfterRejection(wire.serverName, error, this.version, this.offered);
        switch (verdict.kind) {
          case 'not-a-version-error':
            throw error;
          case 'incompatible':
            throw verdict.error;
          case 'retry':
            if (round > 1) throw negotiationFailed(wire.serverName, error, this.version, this.offered);
            wire.logger.info(`${wire.serverName}: protocol ${this.version} refused; trying ${verdict.version}`);
            this.version = verdict.version;
            continue;
        }
      }
    }
  }

  private interpretError(error: Error, context: AttemptContext): AttemptVerdict {
    const serverName = this.wire?.serverName ?? 'server';
    if (error instanceof McpError && error.code === ErrorCodes.UnsupportedProtocolVersion) {
      const verdict = negotiateAfterRejection(serverName, error, this.version, this.offered);
      switch (verdict.kind) {
        case 'retry':
          // Once per request: a server that refuses every version it lists must not keep us busy.
          if (context.attempt > 1 && verdict.version === this.version)
            return { kind: 'fail', error: negotiationFailed(serverName, error, this.version, this.offered) };
          this.version = verdict.version;
          return { kind: 'retry', reason: `the server asked for protocol ${verdict.version}` };
        case 'incompatible':
          return { kind: 'fail', error: verdict.error };
        case 'not-a-version-error':
          return { kind: 'fail', error };
      }
    }
    // Usually the tool's x-mcp-header annotations changed since tools/list: the spec's advice is to list the tools
    // again and retry once with the new headers.
    if (error instanceof McpError && error.code === ErrorCodes.HeaderMismatch && context.method === 'tools/call') {
      return {
        kind: 'relist-and-retry',
        list: 'tools/list',
        reason: 'the server says the headers of the call do not match; listing tools again and retrying once',
        error,
      };
    }
    // A broken 2026-07-28 response stream cannot be resumed: the request goes out again on a new id.
    if (isLocalError(error, 'response-lost')) return { kind: 'retry', reason: error.message };
    return { kind: 'fail', error };
  }

  /** Over Streamable HTTP a tool with invalid x-mcp-header annotations is removed from tools/list. */
  private admitTools(result: JsonObject): JsonObject {
    if (!Array.isArray(result.tools)) return result;
    const tools = (result.tools as unknown[]).filter(
      (tool): tool is Tool => isObject(tool) && typeof tool.name === 'string',
    );
    if (!this.overHttp) return result;
    const outcome = filterToolsByHeaderAnnotations(tools);
    for (const rejected of outcome.rejected) {
      this.wire?.logger.warn(`${this.wire.serverName}: ignoring tool "${rejected.name}": ${rejected.reason}`);
      this.headerParameters.delete(rejected.name);
    }
    for (const tool of outcome.tools) {
      const parameters = outcome.headerParameters.get(tool.name);
      if (parameters) this.headerParameters.set(tool.name, parameters);
      else this.headerParameters.delete(tool.name);
    }
    return { ...result, tools: outcome.tools };
  }

  private wantedFilter(): SubscriptionFilter | undefined {
    const capabilities = this.capabilities;
    const filter: SubscriptionFilter = {};
    const wanted = this.wanted;
    if (capabilities.tools?.listChanged && wanted.toolsListChanged) filter.toolsListChanged = true;
    if (capabilities.prompts?.listChanged && wanted.promptsListChanged) filter.promptsListChanged = true;
    if (capabilities.resources?.listChanged && wanted.resourcesListChanged) filter.resourcesListChanged = true;
    if (capabilities.resources?.subscribe && wanted.resourceSubscriptions.length > 0)
      filter.resourceSubscriptions = [...wanted.resourceSubscriptions];
    for (const [field, value] of Object.entries(wanted.extensionFields ?? {})) {
      if (value !== undefined && !(Array.isArray(value) && value.length === 0) && !(field in filter))
        filter[field] = value;
    }
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  private stopSubscription(): void {
    if (this.subscription.kind === 'listening') this.subscription.abort.abort();
    this.subscription = { kind: 'none' };
  }

  /** (Re)opens the subscription stream with what the server offers and the client wants. */
  private startSubscription(failures = 0): void {
    this.stopSubscription();
    const wire = this.wire;
    const identity = this.identity;
    const filter = this.wantedFilter();
    if (this.closed || !wire || !identity || !filter) return;
    const abort = new AbortController();
    const subscription: Subscription = { kind: 'listening', filter, abort };
    this.subscription = subscription;
    wire
      .request(
        'subscriptions/listen',
        { notifications: filter, _meta: this.meta(identity) },
        {
          signal: abort.signal,
          timeoutMs: FOREVER_MS,
          maxTotalTimeoutMs: Number.POSITIVE_INFINITY,
          onRequestId: (id) => this.subscriptionIds.add(id),
        },
      )
      .then(
        () => {
          if (this.subscription === subscription) {
            wire.logger.info(`${wire.serverName}: the server ended the subscription stream`);
            this.subscription = { kind: 'none' };
          }
        },
        (error: unknown) => {
          if (this.subscription !== subscription || abort.signal.aborted || this.closed) return;
          if (isLocalError(error, 'connection-closed')) return;
          const reason = error instanceof Error ? error.message : String(error);
          if (error instanceof McpError || failures + 1 >= MAX_LISTEN_FAILURES) {
            wire.logger.warn(`${wire.serverName}: no change notifications: subscriptions/listen failed: ${reason}`);
            this.subscription = { kind: 'none' };
            return;
          }
          wire.logger.info(`${wire.serverName}: the subscription stream ended (${reason}); reopening it`);
          this.startSubscription(failures + 1);
        },
      );
  }
}

const SEND: Preflight = { kind: 'send' };

function sameFilter(a: SubscriptionFilter | undefined, b: SubscriptionFilter | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
