import * as vscode from 'vscode';
import type { CommandContext } from './commandContext';

export function registerRefresh(context: CommandContext): vscode.Disposable {
  return vscode.commands.registerCommand('mcpWorkbench.refresh', async () => {
    await context.loader.reload();
  });
}
