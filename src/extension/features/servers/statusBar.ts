import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';
import type { ServerStateKind } from '../../platform/servers/serverState';

/** Focuses the MCP Workbench servers view (VS Code registers `<viewId>.focus` for every view). */
const FOCUS_SERVERS_VIEW_COMMAND = 'mcpWorkbench.servers.focus';

/**
 * "$(server) 2 $(error) 1": how many servers run and how many failed, with a per-server tooltip; a click opens the
 * view. Hidden while nothing is configured, so it does not take space in workspaces without MCP servers.
 */
export class ServersStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('mcpWorkbench.status', vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly manager: ServerManager) {
    this.item.name = vscode.l10n.t('MCP Servers');
    this.item.command = FOCUS_SERVERS_VIEW_COMMAND;
    this.subscriptions = [
      manager.onDidChangeServers(() => this.update()),
      manager.onDidChangeServerState(() => this.update()),
    ];
    this.update();
  }

  /** The current text, for tests. */
  get text(): string {
    return this.item.text;
  }

  /** The current tooltip's markdown, for tests. */
  get tooltip(): string {
    const tooltip = this.item.tooltip;
    return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  }

  /** What a screen reader announces, for tests. */
  get accessibleLabel(): string | undefined {
    return this.item.accessibilityInformation?.label;
  }

  /** The command a click runs, for tests. */
  get command(): string | undefined {
    const command = this.item.command;
    return typeof command === 'string' ? command : command?.command;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }

  private update(): void {
    const servers = this.manager.servers;
    if (servers.length === 0) {
      this.item.hide();
      return;
    }
    const running = servers.filter((server) => server.state.kind === 'running').length;
    const failed = servers.filter((server) => server.state.kind === 'error').length;
    this.item.text = failed > 0 ? `$(server) ${running} $(error) ${failed}` : `$(server) ${running}`;
    // The text is icons and digits; a screen reader gets words instead of "server 2 error 1".
    this.item.accessibilityInformation = {
      label:
        failed > 0
          ? vscode.l10n.t('MCP servers: {0} running, {1} failed', running, failed)
          : vscode.l10n.t('MCP servers: {0} running', running),
    };
    this.item.backgroundColor = failed > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(
      `**${vscode.l10n.t('MCP servers: {0} running, {1} failed, {2} configured', running, failed, servers.length)}**\n\n`,
    );
    for (const server of [...servers].sort((a, b) => a.name.localeCompare(b.name))) {
      const icon = {
        running: '$(pass)',
        error: '$(error)',
        starting: '$(loading~spin)',
        stopped: '$(circle-outline)',
        signInRequired: '$(account)',
      }[server.state.kind];
      tooltip.appendMarkdown(
        `${icon} ${escapeMarkdown(server.name)} — ${escapeMarkdown(stateText(server.state.kind))}\n\n`,
      );
    }
    tooltip.appendMarkdown(vscode.l10n.t('Click to open the MCP servers view.'));
    this.item.tooltip = tooltip;
    this.item.show();
  }
}

function stateText(kind: ServerStateKind): string {
  switch (kind) {
    case 'running':
      return vscode.l10n.t('running');
    case 'error':
      return vscode.l10n.t('failed');
    case 'starting':
      return vscode.l10n.t('starting');
    case 'stopped':
      return vscode.l10n.t('stopped');
    case 'signInRequired':
      return vscode.l10n.t('Sign in required');
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
