import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { DIALECTS, type ReadOrigin } from '../../../workbench/config/dialects';
import { ConfigEditError } from '../../../workbench/config/jsoncEdit';
import { readConfigFile } from '../../../workbench/node/configFile';
import type { ConfigSourceFile } from '../../../workbench/node/configSources';
import { announceConfigWritten, type ConfigLoader } from '../../platform/config/configLoader';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { showError } from '../../platform/ui/coreErrors';
import { planCopy, type CopyPlan } from './copyPlan';

/**
 * Copy Server to…: one entry written into another client's file, converted to that client's dialect (dialects/),
 * keeping the file's comments and order. What the target cannot express (a password input into `.mcp.json`, a cwd
 * into Claude Desktop's file) refuses the copy with the reasons: a copy that starts a different server is worse than
 * none. Only the chosen file is written.
 */
export async function copyServerTo(manager: ServerManager, loader: ConfigLoader, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to copy'),
  });
  if (!controller) return;
  const { entry } = controller;
  const targets = uniqueByPath(loader.sourceFiles()).filter(
    (file) => file.path !== entry.origin.configUri.fsPath && DIALECTS[file.dialect].add !== undefined,
  );
  const picked = await vscode.window.showQuickPick(
    targets.map((file) => ({
      label: DIALECTS[file.dialect].label,
      description: file.label,
      detail:
        file.scope === 'workspace' ? vscode.l10n.t('in this workspace: shared with everyone who opens it') : undefined,
      file,
    })),
    {
      title: vscode.l10n.t('Copy "{0}" to…', escapeForDisplay(entry.name)),
      placeHolder: vscode.l10n.t("Which client's file should get a copy of the server?"),
      ignoreFocusOut: true,
    },
  );
  if (!picked) return;
  const { file } = picked;
  const read = await readConfigFile(file.path, Number.MAX_SAFE_INTEGER);
  if (read.kind === 'refused') {
    void vscode.window.showErrorMessage(vscode.l10n.t('Could not read {0}: {1}', file.label, read.reason));
    return;
  }
  const origin: ReadOrigin = {
    path: file.path,
    ...(file.workspaceFolder ? { workspaceFolder: file.workspaceFolder } : {}),
  };
  let plan: CopyPlan;
  try {
    plan = planCopy(
      { name: entry.name, definition: entry.definition, inputs: entry.inputs },
      { dialect: file.dialect, text: read.kind === 'text' ? read.text : '', origin },
      {
        inputsElsewhere: (label) =>
          vscode.l10n.t('{0} keeps its inputs elsewhere: copy the server into a .vscode/mcp.json instead', label),
      },
    );
  } catch (error) {
    if (!(error instanceof ConfigEditError)) throw error;
    void showError(error, {
      words: (reason) => vscode.l10n.t('Could not copy to {0}: {1}', file.label, reason),
      logAs: 'Copy Server to',
    });
    return;
  }
  if (plan.kind === 'refused') {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        '"{0}" was not copied to {1}: {2}',
        escapeForDisplay(entry.name),
        file.label,
        plan.reasons.join('; '),
      ),
      { modal: true },
    );
    return;
  }
  await fs.promises.mkdir(vscode.Uri.joinPath(vscode.Uri.file(file.path), '..').fsPath, { recursive: true });
  await fs.promises.writeFile(file.path, plan.text);
  announceConfigWritten(vscode.Uri.file(file.path));
  const { at } = plan;
  const start = at ? new vscode.Position(at.line - 1, at.column - 1) : undefined;
  await vscode.window.showTextDocument(vscode.Uri.file(file.path), {
    preview: false,
    ...(start && at ? { selection: new vscode.Range(start, start.translate(0, at.length)) } : {}),
  });
  if (plan.notes.length > 0)
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Copied "{0}" to {1}. Not carried over: {2}',
        escapeForDisplay(entry.name),
        file.label,
        plan.notes.join('; '),
      ),
    );
}

function uniqueByPath(files: readonly ConfigSourceFile[]): ConfigSourceFile[] {
  return files.filter((file, index) => files.findIndex((other) => other.path === file.path) === index);
}
