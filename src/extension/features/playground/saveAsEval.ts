import * as vscode from 'vscode';
import type { ConversationRecord } from '../../../workbench/evals/conversation';
import { MCPEVAL_SUFFIX } from '../../../workbench/evals/format';
import { appendEvalRequest, evalRequestFromTurn, SaveAsEvalError } from '../../../workbench/evals/fromConversation';
import { showError } from '../../platform/ui/coreErrors';

type FileChoice = vscode.QuickPickItem & { uri?: vscode.Uri };

/**
 * Save as Eval: the panel's latest request becomes an eval request (its text, the tool calls made with their exact
 * arguments, the model) appended to a `*.mcpeval.json` the person picks or creates. An existing file gets one JSONC
 * insertion (evals/fromConversation.ts): its comments and formatting stay. `presetFile` (tests) skips the pick.
 */
export async function saveAsEval(record: ConversationRecord, presetFile?: string): Promise<vscode.Uri | undefined> {
  const turn = record.turns.at(-1);
  let request;
  try {
    if (!turn) throw new SaveAsEvalError('no request ran yet');
    request = evalRequestFromTurn(turn, record.servers.length > 1);
  } catch (error) {
    if (!(error instanceof SaveAsEvalError)) throw error;
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Nothing to save as an eval: the model made no tool call in the latest request.'),
    );
    return undefined;
  }
  const target = presetFile ? vscode.Uri.file(presetFile) : await chooseFile();
  if (!target) return undefined;
  try {
    let existing: string | undefined;
    try {
      existing = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    } catch {
      existing = undefined; // a new file
    }
    const text = appendEvalRequest(existing, request, record.model.id);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (error) {
    void showError(error, {
      words: (reason) => vscode.l10n.t('Could not save the eval: {0}', reason),
      logAs: 'Could not save the playground request as an eval',
    });
    return undefined;
  }
  // Beside the panel, the focus left in it: the person reads the saved request (and loosens its arguments) while the
  // conversation stays in view.
  void vscode.window.showTextDocument(target, {
    preview: false,
    preserveFocus: true,
    viewColumn: vscode.ViewColumn.Beside,
  });
  vscode.window.setStatusBarMessage(vscode.l10n.t('Saved the request as an eval'), 3000);
  return target;
}

async function chooseFile(): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles(`**/*${MCPEVAL_SUFFIX}`, '**/node_modules/**', 50);
  const choices: FileChoice[] = [
    { label: `$(new-file) ${vscode.l10n.t('New eval file…')}` },
    ...files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
  ];
  const picked =
    files.length === 0
      ? choices[0]
      : await vscode.window.showQuickPick(choices, {
          placeHolder: vscode.l10n.t('Append the request to which eval file?'),
          ignoreFocusOut: true,
        });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const chosen = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save as Eval'),
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `playground${MCPEVAL_SUFFIX}`) } : {}),
    filters: { [vscode.l10n.t('Eval')]: ['json'] },
  });
  if (!chosen) return undefined;
  // The suffix makes it an eval (the Test Explorer and the schema look for it).
  return chosen.path.endsWith(MCPEVAL_SUFFIX)
    ? chosen
    : chosen.with({ path: chosen.path.replace(/(\.json)?$/, MCPEVAL_SUFFIX) });
}
