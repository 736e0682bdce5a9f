import * as vscode from 'vscode';
import type { ServerManager } from './serverManager';
import { resolveServer } from './serverPicker';
import { ServerState } from './serverState';

/** MCP Workbench: Stop Server — running and starting servers are offered first. */
export async function stopServer(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to stop'),
    prefer: (server) => ServerState.isActive(server.state),
  });
  if (!controller) return;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stopping MCP server {0}', controller.name) },
    () => controller.stop(),
  );
}
