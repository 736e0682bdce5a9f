import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';

/**
 * The first-run hint at the top of the Servers view: while servers are listed but none has been started in this
 * window, the view says how to start one ("select a server and press Enter, or ▷"), since ▷ appears only on hover
 * and nothing else tells a newcomer what to click. Once any server starts, the hint goes and stays gone. (With no
 * servers at all the view's welcome content explains what to do instead.)
 *
 * It is the view's first row, not the view's message line: VS Code's extension host sends a tree's message and its
 * rows through one debounce, in either order, so a message could come 200 ms after the rows and push them down a
 * line under the pointer of someone (or a test) clicking one. A row comes in the same answer as the rows below it.
 */
export class ServersViewHint implements vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  private anyStarted = false;
  private current: string | undefined;

  /** Fires when the hint appears or goes. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly manager: ServerManager) {
    this.subscriptions = [
      manager.onDidChangeServers(() => this.update()),
      manager.onDidChangeServerState(() => this.update()),
    ];
    this.current = this.compute();
  }

  /** The hint's text while it shows, else undefined. */
  get text(): string | undefined {
    return this.current;
  }

  private compute(): string | undefined {
    const servers = this.manager.servers;
    if (servers.some((controller) => controller.state.kind !== 'stopped')) this.anyStarted = true;
    return !this.anyStarted && servers.length > 0
      ? vscode.l10n.t('Select a server and press Enter, or click ▷ beside it, to start it.')
      : undefined;
  }

  private update(): void {
    const next = this.compute();
    if (next === this.current) return;
    this.current = next;
    this.changeEmitter.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
  }
}
