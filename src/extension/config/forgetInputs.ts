import * as vscode from 'vscode';
import type { InputPrompter } from './inputPrompter';

/** MCP Workbench: Forget Stored Inputs — clears ${input:...} answers (SecretStorage and workspace state); the next start asks again. */
export async function forgetInputs(inputs: InputPrompter): Promise<number> {
  const count = await inputs.forgetAll();
  void vscode.window.showInformationMessage(count === 1 ? vscode.l10n.t('Forgot 1 stored MCP input value.') : vscode.l10n.t('Forgot {0} stored MCP input values.', count));
  return count;
}
