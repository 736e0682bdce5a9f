import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { ServerState } from '../../platform/servers/serverState';

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
