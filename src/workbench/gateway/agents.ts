import type { Disposable } from '../../protocol/disposable';

/** One agent with an open 2025 session on a gateway, as its `initialize` named itself (untrusted text). */
export interface ConnectedAgent {
  /** The session id: what Disconnect ends. */
  readonly id: string;
  /** `clientInfo.name` and `.version`, cut to a display length; shown only through the escaping helpers. */
  readonly name: string;
  readonly version: string;
}

/** The agent a request through the gateway comes from, as its clientInfo named it (cut, untrusted: show it escaped). */
export interface AgentIdentity {
  /** Tells agents apart within one gateway (a 2025 session, or a 2026-07-28 agent's clientInfo). */
  readonly key: string;
  readonly name: string;
  readonly version: string;
}

/** The identity of an agent from its clientInfo as sent (any shape: it is the agent's). */
export function agentIdentity(key: string, info: { name?: unknown; version?: unknown } | undefined): AgentIdentity {
  return { key, name: cut(info?.name), version: cut(info?.version) };
}

/** Longer names are cut: an agent chooses its clientInfo, and the Servers view draws it. */
const MAX_INFO_LENGTH = 120;

/**
 * The agents connected to one gateway, with a change event, so a host can list them (the Servers view) and end one.
 * Only handshake (2025) agents hold a session; a 2026-07-28 agent is served per request and is never "connected".
 */
export class GatewayAgents {
  private readonly agents = new Map<string, ConnectedAgent>();
  private readonly listeners = new Set<() => void>();

  list(): ConnectedAgent[] {
    return [...this.agents.values()];
  }

  /** Fires after an agent came or went. */
  onDidChangeAgents(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** A session finished its handshake: `info` is the agent's `clientInfo`, as sent. */
  add(id: string, info: { name?: unknown; version?: unknown } | undefined): void {
    this.agents.set(id, { id, name: cut(info?.name), version: cut(info?.version) });
    this.fire();
  }

  remove(id: string): void {
    if (this.agents.delete(id)) this.fire();
  }

  private fire(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear.
      }
    }
  }
}

function cut(value: unknown): string {
  const text = typeof value === 'string' ? value : '';
  return text.length > MAX_INFO_LENGTH ? `${text.slice(0, MAX_INFO_LENGTH)}…` : text;
}
