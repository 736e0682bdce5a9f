import { addServerToConfig } from '../jsoncEdit';
import { addServerAtPath } from '../jsoncEdit';
import { readVscodeFamily } from './jsonFamily';
import type { Dialect } from './types';
import { writeEntry, type WriteCapabilities } from './write';

/**
 * VS Code's own format (`servers`, `inputs`) in the four places VS Code reads it: a folder's `.vscode/mcp.json`, the
 * profile's user `mcp.json`, a `.code-workspace` file's `mcp` section, and a devcontainer's `customizations.vscode.mcp`.
 */

const VSCODE_WRITES: WriteCapabilities = {
  client: 'VS Code',
  localType: 'stdio',
  remoteType: 'http',
  sse: true,
  cwd: true,
  envFile: true,
  oauth: 'oauth',
  variables: 'vscode',
};

export const vscodeWorkspace: Dialect = {
  id: 'vscode-workspace',
  label: '.vscode/mcp.json',
  client: 'VS Code',
  read: (text) => readVscodeFamily(text, [[]]),
  write: (definition) => writeEntry(VSCODE_WRITES, definition),
  add: (text, name, entry) => addServerToConfig(text, name, entry),
};

export const vscodeUser: Dialect = {
  ...vscodeWorkspace,
  id: 'vscode-user',
  label: "VS Code's user mcp.json",
};

/** VS Code reads `mcp` at the top of a `.code-workspace` file; `settings.mcp` is where it lived before 1.102. */
export const codeWorkspace: Dialect = {
  id: 'code-workspace',
  label: '.code-workspace (mcp)',
  client: 'VS Code',
  read: (text) => readVscodeFamily(text, [['mcp'], ['settings', 'mcp']]),
  write: (definition) => writeEntry(VSCODE_WRITES, definition),
  add: (text, name, entry) => addServerAtPath(text, ['mcp', 'servers'], name, entry),
};

export const devcontainer: Dialect = {
  id: 'devcontainer',
  label: 'devcontainer.json (customizations.vscode.mcp)',
  client: 'Dev Containers',
  read: (text) => readVscodeFamily(text, [['customizations', 'vscode', 'mcp']]),
  write: (definition) => writeEntry(VSCODE_WRITES, definition),
  add: (text, name, entry) => addServerAtPath(text, ['customizations', 'vscode', 'mcp', 'servers'], name, entry),
};
