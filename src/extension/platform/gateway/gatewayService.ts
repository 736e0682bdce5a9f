import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import { errorMessage } from '../../../protocol/errors';
import type { ClientHost } from '../../../protocol/host';
import type { AgentMessageTap } from '../../../workbench/gateway/agentMessages';
import type { ConnectedAgent } from '../../../workbench/gateway/agents';
import { GatewayHostRelay } from '../../../workbench/gateway/hostRelay';
import type { RefusalReason, ToolPolicyHost } from '../../../workbench/gateway/toolPolicy';
import type { GatewayUpstream } from '../../../workbench/gateway/upstream';
import type { HistoryRecord } from '../../../workbench/history/historyLog';
import type { RunningGateway } from '../../../workbench/node/gateway/listener';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { configuredInputLimits } from '../config/hostLimits';
import type { ServerController } from '../servers/serverController';
import type { LaunchServices } from '../servers/serverLauncher';
import type { AgentToolPolicies } from './agentToolPolicies';
import type { ServerManager } from '../servers/serverManager';

/** What an agent is configured with to reach one server through its gateway. */
export interface ServedGateway {
  readonly serverId: string;
  readonly name: string;
  /** `http://127.0.0.1:<port>/mcp` on the machine the extension host runs on. */
  readonly url: string;
  /** `Authorization: Bearer <secret>`: never in a URL or a log. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What the gateways add between agents and servers (issue 37's "what the middle adds"): the tool rules agents are held
 * to and the person who answers their questions, and where each agent request is shown (the Protocol view's tap,
 * History), labelled with the agent.
 */
export interface GatewayMiddle {
  readonly policies: AgentToolPolicies;
  readonly prompts: ToolPolicyHost;
  record(record: HistoryRecord): void;
  /** The Protocol view's tap of a server, when the feature lent one. */
  wire(): LaunchServices['wire'] | undefined;
}

/** One configured server's gateway: kept across the server's restarts, dropped with its configuration entry. */
interface Slot {
  /** The host of the server's client: the server's requests go to the agent whose call raised them, else to ours. */
  readonly relay: GatewayHostRelay;
  /** Served once in this window: served again each time the server runs (after a restart, a stop and a start). */
  wanted: boolean;
  /** The port and secret of the last gateway: a re-opened one keeps them, so configured agents keep working. */
  port?: number;
  secret?: string;
  running?: RunningGateway;
  /** The client `running` serves (a restart brings a new one). */
  client?: McpClient;
  opening?: Promise<RunningGateway | undefined>;
  agentsListener?: { dispose(): void };
  /** Keeps the open gateway's tool policy in line with the stored rules. */
  policyListener?: { dispose(): void };
  /** The agents last heard of, to log who came and went. */
  known: Map<string, ConnectedAgent>;
}

/**
 * The gateways of the running servers (issue 37): on demand, one loopback endpoint per server over the server's own
 * client, so VS Code's chat and other agents reach the server through the one process the workbench runs. A gateway
 * closes when its server stops or restarts (the client it serves is gone) and opens again, on the same port and with
 * the same secret when it can, once the server runs again; every gateway closes at deactivation, before the servers.
 *
 * The server's own requests (sampling, elicitation, roots) go to the agent whose call raised them when that agent
 * declared the capability, and otherwise to the host this service was given: the extension's review panel, forms and
 * workspace folders.
 */
export class GatewayService implements vscode.Disposable {
  private readonly slots = new Map<string, Slot>();
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private manager: ServerManager | undefined;
  private stopping: Promise<void> | undefined;
  /** Set by the platform once History exists; without it a gateway passes everything (no rules, no labels). */
  middle: GatewayMiddle | undefined;

  /** A server's gateway opened or closed, or its agents changed (the server's id). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly base: ClientHost) {}

  /** Follows the servers (their states, their removal); the manager is built after its hosts, hence not in the constructor. */
  attach(manager: ServerManager): void {
    this.manager = manager;
    this.subscriptions.push(
      manager.onDidChangeServerState((controller) => void this.follow(controller)),
      manager.onDidChangeServers(() => {
        for (const id of [...this.slots.keys()]) if (!manager.get(id)) void this.drop(id);
      }),
    );
  }

  /**
   * The host a server's client is built with. Read by the launcher at each start (getters): sampling and
   * elicitation are whatever the features lent by then; roots keep the workspace's change events.
   */
  hostFor(serverId: string): ClientHost {
    const base = this.base;
    const relayHost = () => this.slot(serverId).relay.host;
    return {
      get sampling() {
        return relayHost().sampling;
      },
      get elicitation() {
        return relayHost().elicitation;
      },
      get roots() {
        const roots = relayHost().roots;
        return roots && { listRoots: roots.listRoots, onDidChangeRoots: base.roots?.onDidChangeRoots };
      },
    };
  }

