import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { ServerState } from '../../platform/servers/serverState';
import { startWithFeedback } from '../../platform/servers/startServer';

// Apart from startServer.ts, which serverPicker.ts needs (runningServer starts a server): no import cycle.
/** MCP Workbench: Start Server — the tree row's server, or one picked (stopped and failed ones first). */
export async function startServer(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to start'),
    prefer: (server) => ServerState.canStart(server.state),
  });
  if (controller) await startWithFeedback(controller);
}
