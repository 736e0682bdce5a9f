import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import { resolveServer } from './serverPicker';

export function registerStopServer(context: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand('mcpWorkbench.stopServer', async (argument?: unknown) => {
    const controller = await resolveServer(context.manager, argument, {
      placeHolder: vscode.l10n.t('Select the MCP server to stop'),
      prefer: (server) => server.state.kind === 'running' || server.state.kind === 'starting',
    });
    if (!controller) return;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Stopping MCP server {0}', controller.name) },
      () => controller.stop(),
    );
  });
}