  /** The server's gateway while it is open. */
  served(serverId: string): ServedGateway | undefined {
    const slot = this.slots.get(serverId);
    const running = slot?.running;
    const controller = this.manager?.get(serverId);
    if (!running || !controller) return undefined;
    return { serverId, name: controller.name, url: running.url, headers: running.headers };
  }

  /** The agents connected to the server's gateway now. */
  agents(serverId: string): ConnectedAgent[] {
    return this.slots.get(serverId)?.running?.gateway.agents.list() ?? [];
  }

  /** Ends one agent's session on the server's gateway. */
  async disconnect(serverId: string, agentId: string): Promise<void> {
    await this.slots.get(serverId)?.running?.gateway.disconnect(agentId);
  }

  /**
   * Opens the gateway of a running server (or returns the open one). The caller starts the server first, through the
   * controller's normal start (trust, first-start consent); this never starts it.
   */
  async serve(controller: ServerController): Promise<ServedGateway> {
    if (this.stopping) throw new Error(vscode.l10n.t('The workbench is shutting down'));
    const slot = this.slot(controller.id);
    slot.wanted = true;
    const client = controller.client;
    if (!client) throw new Error(vscode.l10n.t('MCP server "{0}" is not running', controller.name));
    if (slot.running && slot.client === client) return this.served(controller.id) as ServedGateway;
    await this.follow(controller);
    const served = this.served(controller.id);
    if (!served) throw new Error(vscode.l10n.t('MCP server "{0}" is not running', controller.name));
    return served;
  }

  /** Closes every gateway (deactivation: before the servers stop, so agents are told the end first). */
  shutdown(): Promise<void> {
    this.stopping ??= Promise.all([...this.slots.keys()].map((id) => this.drop(id))).then(() => undefined);
    return this.stopping;
  }

