import * as vscode from 'vscode';
import type { ConfigFileProblems } from '../../platform/config/configLoader';
import { showError } from '../../platform/ui/coreErrors';

/** A config source has problems: name the file (or the user settings) and each reason, and offer to open it. */
export function reportConfigProblems({ configUri, problems, sourceLabel, scope }: ConfigFileProblems): void {
  const reasons = problems
    .map((problem) => (problem.server ? `${problem.server}: ${problem.message}` : problem.message))
    .join('; ');
  const open = vscode.l10n.t('Open File');
  const where = scope === 'user' ? sourceLabel : vscode.workspace.asRelativePath(configUri);
  void showError(reasons, {
    severity: 'warning',
    words: (said) => vscode.l10n.t('MCP configuration {0} has problems: {1}', where, said),
    logAs: `MCP configuration ${where} has problems`,
    actions: [open],
  }).then((choice) => {
    if (choice !== open) return;
    if (scope === 'user') void vscode.commands.executeCommand('workbench.action.openSettingsJson');
    else void vscode.window.showTextDocument(configUri);
  });
}
