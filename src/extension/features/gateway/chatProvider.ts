/**
 * This extension's servers in VS Code's chat (1.101+): an MCP server definition provider whose definitions are the
 * servers' gateways. No `vscode` import: the API is handed in (the real one, or a test's fake), and its shape is
 * declared here because @types/vscode is 1.100's, which lacks it.
 */
import { Emitter, type Disposable } from '../../../protocol/disposable';
import type { ChatRoute } from '../../platform/gateway/chatRoute';

/** A URI as the API takes it (vscode.Uri). */
export type UriLike = object;

/** `vscode.McpHttpServerDefinition`: what chat connects to. */
export interface McpHttpDefinitionLike {
  readonly label: string;
  uri: UriLike;
  headers: Record<string, string>;
}

/** `vscode.McpServerDefinitionProvider`, the members used here. */
export interface McpProviderLike {
  readonly onDidChangeMcpServerDefinitions: (listener: () => void) => Disposable;
  provideMcpServerDefinitions(): Promise<McpHttpDefinitionLike[]>;
  resolveMcpServerDefinition(definition: McpHttpDefinitionLike): Promise<McpHttpDefinitionLike | undefined>;
}

/** The part of the `vscode` namespace the provider needs (present from 1.101). */
export interface McpApi {
  readonly lm: { registerMcpServerDefinitionProvider(id: string, provider: McpProviderLike): Disposable };
  readonly McpHttpServerDefinition: new (
    label: string,
    uri: UriLike,
    headers?: Record<string, string>,
  ) => McpHttpDefinitionLike;
}

/** The running VS Code's MCP provider API, or undefined when it has none (1.100): then nothing is registered. */
export function mcpApiOf(vscodeNamespace: unknown): McpApi | undefined {
  const api = vscodeNamespace as Partial<{
    lm: Partial<McpApi['lm']>;
    McpHttpServerDefinition: McpApi['McpHttpServerDefinition'];
  }>;
  return typeof api.lm?.registerMcpServerDefinitionProvider === 'function' &&
    typeof api.McpHttpServerDefinition === 'function'
    ? (api as McpApi)
    : undefined;
}

/** The provider's id in `contributes.mcpServerDefinitionProviders` (VS Code shows its label, "MCP Workbench"). */
export const CHAT_PROVIDER_ID = 'mcpWorkbench.gateway';

/** A configured server as chat may see it. */
export interface ChatServer {
  readonly id: string;
  readonly name: string;
  readonly scope: 'workspace' | 'user';
  /** Said after the name when two servers share it (their folder or origin). */
  readonly where: string;
}

/** What an agent is configured with. */
export interface ChatEndpoint {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface ChatProviderDeps {
  readonly api: McpApi;
  servers(): readonly ChatServer[];
  route(): ChatRoute;
  /** The server's gateway while it is open. */
  served(serverId: string): ChatEndpoint | undefined;
  /**
   * Starts the server through its normal start (trust, first-start consent) and opens its gateway; undefined when
   * it did not start (consent refused, not trusted, failed: the start said why).
   */
  startAndServe(serverId: string): Promise<ChatEndpoint | undefined>;
  /**
   * The URI chat connects to: the gateway's loopback URL as it is. VS Code's client for a provided definition runs in
   * the extension host that provided it (the remote one in a remote window: "Starting server from Remote extension
   * host"), on the gateway's machine. `vscode.env.asExternalUri` would give the URL the person's browser or desktop
   * reaches (code-server 4.139: its /proxy/<port>/ route), and VS Code's client never reached the gateway through it.
   */
  uriOf(url: string): UriLike;
}

/** Stands in for the URL while the server is not served yet: the real one comes with resolve. */
const NOT_SERVED_URL = 'http://127.0.0.1/mcp';

/**
 * One HTTP definition per configured server chat should reach through the workbench: the user's own servers
 * (`mcpWorkbench.servers`, which VS Code does not read), and this workspace's `.vscode/mcp.json` servers when the
 * person chose to route chat through the workbench. Resolving one starts its server and gateway.
 */
export class WorkbenchMcpProvider implements McpProviderLike, Disposable {
  private readonly changed = new Emitter<void>();
  /** Which server each definition handed out stands for. */
  private readonly serverOf = new WeakMap<object, string>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;

  constructor(private readonly deps: ChatProviderDeps) {}

  /** The servers, the route or a gateway changed: chat asks for the definitions again. */
  fireChanged(): void {
    this.changed.fire();
  }

  async provideMcpServerDefinitions(): Promise<McpHttpDefinitionLike[]> {
    const shown = this.shownServers();
    const definitions: McpHttpDefinitionLike[] = [];
    for (const { server, label } of shown) {
      const served = this.deps.served(server.id);
      const definition = served
        ? new this.deps.api.McpHttpServerDefinition(label, this.deps.uriOf(served.url), {
            ...served.headers,
          })
        : new this.deps.api.McpHttpServerDefinition(label, this.deps.uriOf(NOT_SERVED_URL));
      this.serverOf.set(definition, server.id);
      definitions.push(definition);
    }
    return definitions;
  }

  async resolveMcpServerDefinition(definition: McpHttpDefinitionLike): Promise<McpHttpDefinitionLike | undefined> {
    const shown = this.shownServers();
    const id =
      this.serverOf.get(definition) ?? shown.find(({ label }) => label === definition.label)?.server.id ?? undefined;
    // A server no longer configured (or no longer routed here) is not started.
    if (id === undefined || !shown.some(({ server }) => server.id === id)) return undefined;
    const endpoint = await this.deps.startAndServe(id);
    if (!endpoint) return undefined;
    definition.uri = this.deps.uriOf(endpoint.url);
    definition.headers = { ...endpoint.headers };
    return definition;
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** The servers listed, each with a label unique among them (VS Code tells definitions apart by it). */
  private shownServers(): { server: ChatServer; label: string }[] {
    const route = this.deps.route();
    const servers = this.deps.servers().filter((server) => server.scope === 'user' || route === 'workbench');
    return servers.map((server) => ({
      server,
      label: servers.some((other) => other !== server && other.name === server.name)
        ? `${server.name} (${server.where})`
        : server.name,
    }));
  }
}
