import * as vscode from 'vscode';
import { personVisibleTools } from '../../platform/apps/appsSetting';
import type { ServerController } from '../../platform/servers/serverController';
import type { ServerManager } from '../../platform/servers/serverManager';
import { serverKeyLocations } from '../../platform/config/serverKeys';

/**
 * MCP Workbench's own lens above each server entry of `.vscode/mcp.json`: "MCP Workbench: ▷ Start", or the state
 * ("MCP Workbench: running · 3 tools") with Stop. VS Code's built-in client puts its own "▷ Start" on the same
 * lines; ours always says whose it is, so the two cannot be mistaken for each other.
 */
export class ServerCodeLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  private readonly subscriptions: vscode.Disposable[];
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  /** Provides the lenses for every `.vscode/mcp.json` until disposed. */
  static register(manager: ServerManager): vscode.Disposable {
    const lenses = new ServerCodeLenses(manager);
    return vscode.Disposable.from(
      vscode.languages.registerCodeLensProvider({ pattern: '**/.vscode/mcp.json' }, lenses),
      lenses,
    );
  }

  private constructor(private readonly manager: ServerManager) {
    this.subscriptions = [
      manager.onDidChangeServers(() => this.changeEmitter.fire()),
      manager.onDidChangeServerState(() => this.changeEmitter.fire()),
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const mine = this.manager.servers.filter(
      (controller) =>
        controller.entry.origin.scope === 'workspace' &&
        controller.entry.origin.configUri.toString() === document.uri.toString(),
    );
    if (mine.length === 0) return [];
    const byName = new Map(mine.map((controller) => [controller.name, controller]));
    return serverKeyLocations(document.getText()).flatMap(({ name, offset, length }) => {
      const controller = byName.get(name);
      if (!controller) return [];
      const range = new vscode.Range(document.positionAt(offset), document.positionAt(offset + length));
      return lensesFor(controller).map((command) => new vscode.CodeLens(range, command));
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changeEmitter.dispose();
  }
}

function lensesFor(controller: ServerController): vscode.Command[] {
  const node = { kind: 'server', controller };
  const command = (title: string, id: string): vscode.Command => ({ title, command: id, arguments: [node] });
  const state = controller.state;
  switch (state.kind) {
    case 'stopped':
      return [command(vscode.l10n.t('$(play) MCP Workbench: Start'), 'mcpWorkbench.startServer')];
    case 'error':
      return [
        command(vscode.l10n.t('$(error) MCP Workbench: failed · Start Again'), 'mcpWorkbench.startServer'),
        command(vscode.l10n.t('Show Log'), 'mcpWorkbench.showLog'),
      ];
    case 'starting':
      return [
        command(vscode.l10n.t('$(loading~spin) MCP Workbench: starting'), 'mcpWorkbench.showLog'),
        command(vscode.l10n.t('Stop'), 'mcpWorkbench.stopServer'),
      ];
    case 'signInRequired':
      return [command(vscode.l10n.t('$(account) MCP Workbench: Sign In'), 'mcpWorkbench.signIn')];
    case 'running': {
      const offered = personVisibleTools(state.tools).length;
      const tools = state.session.capabilities.tools
        ? ` · ${offered === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', offered)}`
        : '';
      return [
        command(vscode.l10n.t('$(pass-filled) MCP Workbench: running{0}', tools), 'mcpWorkbench.servers.focus'),
        command(vscode.l10n.t('Stop'), 'mcpWorkbench.stopServer'),
        command(vscode.l10n.t('Restart'), 'mcpWorkbench.restartServer'),
      ];
    }
    default: {
      const exhaustive: never = state;
      throw new Error(`unknown server state ${JSON.stringify(exhaustive)}`);
    }
  }
}
