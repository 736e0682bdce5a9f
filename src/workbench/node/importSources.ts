import * as path from 'node:path';

/**
 * Where other MCP clients keep their server lists, per OS (see docs of each client and VS Code's own discovery
 * adapters). Only candidate paths: the host checks which exist, because this module must stay pure.
 */

export type ImportSourceKind =
  'claude-desktop' | 'cursor' | 'windsurf' | 'cline' | 'workspace-mcp-json' | 'copilot-cli';

interface ImportSource {
  kind: ImportSourceKind;
  /** Human-readable origin, e.g. "Cursor (global)". */
  label: string;
  scope: 'user' | 'workspace';
  path: string;
  /** The workspace folder a workspace-scoped file belongs to. */
  workspaceFolder?: string;
}

export const IMPORT_SOURCE_LABELS: Record<ImportSourceKind, string> = {
  'claude-desktop': 'Claude Desktop',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  cline: 'Cline',
  'workspace-mcp-json': 'Workspace .mcp.json (Claude Code)',
  'copilot-cli': 'GitHub Copilot CLI',
};

/** VS Code forks whose globalStorage can hold Cline's settings. */
const EDITOR_APP_FOLDERS = ['Code', 'Code - Insiders', 'Cursor', 'Windsurf', 'VSCodium'];
const CLINE_EXTENSION_ID = 'saoudrizwan.claude-dev';
const CLINE_SETTINGS_FILE = 'cline_mcp_settings.json';

export function knownImportSources(
  platform: NodeJS.Platform,
  homedir: string,
  workspaceFolders: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ImportSource[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const appData = userConfigRoot(platform, homedir, env);
  const user = (kind: ImportSourceKind, file: string, detail?: string): ImportSource => ({
    kind,
    label: detail ? `${IMPORT_SOURCE_LABELS[kind]} (${detail})` : IMPORT_SOURCE_LABELS[kind],
    scope: 'user',
    path: file,
  });
  const sources: ImportSource[] = [];

  // Claude Desktop: macOS and Windows are official; Linux is the unofficial build that VS Code also discovers.
  sources.push(user('claude-desktop', p.join(appData, 'Claude', 'claude_desktop_config.json')));

  for (const folder of workspaceFolders) {
    sources.push({
      kind: 'cursor',
      label: `Cursor (${p.basename(folder)})`,
      scope: 'workspace',
      path: p.join(folder, '.cursor', 'mcp.json'),
      workspaceFolder: folder,
    });
  }
  sources.push(user('cursor', p.join(homedir, '.cursor', 'mcp.json'), 'global'));
  sources.push(user('windsurf', p.join(homedir, '.codeium', 'windsurf', 'mcp_config.json')));

  // Cline: an explicit override wins; then the 2026 shared data dir; then the classic globalStorage locations.
  if (env.CLINE_MCP_SETTINGS_PATH) sources.push(user('cline', env.CLINE_MCP_SETTINGS_PATH, 'CLINE_MCP_SETTINGS_PATH'));
  const clineData =
    env.CLINE_DATA_DIR ?? (env.CLINE_DIR ? p.join(env.CLINE_DIR, 'data') : p.join(homedir, '.cline', 'data'));
  sources.push(user('cline', p.join(clineData, 'settings', CLINE_SETTINGS_FILE), 'CLI / 2026 builds'));
  for (const app of EDITOR_APP_FOLDERS) {
    sources.push(
      user(
        'cline',
        p.join(appData, app, 'User', 'globalStorage', CLINE_EXTENSION_ID, 'settings', CLINE_SETTINGS_FILE),
        app,
      ),
    );
  }
  sources.push(user('cline', p.join(homedir, 'Documents', 'Cline', 'MCP', CLINE_SETTINGS_FILE), 'Documents'));

  for (const folder of workspaceFolders) {
    sources.push({
      kind: 'workspace-mcp-json',
      label: `${IMPORT_SOURCE_LABELS['workspace-mcp-json']} (${p.basename(folder)})`,
      scope: 'workspace',
      path: p.join(folder, '.mcp.json'),
      workspaceFolder: folder,
    });
  }
  sources.push(user('copilot-cli', p.join(homedir, '.copilot', 'mcp-config.json')));
  return sources;
}

/** `~/Library/Application Support` on macOS, `%APPDATA%` on Windows, `$XDG_CONFIG_HOME` or `~/.config` elsewhere. */
export function userConfigRoot(
  platform: NodeJS.Platform,
  homedir: string,
  env: Readonly<Record<string, string | undefined>> = {},
): string {
  if (platform === 'darwin') return path.posix.join(homedir, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA ?? path.win32.join(homedir, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME || path.posix.join(homedir, '.config');
}

/**
 * Which client's dialect a file a person picked is in, from its name and folder (the known locations above). Anything
 * else is read as the common `mcpServers` format, which is Claude Desktop's.
 */
export function importKindForFile(filePath: string): ImportSourceKind {
  const normalized = filePath.replace(/\\/g, '/').toLowerCase();
  const name = normalized.slice(normalized.lastIndexOf('/') + 1);
  if (name === CLINE_SETTINGS_FILE.toLowerCase()) return 'cline';
  if (name === 'mcp_config.json' && normalized.includes('/windsurf/')) return 'windsurf';
  if (name === 'mcp.json' && normalized.endsWith('/.cursor/mcp.json')) return 'cursor';
  if (name === '.mcp.json') return 'workspace-mcp-json';
  if (name === 'mcp-config.json' && normalized.includes('/.copilot/')) return 'copilot-cli';
  return 'claude-desktop';
}
