import * as vscode from 'vscode';
import { registerCallTool } from './commands/callTool';
import type { CommandContext } from './commands/commandContext';
import { registerRefresh } from './commands/refresh';
import { registerRestartServer } from './commands/restartServer';
import { registerShowLog } from './commands/showLog';
import { registerStartServer, reportStartFailure, startWithFeedback } from './commands/startServer';
import { registerStopServer } from './commands/stopServer';
import { ConfigLoader } from './configLoader';
import { InputPrompter } from './inputPrompter';
import { LogChannels } from './logChannels';
import { ServerManager } from './serverManager';
import { SERVERS_VIEW_ID, ServersTreeProvider, type ServersTreeNode } from './serversTreeProvider';
import { ToolResultDocuments } from './toolResultDocuments';
import { createWorkspaceHost } from './workspaceHost';

/**
 * What `activate` returns, for integration tests (`vscode.extensions.getExtension('mcp-workbench.mcp-workbench')
 * .exports`). Kept small and stable:
 * - `manager.snapshot()` lists every configured server with its state, tool names and pid;
 * - `manager.waitForState(nameOrId, kind, timeoutMs)` resolves when a server reaches a state;
 * - `manager.servers` gives the controllers (start/stop/restart/callTool) for deeper tests;
 * - `reload()` re-reads every mcp.json now, without waiting for the file watcher.
 */
export interface McpWorkbenchApi {
  manager: ServerManager;
  reload(): Promise<void>;
}

let activeManager: ServerManager | undefined;

/** The composition root: builds the services, wires them together, and does nothing else. */
export async function activate(context: vscode.ExtensionContext): Promise<McpWorkbenchApi> {
  const logs = new LogChannels();
  const manager = new ServerManager({
    host: createWorkspaceHost(),
    logs,
    inputs: new InputPrompter(),
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    reportStartFailure,
  });
  activeManager = manager;
  const loader = new ConfigLoader();
  const results = new ToolResultDocuments();
  const tree = new ServersTreeProvider(manager);
  const treeView = vscode.window.createTreeView<ServersTreeNode>(SERVERS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  const commands: CommandContext = { manager, loader, results };

  // deactivate() has already awaited every server's shutdown by the time these are disposed.
  context.subscriptions.push(
    logs,
    manager,
    loader,
    results,
    tree,
    treeView,
    loader.onDidChange((entries) => void manager.applyConfiguration(entries)),
    loader.onDidFindProblems(({ configUri, problems }) => {
      const reasons = problems.map((problem) => (problem.server ? `${problem.server}: ${problem.message}` : problem.message)).join('; ');
      const open = vscode.l10n.t('Open File');
      void vscode.window
        .showWarningMessage(vscode.l10n.t('MCP configuration {0} has problems: {1}', vscode.workspace.asRelativePath(configUri), reasons), open)
        .then((choice) => {
          if (choice === open) void vscode.window.showTextDocument(configUri);
        });
    }),
    // Expanding a stopped (or failed) server starts it: the user asked to see its tools.
    treeView.onDidExpandElement(({ element }) => {
      if (element.kind !== 'server') return;
      const kind = element.controller.state.kind;
      if (kind === 'stopped' || kind === 'error') void startWithFeedback(element.controller);
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (autoStartEnabled()) void manager.startAll();
      else tree.refresh();
    }),
    registerStartServer(commands),
    registerStopServer(commands),
    registerRestartServer(commands),
    registerShowLog(commands),
    registerCallTool(commands),
    registerRefresh(commands),
  );

  await loader.reload();
  if (autoStartEnabled()) {
    if (vscode.workspace.isTrusted) void manager.startAll();
    else if (manager.servers.length > 0) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('MCP servers were not started automatically because this workspace is not trusted.'),
      );
    }
  }

  return {
    manager,
    reload: async () => {
      await loader.reload();
    },
  };
}

/** Awaited by VS Code on window close or reload: every server gets its staged shutdown before the host exits. */
export async function deactivate(): Promise<void> {
  const manager = activeManager;
  activeManager = undefined;
  await manager?.shutdown();
}

function autoStartEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>('autoStart', false);
}
