import * as vscode from 'vscode';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { addInputToConfig, addServerToConfig, type InputEntry } from '../../../workbench/config/jsoncEdit';
import { parseMcpConfig } from '../../../workbench/config/mcpConfig';
import { WORKSPACE_CONFIG_PATH, announceConfigWritten, workspaceConfigLabel } from './configLoader';
import { USER_SERVERS_KEY, USER_SERVERS_SECTION, userServersLabel, userServersValue } from './userServers';
import { isObject } from '../../../protocol/guards';

/** Where Add Server and Import Servers write: a workspace folder's mcp.json, or the user-level list in settings. */
export type ConfigTarget = { kind: 'workspace'; folder: vscode.WorkspaceFolder; uri: vscode.Uri } | { kind: 'user' };

interface NewServer {
  name: string;
  /** The JSON written under `servers.<name>`. */
  entry: object;
  /** `inputs` definitions the entry's `${input:…}` refer to, written into the same file (registry servers). */
  inputs?: readonly InputEntry[];
}

export function configTargets(): ConfigTarget[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(
    (folder) => folder.uri.scheme === 'file' || folder.uri.scheme === 'vscode-remote',
  );
  return [
    ...folders.map((folder) => ({
      kind: 'workspace' as const,
      folder,
      uri: vscode.Uri.joinPath(folder.uri, WORKSPACE_CONFIG_PATH),
    })),
    { kind: 'user' as const },
  ];
}

export function targetLabel(target: ConfigTarget): string {
  return target.kind === 'user' ? userServersLabel() : workspaceConfigLabel(target.folder);
}

/** A target named by a command argument: "user", or a workspace folder's or mcp.json's URI string. */
export function targetFromArgument(value: unknown): ConfigTarget | undefined {
  if (value === 'user') return { kind: 'user' };
  if (typeof value !== 'string') return undefined;
  return configTargets().find(
    (target) =>
      target.kind === 'workspace' && (target.folder.uri.toString() === value || target.uri.toString() === value),
  );
}

export async function pickTarget(title: string): Promise<ConfigTarget | undefined> {
  const targets = configTargets();
  const picked = await vscode.window.showQuickPick(
    targets.map((target) => ({
      label: targetLabel(target),
      description: target.kind === 'user' ? vscode.l10n.t('all workspaces, this user') : target.folder.name,
      detail:
        target.kind === 'workspace'
          ? vscode.l10n.t('shared with everyone who opens this folder; needs workspace trust')
          : undefined,
      target,
    })),
    { title, placeHolder: vscode.l10n.t('Where should the server be added?'), ignoreFocusOut: true },
  );
  return picked?.target;
}

/** Server names already used in the target, so new ones can be made unique. */
export async function takenNames(target: ConfigTarget): Promise<string[]> {
  if (target.kind === 'user') return Object.keys(userServers());
  const text = await readText(target.uri);
  if (text === undefined) return [];
  // Entries with problems still own their names: writing the same key again would be refused by the edit.
  const parsed = parseMcpConfig(text);
  return [
    ...parsed.servers.map((server) => server.name),
    ...parsed.problems.flatMap((problem) => (problem.server ? [problem.server] : [])),
  ];
}

/** Input ids already defined in a workspace target, so new password inputs do not collide with them. */
export async function takenInputIds(target: ConfigTarget): Promise<string[]> {
  if (target.kind === 'user') return [];
  const text = await readText(target.uri);
  return text === undefined ? [] : parseMcpConfig(text).inputs.map((input) => input.id);
}

/**
 * Adds the servers and opens the file at the first new entry. Workspace files are edited as text (jsoncEdit), via a
 * WorkspaceEdit when the file exists so an open editor with unsaved changes is edited rather than overwritten.
 */
export async function addServers(
  target: ConfigTarget,
  servers: readonly NewServer[],
  inputs: readonly InputEntry[] = [],
): Promise<void> {
  if (servers.length === 0) return;
  if (target.kind === 'user') {
    const current = userServers();
    for (const server of servers) {
      if (Object.hasOwn(current, server.name))
        throw new Error(vscode.l10n.t('A server named "{0}" already exists in {1}.', server.name, userServersLabel()));
      current[server.name] = server.entry;
    }
    const value = userServersValue();
    const root = isObject(value) ? value : {};
    const allInputs = [
      ...(Array.isArray(root.inputs) ? root.inputs : []),
      ...inputs,
      ...servers.flatMap((server) => server.inputs ?? []),
    ];
    await vscode.workspace
      .getConfiguration(USER_SERVERS_SECTION)
      .update(
        USER_SERVERS_KEY,
        { ...root, ...(allInputs.length > 0 ? { inputs: allInputs } : {}), servers: current },
        vscode.ConfigurationTarget.Global,
      );
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    return;
  }
  const edited = (text: string): string => {
    for (const input of inputs) text = addInputToConfig(text, input);
    for (const server of servers) text = withInputs(addServerToConfig(text, server.name, server.entry), server);
    return text;
  };
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.uri.toString());
  let written: string;
  if (open?.isDirty) {
    // Unsaved changes in the editor are the person's latest word: edit the open document and save it.
    written = edited(open.getText());
    const edit = new vscode.WorkspaceEdit();
    edit.replace(target.uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), written);
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error(vscode.l10n.t('Could not edit {0}.', target.uri.fsPath));
    if (!(await open.save())) throw new Error(vscode.l10n.t('Could not save {0}.', target.uri.fsPath));
  } else {
    // Otherwise the file on disk is: an open but unchanged editor may not have caught up with a change on disk yet
    // (a `git pull`, another tool), and editing its stale text would undo that change or fail to save.
    written = edited((await readText(target.uri)) ?? '');
    await vscode.workspace.fs.writeFile(target.uri, new TextEncoder().encode(written));
  }
  announceConfigWritten(target.uri);
  // The cursor goes to the new entry, placed from the text written (the editor may still be reloading it).
  const position = positionIn(written, entryOffset(written, servers[0].name));
  const document = await vscode.workspace.openTextDocument(target.uri);
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: false });
}

function positionIn(text: string, offset: number): vscode.Position {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length - 1;
  return new vscode.Position(line, before.length - (before.lastIndexOf('\n') + 1));
}

function withInputs(text: string, server: NewServer): string {
  for (const input of server.inputs ?? []) text = addInputToConfig(text, input);
  return text;
}

function entryOffset(text: string, name: string): number {
  const root = parseTree(text);
  if (!root) return 0;
  const node = findNodeAtLocation(root, ['servers', name]) ?? findNodeAtLocation(root, ['mcpServers', name]);
  return node?.parent?.offset ?? node?.offset ?? 0;
}

function userServers(): Record<string, unknown> {
  const value = userServersValue();
  const servers = isObject(value) ? value.servers : undefined;
  return isObject(servers) ? { ...servers } : {};
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}
