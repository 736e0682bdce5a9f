import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  CompletionReference,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InitializeResult,
  JsonObject,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from './types';

/**
 * The typed table of MCP methods this client speaks, one entry per method: its params and (for requests) its
 * result. `McpClient` and the eras send requests through it, so a method name picks its types and callers
 * need no casts.
 *
 * Results and incoming params are typed as the specification declares them, but they come from the server
 * and are untrusted: code that relies on a field still checks it (see `Unverified`). Later eras add their
 * methods here (additively), e.g. `server/discover` and `subscriptions/listen` for 2026-07-28.
 */

/** Params of any request or notification: a JSON object (JSON-RPC by-name parameters). */
export type JsonParams = Record<string, unknown>;

/** `params._meta` of a request; `progressToken` is set by the RPC layer when the caller wants progress. */
export interface RequestMeta {
  progressToken?: string | number;
  [key: string]: unknown;
}

export interface PaginatedParams {
  cursor?: string;
  _meta?: RequestMeta;
  [key: string]: unknown;
}

export interface PaginatedResult {
  nextCursor?: string;
  [key: string]: unknown;
}

/** A result that carries nothing (ping, subscribe, setLevel). */
type EmptyResult = JsonObject;

interface InitializeParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  [key: string]: unknown;
}

interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: RequestMeta;
  [key: string]: unknown;
}

export interface CompleteParams {
  ref: CompletionReference;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
  [key: string]: unknown;
}

/**
 * Requests protocol extensions add (src/protocol/extensions/<name>/). Each extension declares its own from its folder
 * by augmenting this interface (`declare module '../../methods' { interface ExtensionClientRequests { … } }`), so its
 * methods are in the typed table without this file naming any extension.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, see above
export interface ExtensionClientRequests {}

/** Requests the client sends to the server. */
export interface ClientRequests extends ExtensionClientRequests {
  initialize: { params: InitializeParams; result: InitializeResult };
  ping: { params: undefined; result: EmptyResult };
  'tools/list': { params: PaginatedParams | undefined; result: PaginatedResult & { tools: Tool[] } };
  'tools/call': { params: CallToolParams; result: CallToolResult };
  'resources/list': { params: PaginatedParams | undefined; result: PaginatedResult & { resources: Resource[] } };
  'resources/templates/list': {
    params: PaginatedParams | undefined;
    result: PaginatedResult & { resourceTemplates: ResourceTemplate[] };
  };
  'resources/read': { params: { uri: string; [key: string]: unknown }; result: ReadResourceResult };
  'resources/subscribe': { params: { uri: string; [key: string]: unknown }; result: EmptyResult };
  'resources/unsubscribe': { params: { uri: string; [key: string]: unknown }; result: EmptyResult };
  'prompts/list': { params: PaginatedParams | undefined; result: PaginatedResult & { prompts: Prompt[] } };
  'prompts/get': {
    params: { name: string; arguments?: Record<string, string>; [key: string]: unknown };
    result: GetPromptResult;
  };
  'completion/complete': { params: CompleteParams; result: CompleteResult };
  'logging/setLevel': { params: { level: LoggingLevel; [key: string]: unknown }; result: EmptyResult };
  /** 2026-07-28: what the server speaks and offers (replaces initialize). */
  'server/discover': { params: { _meta?: RequestMeta; [key: string]: unknown } | undefined; result: DiscoverResult };
  /** 2026-07-28: a long-lived request whose response stream carries the opted-in change notifications. */
  'subscriptions/listen': {
    params: { notifications: SubscriptionFilter; _meta?: RequestMeta; [key: string]: unknown };
    result: JsonObject;
  };
}

export interface DiscoverResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  serverInfo?: Implementation;
  instructions?: string;
  [key: string]: unknown;
}

/** The notification types a 2026-07-28 client opts in to on subscriptions/listen. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Fields protocol extensions add (`taskIds` of io.modelcontextprotocol/tasks). */
  [extensionField: string]: unknown;
}

export type ClientRequestMethod = keyof ClientRequests;
export type ClientRequestParams<M extends ClientRequestMethod> = ClientRequests[M]['params'];
export type ClientRequestResult<M extends ClientRequestMethod> = ClientRequests[M]['result'];

/** The paginated list methods and the result key that holds each page's items. */
export const LIST_ITEM_KEYS = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
} as const satisfies Partial<Record<ClientRequestMethod, string>>;

export type ListMethod = keyof typeof LIST_ITEM_KEYS;

/** The item type of each list method. */
export interface ListItems {
  'tools/list': Tool;
  'resources/list': Resource;
  'resources/templates/list': ResourceTemplate;
  'prompts/list': Prompt;
}

/** Notifications the client sends to the server. */
export interface ClientNotifications {
  'notifications/initialized': { params: undefined };
  'notifications/roots/list_changed': { params: undefined };
  'notifications/cancelled': { params: { requestId: string | number; reason?: string } };
}

export type ClientNotificationMethod = keyof ClientNotifications;

/** Requests the server sends to the client (handshake era; under 2026-07-28 they come as input requests). */
export interface ServerRequests {
  ping: { params: JsonParams; result: EmptyResult };
  'roots/list': { params: JsonParams; result: { roots: Root[]; [key: string]: unknown } };
  'sampling/createMessage': { params: CreateMessageRequest; result: CreateMessageResult };
  'elicitation/create': { params: ElicitRequest; result: ElicitResult };
}

export type ServerRequestMethod = keyof ServerRequests;

/** Notifications the server sends to the client. */
export interface ServerNotifications {
  'notifications/tools/list_changed': { params: JsonParams };
  'notifications/resources/list_changed': { params: JsonParams };
  'notifications/prompts/list_changed': { params: JsonParams };
  'notifications/resources/updated': { params: { uri: string } };
  'notifications/message': { params: { level: LoggingLevel; logger?: string; data: unknown } };
  'notifications/elicitation/complete': { params: { elicitationId: string } };
  'notifications/progress': {
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  };
  'notifications/subscriptions/acknowledged': { params: { notifications: SubscriptionFilter } };
}

export type ServerNotificationMethod = keyof ServerNotifications;

/** The notifications the core handles (a Record, so a method added to ServerNotifications must be listed here). */
const CORE_NOTIFICATIONS: Readonly<Record<ServerNotificationMethod, true>> = {
  'notifications/tools/list_changed': true,
  'notifications/resources/list_changed': true,
  'notifications/prompts/list_changed': true,
  'notifications/resources/updated': true,
  'notifications/message': true,
  'notifications/elicitation/complete': true,
  'notifications/progress': true,
  'notifications/subscriptions/acknowledged': true,
};
export const CORE_NOTIFICATION_METHODS: ReadonlySet<string> = new Set(Object.keys(CORE_NOTIFICATIONS));

/**
 * What actually arrives for a declared shape: every field may be missing or of any type until checked.
 * Handlers of server requests and notifications receive params in this form.
 */
export type Unverified<T> = { [K in keyof T]?: unknown } & Record<string, unknown>;
