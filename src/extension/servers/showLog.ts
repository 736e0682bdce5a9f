import * as vscode from 'vscode';
import type { CommandContext } from '../commands/commandContext';
import { resolveServer } from './serverPicker';

export function registerShowLog(context: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand('mcpWorkbench.showLog', async (argument?: unknown) => {
    const controller = await resolveServer(context.manager, argument, { placeHolder: vscode.l10n.t('Select the MCP server whose log to show') });
    controller?.log.show(true);
  });
}
