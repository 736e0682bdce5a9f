import * as vscode from 'vscode';

/**
 * How VS Code's chat reaches this workspace's `.vscode/mcp.json` servers, decided once per workspace:
 * - `workbench`: through this extension's gateways (one process per server, the workbench's client carries the calls);
 * - `vscode`: as before, VS Code runs its own copy from the file.
 * Undecided counts as `vscode`: nothing changes until the person chooses.
 */
export type ChatRoute = 'workbench' | 'vscode';

const ROUTE_KEY = 'mcpWorkbench.chatRoute';

/** The workspace's choice (workspaceState), with a change event for the chat provider. */
export class ChatRouteChoice implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<ChatRoute>();
  readonly onDidChange = this.changeEmitter.event;

  /**
   * Whether chat can reach servers through the workbench here: set by the gateway feature once VS Code took its
   * server definition provider (1.101+; 1.100 has an earlier form of the API that refuses this extension's contribution).
   */
  available = false;

  constructor(private readonly state: vscode.Memento) {}

  /** The choice, or undefined when the person has not made it in this workspace. */
  get decided(): ChatRoute | undefined {
    const stored = this.state.get<unknown>(ROUTE_KEY);
    return stored === 'workbench' || stored === 'vscode' ? stored : undefined;
  }

  get route(): ChatRoute {
    return this.decided ?? 'vscode';
  }

  async choose(route: ChatRoute): Promise<void> {
    await this.state.update(ROUTE_KEY, route);
    this.changeEmitter.fire(route);
  }

  /** Undecided again (the test build's hooks, to leave a workspace as they found it). */
  async forget(): Promise<void> {
    await this.state.update(ROUTE_KEY, undefined);
    this.changeEmitter.fire(this.route);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}
