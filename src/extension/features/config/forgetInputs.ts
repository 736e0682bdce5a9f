import * as vscode from 'vscode';
import type { InputPrompter, StoredInput } from '../../platform/config/inputPrompter';

/**
 * MCP Workbench: Forget Stored Inputs — the person picks which `${input:...}` answers to forget (all are listed,
 * none preselected), confirms, and those are cleared from SecretStorage and workspace state; their next start asks
 * again. Resolves with how many were forgotten (0 when nothing was stored, picked or confirmed).
 */
export async function forgetInputs(inputs: InputPrompter): Promise<number> {
  const stored = inputs.stored();
  if (stored.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No MCP input values are stored.'));
    return 0;
  }
  const answerer = inputs.forgetAnswerer;
  const keys = answerer ? answerer.pick(stored) : await pick(stored);
  if (!keys || keys.length === 0) return 0;
  if (!(answerer ? answerer.confirm(keys.length) : await confirm(keys.length))) return 0;
  const count = await inputs.forget(keys);
  void vscode.window.showInformationMessage(
    count === 1
      ? vscode.l10n.t('Forgot 1 stored MCP input value.')
      : vscode.l10n.t('Forgot {0} stored MCP input values.', count),
  );
  return count;
}

async function pick(stored: readonly StoredInput[]): Promise<readonly string[] | undefined> {
  const items = stored.map((input) => ({
    label: input.inputId,
    description: input.secret ? vscode.l10n.t('password') : undefined,
    detail: describeConfig(input.configUri),
    key: input.key,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    ignoreFocusOut: true,
    title: vscode.l10n.t('Forget Stored Inputs'),
    placeHolder: vscode.l10n.t('Select the stored input values to forget'),
  });
  return picked?.map((item) => item.key);
}

async function confirm(count: number): Promise<boolean> {
  const forget = vscode.l10n.t('Forget');
  const choice = await vscode.window.showWarningMessage(
    count === 1
      ? vscode.l10n.t('Forget 1 stored MCP input value?')
      : vscode.l10n.t('Forget {0} stored MCP input values?', count),
    { modal: true, detail: vscode.l10n.t('The servers that use them ask for them again at their next start.') },
    forget,
  );
  return choice === forget;
}

/** The config file as a path the person recognizes (a workspace-relative one when it is inside the workspace). */
function describeConfig(configUri: string): string {
  try {
    const uri = vscode.Uri.parse(configUri);
    return uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri) : uri.toString(true);
  } catch {
    return configUri;
  }
}
