import type { McpClient } from '../../protocol/client';
import type { Disposable } from '../../protocol/disposable';
import type { ServerSession } from '../../protocol/eras/era';
import type { ProgressUpdate } from '../../protocol/jsonrpc/rpcConnection';
import type { ClientRequestMethod } from '../../protocol/methods';
import type { JsonObject, LogMessage, LoggingLevel } from '../../protocol/types';

export interface UpstreamCallOptions {
  /** The agent's request: aborted when the agent cancels it or goes away, which cancels the upstream request. */
  signal: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
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
