import * as vscode from 'vscode';
import type { ServerManager } from '../servers/serverManager';

/** What the hint needs of the Servers view: its message line (vscode.TreeView has one). */
export interface ViewWithMessage {
  message?: string;
}

/**
 * The first-run hint above the Servers view: while servers are listed but none has been started in this window,
 * the view says how to start one ("select a server and press Enter, or ▷"), since ▷ appears only on hover and
 * nothing else tells a newcomer what to click. Once any server starts, the hint goes and stays gone. (With no
 * servers at all the view's welcome content explains what to do instead.)
 */
export class ServersViewHint implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private anyStarted = false;

  constructor(
    private readonly manager: ServerManager,
    private readonly view: ViewWithMessage,
  ) {
    this.subscriptions = [manager.onDidChangeServers(() => this.update()), manager.onDidChangeServerState(() => this.update())];
    this.update();
  }

  private update(): void {
    const servers = this.manager.servers;
    if (servers.some((controller) => controller.state.kind !== 'stopped')) this.anyStarted = true;
    const message = !this.anyStarted && servers.length > 0 ? vscode.l10n.t('Select a server and press Enter, or click ▷ beside it, to start it.') : undefined;
    if (this.view.message !== message) this.view.message = message;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.view.message = undefined;
  }
}
