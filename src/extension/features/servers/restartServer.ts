import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';

/** MCP Workbench: Restart Server — stops the server, then starts it with the usual feedback. */
export async function restartServer(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to restart'),
    prefer: (server) => ServerState.canRestart(server.state),
  });
  if (!controller) return;
  await controller.stop();
  await startWithFeedback(controller);
}
