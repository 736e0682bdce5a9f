import * as vscode from 'vscode';
import type { StoredToolPolicy, ToolRule, ToolRunPolicy } from '../../../workbench/gateway/toolPolicy';

/**
 * workspaceState key of every server's tool rules for agents: `{ [server identity]: StoredToolPolicy }`. Kept outside
 * mcp.json (a person's choice in this workspace, not the server's definition) and keyed by the server's identity
 * (`ServerController.identityKey`), not its display name: another server given the same name does not inherit them.
 */
const POLICIES_KEY = 'mcpWorkbench.agentToolPolicies';

const POLICIES: readonly ToolRunPolicy[] = ['run', 'ask', 'review'];

/**
 * The tool rules agents are held to, per server, in this workspace. Reading a rule is a lookup in the stored JSON:
 * the Servers tree draws every tool row with it, and the gateway's own model (`workbench/gateway/toolPolicy.ts`, in
 * the gateway's chunk) is built only when a gateway opens.
 */
export class AgentToolPolicies implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  /** A server's rules changed (its identity key). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly state: vscode.Memento) {}

  /** The server's stored rules (a copy). */
  stored(identity: string): StoredToolPolicy {
    const tools = this.all()[identity]?.tools;
    return { tools: { ...(tools ?? {}) } };
  }

  rule(identity: string, tool: string): ToolRule {
    const stored = this.all()[identity]?.tools?.[tool];
    return {
      enabled: stored?.enabled !== false,
      policy: POLICIES.includes(stored?.policy as ToolRunPolicy) ? (stored?.policy as ToolRunPolicy) : 'run',
    };
  }

  async set(identity: string, tool: string, change: Partial<ToolRule>): Promise<void> {
    const all = this.all();
    const before = this.rule(identity, tool);
    const enabled = change.enabled ?? before.enabled;
    const policy = change.policy ?? before.policy;
    const tools = { ...(all[identity]?.tools ?? {}) };
    // A rule back at the default (enabled, run) is forgotten, so the state holds only what a person changed.
    if (enabled && policy === 'run') delete tools[tool];
    else tools[tool] = { ...(enabled ? {} : { enabled: false }), ...(policy === 'run' ? {} : { policy }) };
    const next = { ...all };
    if (Object.keys(tools).length === 0) delete next[identity];
    else next[identity] = { tools };
    await this.state.update(POLICIES_KEY, next);
    this.changeEmitter.fire(identity);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private all(): Record<string, StoredToolPolicy> {
    const value = this.state.get<unknown>(POLICIES_KEY);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, StoredToolPolicy>)
      : {};
  }
}
