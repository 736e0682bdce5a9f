import * as path from 'node:path';
import type { DialectId } from '../config/dialects/types';
import { userConfigRoot } from './importSources';

/**
 * Where each client keeps its servers: the live sources of the extension (one setting each,
 * `mcpWorkbench.sources.<id>`) and the files `--from-client` reads. Only paths: the host reads them (configFile.ts).
 */

export type ConfigSourceId =
  | 'vscodeWorkspace'
  | 'dotMcp'
  | 'github'
  | 'cursorProject'
  | 'devcontainer'
  | 'codeWorkspace'
  | 'vscodeUser'
  | 'copilot'
  | 'cursor'
  | 'claudeCode'
  | 'claudeDesktop'
  | 'codex';

export type FromClient = 'claude' | 'cursor' | 'copilot' | 'vscode' | 'codex' | 'claude-desktop';
export const FROM_CLIENTS: readonly FromClient[] = ['claude', 'cursor', 'copilot', 'vscode', 'codex', 'claude-desktop'];

export interface ConfigSourceFile {
  id: ConfigSourceId;
  dialect: DialectId;
  path: string;
  /**
   * 'workspace': inside a folder the person opened (anyone who commits to it decides what it runs: workspace trust
   * and the first-start consent apply); 'user': the person's own files in the home folder.
   */
  scope: 'workspace' | 'user';
  /** The workspace folder the file belongs to, or (for a user file) the folder its servers run in. */
  workspaceFolder?: string;
  /** Short, for a row's description: ".mcp.json", "~/.claude.json". */
  label: string;
  clients: readonly FromClient[];
}

/** The sources on when the person has not said: the workspace's files and VS Code's own. Other clients' user files are off. */
export const SOURCE_DEFAULTS: Readonly<Record<ConfigSourceId, boolean>> = {
  vscodeWorkspace: true,
  dotMcp: true,
  github: true,
  cursorProject: true,
  devcontainer: true,
  codeWorkspace: true,
  vscodeUser: true,
  copilot: false,
  cursor: false,
  claudeCode: false,
  claudeDesktop: false,
  codex: false,
};

export interface SourceContext {
  platform: NodeJS.Platform;
  /** The home folder: injectable, so tests never read the person's real files. */
  home: string;
  folders: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** The open `.code-workspace` file, if any. */
  workspaceFile?: string;
  /** VS Code's user `mcp.json` of the active profile, when the host knows it (else the default profile's). */
  vscodeUserFile?: string;
}

export function configSourceFiles(context: SourceContext): ConfigSourceFile[] {
  const { platform, home, folders } = context;
  const env = context.env ?? {};
  const p = platform === 'win32' ? path.win32 : path.posix;
  const tilde = (file: string) => (file.startsWith(home + p.sep) ? `~${p.sep}${p.relative(home, file)}` : file);
  const multi = folders.length > 1;
  const files: ConfigSourceFile[] = [];
  for (const folder of folders) {
    const inFolder = (id: ConfigSourceId, dialect: DialectId, relative: string, clients: FromClient[]) =>
      files.push({
        id,
        dialect,
        path: p.join(folder, relative),
        scope: 'workspace',
        workspaceFolder: folder,
        label: multi ? `${relative.replace(/\\/g, '/')} (${p.basename(folder)})` : relative.replace(/\\/g, '/'),
        clients,
      });
    inFolder('vscodeWorkspace', 'vscode-workspace', p.join('.vscode', 'mcp.json'), ['vscode']);
    inFolder('dotMcp', 'dot-mcp', '.mcp.json', ['vscode', 'claude', 'copilot']);
    inFolder('github', 'github', p.join('.github', 'mcp.json'), ['copilot']);
    inFolder('cursorProject', 'cursor', p.join('.cursor', 'mcp.json'), ['cursor']);
    inFolder('devcontainer', 'devcontainer', p.join('.devcontainer', 'devcontainer.json'), ['vscode']);
    inFolder('devcontainer', 'devcontainer', '.devcontainer.json', ['vscode']);
  }
  const first = folders[0];
  const user = (id: ConfigSourceId, dialect: DialectId, file: string, clients: FromClient[]) =>
    files.push({ id, dialect, path: file, scope: 'user', workspaceFolder: first, label: tilde(file), clients });
  if (context.workspaceFile)
    files.push({
      id: 'codeWorkspace',
      dialect: 'code-workspace',
      path: context.workspaceFile,
      scope: 'workspace',
      workspaceFolder: first,
      label: p.basename(context.workspaceFile),
      clients: ['vscode'],
    });
  const appData = userConfigRoot(platform, home, env);
  user('vscodeUser', 'vscode-user', context.vscodeUserFile ?? p.join(appData, 'Code', 'User', 'mcp.json'), ['vscode']);
  user(
    'copilot',
    'copilot',
    env.COPILOT_HOME ? p.join(env.COPILOT_HOME, 'mcp-config.json') : p.join(home, '.copilot', 'mcp-config.json'),
    ['copilot'],
  );
  user('cursor', 'cursor', p.join(home, '.cursor', 'mcp.json'), ['cursor']);
  user('claudeCode', 'claude-code', p.join(home, '.claude.json'), ['claude']);
  user('claudeDesktop', 'claude-desktop', p.join(appData, 'Claude', 'claude_desktop_config.json'), ['claude-desktop']);
  user('codex', 'codex', p.join(env.CODEX_HOME ? env.CODEX_HOME : p.join(home, '.codex'), 'config.toml'), ['codex']);
  return files;
}
