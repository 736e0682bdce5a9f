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
 *
 * Create it before the tree's data provider and attach the view with `showIn`: VS Code's extension host sends a
 * tree view's changes (rows and message alike) through one 200 ms debounce that delivers the first change of a burst
 * at once and the rest 200 ms later. Subscribed first, the hint's message leads the burst and the rows follow, so the
 * rows do not jump down by a line 200 ms after they appear, under the pointer of someone (or a test) clicking one.
 */
export class ServersViewHint implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private anyStarted = false;
  private view: ViewWithMessage | undefined;

  constructor(private readonly manager: ServerManager) {
    this.subscriptions = [manager.onDidChangeServers(() => this.update()), manager.onDidChangeServerState(() => this.update())];
  }

  /** Shows the hint in `view` from now on (the view exists only once the data provider, made after this, does). */
  showIn(view: ViewWithMessage): this {
    this.view = view;
    this.update();
    return this;
  }

  private update(): void {
    const servers = this.manager.servers;
    if (servers.some((controller) => controller.state.kind !== 'stopped')) this.anyStarted = true;
    const message = !this.anyStarted && servers.length > 0 ? vscode.l10n.t('Select a server and press Enter, or click ▷ beside it, to start it.') : undefined;
    if (this.view && this.view.message !== message) this.view.message = message;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    if (this.view) this.view.message = undefined;
  }
}
