import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { findExecutable, type ResolvedServer, type ResolvedWithSecrets } from '../../workbench/node/launch';
import { maskSecrets } from '../../workbench/secrets';
import { escapeForDisplay } from '../../workbench/urlPolicy';
import { describeTarget, type ServerEntry } from '../config/serverEntry';

/** What the first-start confirmation shows; a test hook sees exactly this instead of the modal. */
export interface LaunchConfirmationRequest {
  serverName: string;
  /** The command line (or URL) with cwd and env, hidden characters escaped (`\u202E`), secrets masked. */
  commandLine: string;
  /** The absolute path of the program that will run, or why it was not found (stdio servers only). */
  executable?: string;
  /** The whole text of the dialog's detail. */
  detail: string;
}

/** A test hook standing in for the modal; everything around it (hashing, remembering) stays real. */
export type LaunchConfirmer = (request: LaunchConfirmationRequest) => Promise<boolean>;

const ALLOWED_KEY = 'mcpWorkbench.allowedLaunches';
export const CONFIRM_SETTING = 'confirmWorkspaceServers';

/**
 * Before the first start of a server defined by the workspace, shows what it would run in a modal and remembers a
 * "yes" per definition. It is asked on the preview of the definition (`previewServerDefinition`: no input prompted,
 * no envFile read), so nothing happens on the workspace's behalf before the person agreed. The text shows control and
 * bidirectional characters escaped and the resolved executable's path, so `node\u202E` or a `node` found in an
 * unexpected folder cannot pass for the real thing. The remembered fingerprint is the hash of the masked preview, in
 * workspaceState; a changed definition hashes differently and asks again.
 */
export class LaunchConfirmation {
  /** Test hook (see LaunchConfirmer). */
  confirmer: LaunchConfirmer | undefined;

  constructor(private readonly state: vscode.Memento) {}

  async confirm(entry: ServerEntry, preview: ResolvedWithSecrets): Promise<boolean> {
    if (entry.origin.scope !== 'workspace') return true;
    // Only the user's own settings may turn this off (the setting is application-scoped).
    if (!vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>(CONFIRM_SETTING, true)) return true;
    const shown = maskSecrets(preview.resolved, preview.secrets);
    const fingerprint = `${entry.id}\n${createHash('sha256').update(canonicalJson(shown)).digest('hex')}`;
    const allowed = this.state.get<string[]>(ALLOWED_KEY, []);
    if (allowed.includes(fingerprint)) return true;
    const commandLine = escapeForDisplay(describeLaunch(shown));
    const executable = shown.kind === 'stdio' ? await describeExecutable(shown) : undefined;
    const detail = vscode.l10n.t(
      'It will run:\n\n{0}\n\nDefined in {1}. Start it only if you trust this command.',
      [commandLine, ...(executable ? [vscode.l10n.t('Program: {0}', executable)] : [])].join('\n'),
      escapeForDisplay(entry.origin.label),
    );
    const request: LaunchConfirmationRequest = { serverName: escapeForDisplay(entry.name), commandLine, executable, detail };
    const yes = this.confirmer ? await this.confirmer(request) : await this.askModal(request);
    if (!yes) return false;
    // Older answers for the same server are dropped: only its current definition is allowed. Read again after the
    // answer: servers confirmed at the same time must not overwrite each other's "yes".
    const others = this.state.get<string[]>(ALLOWED_KEY, []).filter((item) => !item.startsWith(`${entry.id}\n`));
    await this.state.update(ALLOWED_KEY, [...others, fingerprint]);
    return true;
  }

  private async askModal(request: LaunchConfirmationRequest): Promise<boolean> {
    const allow = vscode.l10n.t('Allow and Start');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Start MCP server "{0}" defined by this workspace?', request.serverName),
      { modal: true, detail: request.detail },
      allow,
    );
    return choice === allow;
  }
}

async function describeExecutable(server: Extract<ResolvedServer, { kind: 'stdio' }>): Promise<string> {
  const found = await findExecutable(server);
  return escapeForDisplay(found.kind === 'found' ? found.path : vscode.l10n.t('not found ({0})', found.hint));
}

/**
 * The command line with working directory, environment overrides and the envFile to be read, or the URL with its
 * headers. `${input:...}` placeholders appear as written: they are asked for only after the person agreed.
 */
export function describeLaunch(resolved: ResolvedServer): string {
  if (resolved.kind === 'http') {
    const headers = Object.entries(resolved.headers).map(([name, value]) => `${name}: ${value}`);
    return [describeTarget(resolved), ...headers].join('\n');
  }
  const env = Object.entries(resolved.env).map(([name, value]) => `${name}=${value ?? '(unset)'}`);
  return [
    describeTarget(resolved),
    ...(resolved.cwd ? [`cwd: ${resolved.cwd}`] : []),
    ...(env.length ? [`env: ${env.join(' ')}`] : []),
    ...(resolved.envFile ? [`envFile: ${resolved.envFile}`] : []),
  ].join('\n');
}

/** Key order must not change the hash (a reformatted file is the same definition). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}
