import * as os from 'node:os';
import * as vscode from 'vscode';
import { parseMcpConfig, type ConfigProblem } from '../../../workbench/config/mcpConfig';
import { userOwnValue } from './configSources';
import { serverEntryId, type ServerEntry } from './serverEntry';

/** The user-level server list: `mcpWorkbench.servers` in the user settings, in mcp.json's shape. */
export const USER_SERVERS_SECTION = 'mcpWorkbench';
export const USER_SERVERS_KEY = 'servers';
export const USER_SERVERS_SETTING = `${USER_SERVERS_SECTION}.${USER_SERVERS_KEY}`;

/** Stands in for a config file URI: entry ids, stored inputs and problem reports are keyed by it. */
export const USER_SETTINGS_SOURCE_URI = vscode.Uri.from({
  scheme: 'mcp-workbench-settings',
  path: '/mcpWorkbench.servers',
});

interface UserServersRead {
  entries: ServerEntry[];
  problems: ConfigProblem[];
}

export function userServersLabel(): string {
  return vscode.l10n.t('User settings ({0})', USER_SERVERS_SETTING);
}

/**
 * Reads the list from the user (global) settings only: a workspace must not be able to add "user" servers,
 * which would bypass workspace trust and the first-start confirmation.
 */
export function readUserServers(): UserServersRead {
  // What the package.json declares as the setting's default reads as "not set": no servers, no problems.
  const value = userOwnValue(vscode.workspace.getConfiguration(USER_SERVERS_SECTION), USER_SERVERS_KEY, {
    servers: {},
    inputs: [],
  });
  if (value === undefined) return { entries: [], problems: [] };
  const parsed = parseMcpConfig(JSON.stringify(value));
  const folder = userServerFolder();
  const label = userServersLabel();
  const entries = parsed.servers.map((definition) => ({
    id: serverEntryId(USER_SETTINGS_SOURCE_URI, definition.name),
    name: definition.name,
    definition,
    inputs: parsed.inputs,
    origin: { configUri: USER_SETTINGS_SOURCE_URI, folder, scope: 'user' as const, label },
  }));
  return { entries, problems: parsed.problems };
}

/** The current user-level value, or undefined when the user has not set it. */
export function userServersValue(): unknown {
  return vscode.workspace.getConfiguration(USER_SERVERS_SECTION).inspect<unknown>(USER_SERVERS_KEY)?.globalValue;
}

/** User servers run in the first workspace folder; with no folder open, in the home directory. */
function userServerFolder(): vscode.WorkspaceFolder {
  const first = vscode.workspace.workspaceFolders?.[0];
  return first ?? { uri: vscode.Uri.file(os.homedir()), name: '~', index: -1 };
}
