import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import { resolveServer } from './serverPicker';
import { startWithFeedback } from './startServer';

export function registerRestartServer(context: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand('mcpWorkbench.restartServer', async (argument?: unknown) => {
    const controller = await resolveServer(context.manager, argument, {
      placeHolder: vscode.l10n.t('Select the MCP server to restart'),
      prefer: (server) => server.state.kind !== 'stopped',
    });
    if (!controller) return;
    await controller.stop();
    await startWithFeedback(controller);
  });
}
