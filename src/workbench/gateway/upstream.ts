import type { McpClient } from '../../protocol/client';
import type { AgentIdentity } from './agents';
import type { Disposable } from '../../protocol/disposable';
import { ErrorCodes, McpError } from '../../protocol/errors';
import type { ServerSession } from '../../protocol/eras/era';
import type { ProgressUpdate } from '../../protocol/jsonrpc/rpcConnection';
import { TASKS_API } from '../../protocol/extensions/tasks';
import type { TaskSnapshot } from '../../protocol/extensions/tasks/taskModel';
import type { ClientRequestMethod } from '../../protocol/methods';
import type { JsonObject, LogMessage, LoggingLevel, Tool } from '../../protocol/types';

export interface UpstreamCallOptions {
  /** The agent's request: aborted when the agent cancels it or goes away, which cancels the upstream request. */
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** Who sent the request (its clientInfo, cut and untrusted): for the tool policy's questions and the traffic's labels. */
  agent?: AgentIdentity;
}

/**
 * What a gateway needs of its one server. Both hosts hand in an already connected McpClient (the CLI's from
 * createClient, the extension's ServerController's), so one server process serves the workbench and every agent.
 */
export interface GatewayUpstream {
  readonly name: string;
  /** The open session: serverInfo, capabilities and instructions the agents are answered with. */
  session(): ServerSession;
  request(method: string, params: JsonObject | undefined, options: UpstreamCallOptions): Promise<JsonObject>;
  /**
   * A tools/call whose 2026-07-28 task (the `io.modelcontextprotocol/tasks` extension) is handed back at once, as
   * the wire's `resultType: "task"` result, instead of being polled to its end: for an agent that declared the
   * extension and polls the task itself. Undefined (the method, or its answer) when the server's session has no
   * 2026-07-28 tasks.
   */
  callToolUnwaited?(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamCallOptions,
  ): Promise<JsonObject | undefined>;
  ping(options: UpstreamCallOptions): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  setLogLevel(level: LoggingLevel): Promise<void>;
  onToolsChanged(listener: () => void): Disposable;
  onResourcesChanged(listener: () => void): Disposable;
  onPromptsChanged(listener: () => void): Disposable;
  onResourceUpdated(listener: (uri: string) => void): Disposable;
  onLogMessage(listener: (message: LogMessage) => void): Disposable;
}

/** The gateway's upstream over the project's own client. */
export function clientUpstream(client: McpClient): GatewayUpstream {
  return {
    name: client.serverName,
    session: () => client.session,
    // McpClient.forward sends a request as given through the client's request loop (era shaping, input rounds,
    // deadlines), so the agent's cursor and `_meta` are kept where the typed calls rebuild the params. The method is
    // the agent's: one the table does not name (an extension's) still goes out, and the server answers -32601.
    request: (method, params, options) =>
      client.forward(method as ClientRequestMethod, params as never, options) as Promise<JsonObject>,
    callToolUnwaited: async (name, args, options) => {
      const tasks = client.extension(TASKS_API);
      if (tasks?.generation() !== '2026-07-28') return undefined;
      // A 2026-07-28 server decides per call whether it makes a task; the tool's own fields do not matter.
      const tool: Tool = { name, inputSchema: { type: 'object' } };
      const outcome = await tasks.callTool(tool, args, { wait: false, ...options });
      return outcome.kind === 'task' ? wireTask(outcome.task) : (outcome.result as unknown as JsonObject);
    },
    ping: (options) => client.ping(options),
    subscribe: (uri) => client.subscribeResource(uri),
    unsubscribe: (uri) => client.unsubscribeResource(uri),
    setLogLevel: (level) => client.setLoggingLevel(level),
    onToolsChanged: (listener) => client.onToolsChanged(listener),
    onResourcesChanged: (listener) => client.onResourcesChanged(listener),
    onPromptsChanged: (listener) => client.onPromptsChanged(listener),
    onResourceUpdated: (listener) => client.onResourceUpdated(listener),
    onLogMessage: (listener) => client.onLogMessage(listener),
  };
}

/**
 * The upstream as a Copilot `tools` allow-list offers it (`.github/mcp.json`, `~/.copilot/mcp-config.json`): agents
 * (VS Code's chat among them) list only the allowed tools and a call to another is refused, as in the Servers view.
 * Without a list, the upstream itself.
 */
export function withToolAllowList(upstream: GatewayUpstream, allowed: readonly string[] | undefined): GatewayUpstream {
  if (allowed === undefined) return upstream;
  const refuse = (name: unknown) =>
    new McpError(
      ErrorCodes.InvalidParams,
      `tool ${JSON.stringify(name)} is not offered: the "tools" allow-list of this server allows only ${allowed.join(', ') || 'no tools'}`,
    );
  const callToolUnwaited = upstream.callToolUnwaited?.bind(upstream);
  // Every member delegates by name: an upstream may keep its methods on a prototype, which a spread would not copy.
  return {
    name: upstream.name,
    session: () => upstream.session(),
    ping: (options) => upstream.ping(options),
    subscribe: (uri) => upstream.subscribe(uri),
    unsubscribe: (uri) => upstream.unsubscribe(uri),
    setLogLevel: (level) => upstream.setLogLevel(level),
    onToolsChanged: (listener) => upstream.onToolsChanged(listener),
    onResourcesChanged: (listener) => upstream.onResourcesChanged(listener),
    onPromptsChanged: (listener) => upstream.onPromptsChanged(listener),
    onResourceUpdated: (listener) => upstream.onResourceUpdated(listener),
    onLogMessage: (listener) => upstream.onLogMessage(listener),
    request: async (method, params, options) => {
      if (method === 'tools/call' && !allowed.includes(String(params?.name))) throw refuse(params?.name);
      const result = await upstream.request(method, params, options);
      if (method !== 'tools/list' || !Array.isArray(result.tools)) return result;
      const tools = (result.tools as unknown[]).filter(
        (tool) => typeof tool === 'object' && tool !== null && allowed.includes(String((tool as Tool).name)),
      );
      return { ...result, tools } as JsonObject;
    },
    ...(callToolUnwaited
      ? {
          callToolUnwaited: (name: string, args: Record<string, unknown>, options: UpstreamCallOptions) =>
            allowed.includes(name) ? callToolUnwaited(name, args, options) : Promise.reject(refuse(name)),
        }
      : {}),
  };
}

/** A task as the 2026-07-28 tasks extension writes it in a tools/call answer (`resultType: "task"`). */
function wireTask(task: TaskSnapshot): JsonObject {
  const wire: JsonObject = { resultType: 'task', taskId: task.taskId, status: task.status, ttlMs: task.ttlMs };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  if (task.createdAt !== undefined) wire.createdAt = new Date(task.createdAt).toISOString();
  if (task.lastUpdatedAt !== undefined) wire.lastUpdatedAt = new Date(task.lastUpdatedAt).toISOString();
  if (task.pollIntervalMs !== undefined) wire.pollIntervalMs = task.pollIntervalMs;
  switch (task.status) {
    case 'input_required':
      if (task.inputRequests) wire.inputRequests = task.inputRequests;
      break;
    case 'completed':
      if (task.result) wire.result = task.result;
      break;
    case 'failed':
      if (task.error) wire.error = task.error;
      break;
    case 'working':
    case 'cancelled':
      break;
  }
  return wire;
}