  dispose(): void {
    void this.shutdown();
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.changeEmitter.dispose();
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private slot(serverId: string): Slot {
    let slot = this.slots.get(serverId);
    if (!slot) {
      slot = { relay: new GatewayHostRelay(this.base), wanted: false, known: new Map() };
      this.slots.set(serverId, slot);
    }
    return slot;
  }

  /** Brings a wanted gateway in line with its server: closed when the client it serves is gone, opened over a new one. */
  private async follow(controller: ServerController): Promise<void> {
    const slot = this.slots.get(controller.id);
    if (!slot?.wanted) return;
    await slot.opening;
    const client = controller.client;
    if (slot.running && slot.client !== client) await this.close(controller, slot);
    if (!client || slot.running || this.stopping) return;
    const opening = this.open(controller, slot, client);
    slot.opening = opening;
    try {
      await opening;
    } finally {
      if (slot.opening === opening) slot.opening = undefined;
    }
  }

  private async open(controller: ServerController, slot: Slot, client: McpClient): Promise<RunningGateway | undefined> {
    // The listener, the official server SDK it serves with, the tool rules and the agents' traffic load when a first
    // gateway opens (esbuild.js).
    const [{ clientUpstream, withToolAllowList }, { startGateway }, policing, observing] = await Promise.all([
      import('../../../workbench/gateway/upstream.js'),
      import('../../../workbench/node/gateway/listener.js'),
      import('../../../workbench/gateway/toolPolicy.js'),
      import('../../../workbench/gateway/agentTraffic.js'),
    ]);
    // Copilot's allow-list holds for chat's calls too, as for the Servers view's.
    const middled = this.middled(controller, withToolAllowList(clientUpstream(client), controller.entry.allowedTools), {
      ...policing,
      ...observing,
    });
    const options = {
      upstream: middled.upstream,
      traffic: middled.traffic,
      relay: slot.relay,
      secrets: controller.knownSecrets(),
      maxBodyBytes: configuredInputLimits().maxMessageBytes,
      secret: slot.secret,
    };
    let running: RunningGateway;
    try {
      running = await startGateway({ ...options, port: slot.port });
    } catch (error) {
      if (slot.port === undefined) throw error;
      // The old port is taken now: a new one. Agents configured with the old URL need the new one.
      controller.log.warn(`Gateway: port ${slot.port} is no longer free (${errorMessage(error)}); using another`);
      running = await startGateway({ ...options, port: 0 });
    }
    if (controller.client !== client || this.stopping || !slot.wanted) {
      // The server stopped or restarted while the listener opened: this one serves a client that is gone.
      middled.dispose();
      await running.close().catch(() => undefined);
      return undefined;
    }
    slot.running = running;
    slot.client = client;
    slot.port = running.address.port;
    slot.secret = running.headers.Authorization.slice('Bearer '.length);
    slot.policyListener = middled;
    slot.agentsListener = running.gateway.agents.onDidChangeAgents(() => this.agentsChanged(controller, slot));
    controller.log.info(`Gateway: serving other MCP clients on ${running.url}`);
    this.changeEmitter.fire(controller.id);
    return running;
  }

  /**
   * The upstream agents reach: the server's client, with the stored tool rules applied (a change of them is a
   * `tools/list_changed` for every agent), and every agent request shown in the Protocol view and History.
   */
  private middled(
    controller: ServerController,
    server: GatewayUpstream,
    {
      ToolPolicy,
      policedUpstream,
      observedUpstream,
      agentCallRecord,
      agentLabel,
    }: typeof import('../../../workbench/gateway/toolPolicy') &
      typeof import('../../../workbench/gateway/agentTraffic'),
  ): { upstream: GatewayUpstream; traffic?: AgentMessageTap; dispose(): void } {
    const middle = this.middle;
    if (!middle) return { upstream: server, dispose: () => undefined };
    const identity = controller.identityKey;
    const policy = new ToolPolicy(middle.policies.stored(identity));
    const listener = middle.policies.onDidChange((changed) => {
      if (changed === identity) policy.replace(middle.policies.stored(identity));
    });
    // The person is asked through whoever answers at the moment of the call (the test build swaps the modals).
    const prompts: ToolPolicyHost = {
      ask: (call, signal) => this.middle?.prompts.ask?.(call, signal) ?? Promise.resolve(false),
      review: (call, signal) => this.middle?.prompts.review?.(call, signal) ?? Promise.resolve(false),
    };
    const policed = policedUpstream(server, policy, prompts);
    // History keeps the agents' calls as they reached the server; the Protocol view shows every agent message at
    // the gateway's edge (traffic, below).
    const upstream = observedUpstream(policed, {
      request: (agent, method, params) => {
        const startedAt = Date.now();
        return (end) => {
          const server = { id: controller.id, name: controller.name };
          const record = agentCallRecord({
            server,
            agent,
            method,
            params,
            startedAt,
            endedAt: Date.now(),
            end,
            describeRefusal,
          });
          if (record) middle.record(record);
        };
      },
    });
    const traffic: AgentMessageTap = {
      listening: () => {
        const log = middle
          .wire()?.(controller.id, () => controller.knownSecrets())
          ?.agentMessages?.();
        return (
          log && ((agent, direction, message) => log({ key: agent.key, label: agentLabel(agent) }, direction, message))
        );
      },
    };
    return { upstream, traffic, dispose: () => listener.dispose() };
  }

  private async close(controller: ServerController | undefined, slot: Slot): Promise<void> {
    const running = slot.running;
    if (!running) return;
    slot.running = undefined;
    slot.client = undefined;
    slot.agentsListener?.dispose();
    slot.agentsListener = undefined;
    slot.policyListener?.dispose();
    slot.policyListener = undefined;
    slot.known.clear();
    await running.close().catch(() => undefined);
    controller?.log.info('Gateway: closed');
    if (controller) this.changeEmitter.fire(controller.id);
  }

  private async drop(serverId: string): Promise<void> {
    const slot = this.slots.get(serverId);
    if (!slot) return;
    slot.wanted = false;
    await slot.opening?.catch(() => undefined);
    await this.close(this.manager?.get(serverId), slot);
    if (!this.manager?.get(serverId)) this.slots.delete(serverId);
  }

  /** The server's log says which agent came and went (its clientInfo: escaped, it is the agent's text). */
  private agentsChanged(controller: ServerController, slot: Slot): void {
    const now = new Map(this.agents(controller.id).map((agent) => [agent.id, agent]));
    for (const [id, agent] of now)
      if (!slot.known.has(id)) controller.log.info(`Gateway: agent connected: ${describeAgent(agent)}`);
    for (const [id, agent] of slot.known)
      if (!now.has(id)) controller.log.info(`Gateway: agent disconnected: ${describeAgent(agent)}`);
    slot.known = now;
    this.changeEmitter.fire(controller.id);
  }
}

/** History's note on a call the tool rules refused, in the person's language. */
function describeRefusal(reason: RefusalReason): string {
  switch (reason) {
    case 'disabled':
      return vscode.l10n.t('disabled for agents');
    case 'declined':
      return vscode.l10n.t('you declined it');
    case 'unanswerable':
      return vscode.l10n.t('no one could answer');
    case 'busy':
      return vscode.l10n.t('too many questions were waiting');
    default: {
      const exhaustive: never = reason;
      return exhaustive;
    }
  }
}

/** `name version`, escaped for display. */
export function describeAgent(agent: ConnectedAgent): string {
  return escapeForDisplay(agent.version ? `${agent.name} ${agent.version}` : agent.name || '?');
}
