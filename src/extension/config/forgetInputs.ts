import * as vscode from 'vscode';
import type { InputPrompter } from './inputPrompter';

export const FORGET_INPUTS_COMMAND = 'mcpWorkbench.forgetInputs';

/** MCP: Forget Stored Inputs — clears ${input:...} answers (SecretStorage and workspace state); the next start asks again. */
export function registerForgetInputs(inputs: InputPrompter): vscode.Disposable {
  return vscode.commands.registerCommand(FORGET_INPUTS_COMMAND, async () => {
    const count = await inputs.forgetAll();
    void vscode.window.showInformationMessage(vscode.l10n.t('Forgot {0} stored MCP input value(s).', count));
    return count;
  });
}
