import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { SOURCE_DEFAULTS } from '../../../workbench/node/configSources';
import type { ConfigLoader } from '../../platform/config/configLoader';
import { SOURCES_SECTION } from '../../platform/config/configSources';
import type { ServerManager } from '../../platform/servers/serverManager';
import { resolveServer } from '../../platform/servers/serverPicker';
import { notify } from '../../platform/ui/notifications';
import { MAX_CONFIG_BYTES } from '../../../workbench/config/dialects/types';
import { storageJsonOf, vscodeUserMcpFile } from './vscodeProfile';

/**
 * The live sources beyond `.vscode/mcp.json`: VS Code's user mcp.json of this profile, the one-time offer to read
 * another client's user file the person has, and Open Source File on a server's row.
 */

/**
 * VS Code's user mcp.json of this window's profile (vscodeProfile.ts: the extension's global storage is the default
 * profile's in every profile, so the profile comes from VS Code's own record of which workspace opens in which).
 */
export function vscodeUserFileOf(context: vscode.ExtensionContext): string | undefined {
  const storage = context.globalStorageUri;
  if (storage.scheme !== 'file') return undefined;
  const workspaceFile = vscode.workspace.workspaceFile;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const workspace = workspaceFile
    ? workspaceFile.toString()
    : folders.length === 1
      ? folders[0].uri.toString()
      : undefined;
  const storageJson = readSmallFile(storageJsonOf(storage.fsPath));
  return vscodeUserMcpFile({
    globalStorage: storage.fsPath,
    ...(storageJson !== undefined ? { storageJson } : {}),
    ...(workspace !== undefined ? { workspace } : {}),
  }).file;
}

/**
 * VS Code's own state file, read at activation before the first configuration read (so the first rows are the
 * profile's): small, and read synchronously; one over the cap or unreadable leaves the default profile's file.
 */
function readSmallFile(file: string): string | undefined {
  try {
    if (fs.statSync(file).size > MAX_CONFIG_BYTES) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const OFFERED_KEY = 'mcpWorkbench.sources.offered';

/**
 * The files offered in this window, beside the stored list: the check runs after every reload, and a reload while an
 * offer is still up must not offer the same file again.
 */
const offeredNow = new Set<string>();

/**
 * Another client's user file (off by default: the person's servers there are for that client) exists and was never
 * offered: one message, once per file, with a button that turns its source on in the user settings. Checked after
 * every reload, so a file that appears while the window is open (another client installed, the home folder moved)
 * is offered then, not at the next window.
 */
export async function offerFoundSources(loader: ConfigLoader, state: vscode.Memento): Promise<void> {
  const settings = vscode.workspace.getConfiguration(SOURCES_SECTION);
  const candidates = loader
    .sourceFiles()
    .filter((file) => file.scope === 'user' && !SOURCE_DEFAULTS[file.id])
    .filter((file) => !offeredNow.has(file.path) && !state.get<string[]>(OFFERED_KEY, []).includes(file.path));
  const found = (await Promise.all(candidates.map(async (file) => ((await isFile(file.path)) ? [file] : []))))
    .flat()
    // The person already said (on or off): nothing to offer. Asked last, of a file that is there: an inspect is slow.
    .filter((file) => settings.inspect(file.id)?.globalValue === undefined);
  for (const file of found) {
    if (offeredNow.has(file.path)) continue;
    offeredNow.add(file.path);
    await state.update(OFFERED_KEY, [...state.get<string[]>(OFFERED_KEY, []), file.path]);
    const show = vscode.l10n.t('Show Them');
    const answer = await notify(
      'info',
      vscode.l10n.t(
        'MCP servers found in {0}. Show them in MCP Workbench too? They stay in that file; you can turn this off in the setting {1}.',
        file.label,
        `${SOURCES_SECTION}.${file.id}`,
      ),
      show,
    );
    if (answer === show)
      await vscode.workspace.getConfiguration(SOURCES_SECTION).update(file.id, true, vscode.ConfigurationTarget.Global);
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Opens the file a server comes from at its entry (the settings JSON for the user list). */
export async function openServerSource(manager: ServerManager, argument: unknown): Promise<void> {
  const controller = await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server whose source file to open'),
  });
  if (!controller) return;
  const { configUri, at } = controller.entry.origin;
  if (configUri.scheme !== 'file' && controller.entry.origin.scope === 'user') {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    return;
  }
  const start = at ? new vscode.Position(at.line - 1, at.column - 1) : undefined;
  await vscode.window.showTextDocument(configUri, {
    preview: false,
    ...(start && at ? { selection: new vscode.Range(start, start.translate(0, at.length)) } : {}),
  });
}
