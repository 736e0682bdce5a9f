import * as vscode from 'vscode';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';

/** MCP Workbench: Show Log — reveals the server's output channel. */
export async function showLog(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server whose log to show'),
  });
  controller?.log.show(true);
}
