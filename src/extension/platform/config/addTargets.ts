import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { DIALECTS } from '../../../workbench/config/dialects';
import { parseServerEntry } from '../../../workbench/config/mcpConfig';
import { readConfigFile } from '../../../workbench/node/configFile';
import { announceConfigWritten } from './configLoader';
import { configTargets, targetLabel, type ConfigTarget } from './configTargets';
import type { AddFileChoice } from './addTargetChoice';

/**
 * Add Server's (and the registry's Add's) choice of file. VS Code 1.140 writes new servers to the workspace-root `.mcp.json` (read by Claude Code
 * and Copilot too) and marks `.vscode/mcp.json` deprecated, so `.mcp.json` comes first; `.vscode/mcp.json` and the
 * user settings stay, for what `.mcp.json` cannot hold (inputs, cwd, envFile, dev).
 */

export type AddTarget = ConfigTarget | { kind: 'dotMcp'; folder: vscode.WorkspaceFolder; uri: vscode.Uri };

export function dotMcpTargets(): Extract<AddTarget, { kind: 'dotMcp' }>[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ kind: 'dotMcp' as const, folder, uri: vscode.Uri.joinPath(folder.uri, '.mcp.json') }));
}

/** A target named by a command argument: a `.mcp.json`'s URI string. */
export function dotMcpTargetFromArgument(value: unknown): AddTarget | undefined {
  return dotMcpTargets().find((target) => target.uri.toString() === value);
}

/**
 * Which file, with the default (where this VS Code writes, for this entry: addTargetChoice.ts) first and focused.
 * `.mcp.json` stays offered when it cannot hold the entry, saying why, so the person is never left wondering where it
 * went; `workspaceOnly` leaves the user settings out (the registry's "Add to Workspace").
 */
export async function pickAddTarget(
  title: string,
  choice?: AddFileChoice,
  options: { workspaceOnly?: boolean } = {},
): Promise<AddTarget | undefined> {
  const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  const refused = choice?.dotMcpRefused ?? [];
  const items: (vscode.QuickPickItem & { target: AddTarget; file: AddFileChoice['preferred'] })[] = [
    ...dotMcpTargets().map((target) => ({
      label: multi ? `.mcp.json (${target.folder.name})` : '.mcp.json',
      description: vscode.l10n.t('where VS Code writes; Claude Code and Copilot read it too'),
      detail:
        refused.length > 0
          ? vscode.l10n.t('cannot hold this server: {0}', refused.join('; '))
          : vscode.l10n.t('shared with everyone who opens this folder; needs workspace trust'),
      target,
      file: 'dotMcp' as const,
    })),
    ...configTargets()
      .filter((target) => !options.workspaceOnly || target.kind === 'workspace')
      .map((target) => ({
        label: targetLabel(target),
        description:
          target.kind === 'user'
            ? vscode.l10n.t('all workspaces, this user')
            : vscode.l10n.t('for inputs, cwd, envFile or dev mode, which .mcp.json cannot hold'),
        target,
        file: target.kind === 'user' ? ('user' as const) : ('vscodeWorkspace' as const),
      })),
  ];
  const preferred = choice?.preferred ?? 'dotMcp';
  // A stable sort: the preferred kind first (VS Code focuses the first item), the rest in their usual order.
  items.sort((a, b) => Number(b.file === preferred) - Number(a.file === preferred));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t('Where should the server be added?'),
    ignoreFocusOut: true,
  });
  return picked?.target;
}

/** Server names in the `.mcp.json` (entries with problems included: their names are taken too). */
export async function dotMcpTakenNames(target: Extract<AddTarget, { kind: 'dotMcp' }>): Promise<string[]> {
  const read = await readConfigFile(target.uri.fsPath);
  if (read.kind !== 'text') return [];
  const parsed = DIALECTS['dot-mcp'].read(read.text, { path: target.uri.fsPath });
  return [
    ...parsed.servers.map((server) => server.definition.name),
    ...parsed.problems.flatMap((problem) => (problem.server ? [problem.server] : [])),
  ];
}

/** Writes the entry (VS Code's shape, from the form) in `.mcp.json`'s dialect, keeping comments; opens it at the entry. */
export async function addToDotMcp(
  target: Extract<AddTarget, { kind: 'dotMcp' }>,
  name: string,
  entry: object,
): Promise<void> {
  const definition = parseServerEntry(name, entry);
  if (typeof definition === 'string') throw new Error(definition);
  const written = DIALECTS['dot-mcp'].write(definition);
  if ('refused' in written)
    throw new Error(
      vscode.l10n.t('.mcp.json cannot hold this server ({0}): add it to .vscode/mcp.json', written.refused.join('; ')),
    );
  const file = target.uri.fsPath;
  const read = await readConfigFile(file);
  if (read.kind === 'refused') throw new Error(`${file}: ${read.reason}`);
  const origin = { path: file, workspaceFolder: target.folder.uri.fsPath };
  const edited = DIALECTS['dot-mcp'].add?.(read.kind === 'text' ? read.text : '', name, written.entry, origin) ?? '';
  await fs.promises.writeFile(file, edited);
  announceConfigWritten(target.uri);
  const at = DIALECTS['dot-mcp'].read(edited, origin).servers.find((server) => server.definition.name === name)?.at;
  const start = at ? new vscode.Position(at.line - 1, at.column - 1) : new vscode.Position(0, 0);
  await vscode.window.showTextDocument(target.uri, { preview: false, selection: new vscode.Range(start, start) });
}
