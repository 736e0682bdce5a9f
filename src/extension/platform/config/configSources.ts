import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { dedupeServers } from '../../../workbench/config/dialects';
import { SOURCE_DEFAULTS, type ConfigSourceFile, type ConfigSourceId } from '../../../workbench/node/configSources';
import type { ServerEntry } from './serverEntry';

// What the config loader reads, and how: which sources are on, where the home folder is, a file's text, and one row for
// the same server in two files of one scope.

/**
 * The text of a folder's mcp.json, or undefined when it has none. A local folder's file is read with node:fs: at
 * start-up the extension host's workspace.fs waits for the window (28–35 ms of a 40 ms activation, measured in
 * code-server), node:fs takes well under a millisecond. Other schemes go through workspace.fs. Both decode the same
 * way (TextDecoder drops a byte order mark, which the JSONC parser would reject).
 */
export async function readConfigText(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme === 'file') {
    try {
      return new TextDecoder('utf-8').decode(await fs.promises.readFile(uri.fsPath));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw error;
    }
  }
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
    throw error;
  }
}

/** `mcpWorkbench.sources.<id>`: which files are read (configSources.ts); `homeFolder` moves the home folder. */
export const SOURCES_SECTION = 'mcpWorkbench.sources';

/**
 * The user's own (global) value of a setting that only the user may decide (another client's files, the home folder,
 * the user server list: a workspace must not bring the person's servers into its window, or name "their own" ones),
 * or undefined when the user has not set one that wins.
 *
 * Read cheaply: VS Code's `inspect` works out every language override of every setting on each call, whatever the key
 * (1–9 ms each in VS Code 1.100's extension host; six of them were 13 ms of a window's 22 ms activate(), profiled). The
 * effective value (`get`, a lookup) says whether anything is set over the default; only then is the setting inspected.
 * These settings are application-scoped, so VS Code ignores a workspace's value and the effective value is the user's;
 * were one read anyway, it could only hide the user's value (read as "not set"), never stand in for it.
 */
export function userOwnValue<T>(settings: vscode.WorkspaceConfiguration, key: string, unset: T): T | undefined {
  const effective = settings.get<T>(key);
  // Compared as JSON: an object value comes back as a proxy; a mismatch only costs the inspect.
  if (effective === undefined || JSON.stringify(effective) === JSON.stringify(unset)) return undefined;
  return settings.inspect<T>(key)?.globalValue;
}

/**
 * Whether a source is read: the person's setting, else its default (the workspace's files and VS Code's own). Another
 * client's file in the home folder (off by default) is turned on only by the user's own (global) setting, as the home
 * folder is moved only by it: a workspace's settings must not bring the person's other servers into its window (their
 * settings are application-scoped in package.json too; this holds whatever the scope).
 *
 * Read for many files at once: the settings once, each source's value once.
 */
export function enabledSources(): (id: ConfigSourceId) => boolean {
  const settings = vscode.workspace.getConfiguration(SOURCES_SECTION);
  const known = new Map<ConfigSourceId, boolean>();
  return (id) => {
    let enabled = known.get(id);
    if (enabled === undefined) {
      enabled = SOURCE_DEFAULTS[id]
        ? settings.get<boolean>(id, true)
        : userOwnValue<boolean>(settings, id, false) === true;
      known.set(id, enabled);
    }
    return enabled;
  };
}

/**
 * The home folder other clients' files are read from. Only the user's own (global) setting can move it: a workspace
 * that pointed it at a folder it ships would make its files "the person's own" servers, with no trust or consent.
 */
export function sourcesHomeFolder(): string {
  const value = userOwnValue(vscode.workspace.getConfiguration(SOURCES_SECTION), 'homeFolder', '');
  return typeof value === 'string' && value.trim() !== '' ? value : os.homedir();
}

/** The folder a source's servers run in: the workspace folder of the file, else the first one (else the home folder). */
export function workspaceFolderOf(file: ConfigSourceFile): vscode.WorkspaceFolder {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return (
    folders.find((folder) => folder.uri.fsPath === file.workspaceFolder) ??
    folders[0] ?? { uri: vscode.Uri.file(sourcesHomeFolder()), name: '~', index: -1 }
  );
}

/**
 * The same server (same command line and environment, or URL and headers) in two files is one row naming both.
 * Only files of the same scope share a row: a workspace's copy of a server never runs as the person's own.
 */
export function mergeSameServers(entries: readonly ServerEntry[]): ServerEntry[] {
  return dedupeServers(
    entries.map((entry) => ({ definition: entry.definition, source: entry })),
    // Two entries of one file are two servers the person named apart, even when they launch the same way.
    // Nor do two copies with different tool allow-lists (one row would offer the tools of one file for both).
    (first, other) =>
      first.origin.scope === other.origin.scope &&
      first.origin.configUri.toString() !== other.origin.configUri.toString() &&
      JSON.stringify(first.allowedTools) === JSON.stringify(other.allowedTools),
  ).map(({ sources: [first, ...others] }) =>
    others.length === 0
      ? first
      : {
          ...first,
          origin: {
            ...first.origin,
            alsoIn: others.map((other) => ({
              label: other.origin.label,
              configUri: other.origin.configUri,
              ...(other.origin.at ? { at: other.origin.at } : {}),
            })),
          },
        },
  );
}
