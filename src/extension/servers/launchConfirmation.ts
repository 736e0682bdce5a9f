import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { ResolvedServer } from '../../workbench/node/launch';
import { maskSecrets } from '../../workbench/secrets';
import { describeTarget, type ServerEntry } from '../config/serverEntry';

/** A test hook standing in for the modal; everything around it (hashing, remembering) stays real. */
/** What the first-start consent asks: running a command (stdio) or connecting to a URL (http). */
export interface LaunchPrompt {
  message: string;
  detail: string;
  /** The button that allows the start. */
  allow: string;
}

export type LaunchConfirmer = (request: { serverName: string; commandLine: string; kind: 'stdio' | 'http'; prompt: LaunchPrompt }) => Promise<boolean>;

const ALLOWED_KEY = 'mcpWorkbench.allowedLaunches';
export const CONFIRM_SETTING = 'confirmWorkspaceServers';

/**
 * Before the first start of a server defined by the workspace, shows its full command line (or URL) in a modal and
 * remembers a "yes" per definition: the hash of the resolved definition (secrets masked first, so no secret is
 * stored even hashed), kept in workspaceState. A changed definition hashes differently and asks again.
 */
export class LaunchConfirmation {
  /** Test hook (see LaunchConfirmer). */
  confirmer: LaunchConfirmer | undefined;

  constructor(private readonly state: vscode.Memento) {}

  async confirm(entry: ServerEntry, resolved: ResolvedServer, knownSecrets: readonly string[]): Promise<boolean> {
    if (entry.origin.scope !== 'workspace') return true;
    // Only the user's own settings may turn this off (the setting is application-scoped).
    if (!vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>(CONFIRM_SETTING, true)) return true;
    const shown = maskSecrets(resolved, knownSecrets);
    const fingerprint = `${entry.id}\n${createHash('sha256').update(canonicalJson(shown)).digest('hex')}`;
    const allowed = this.state.get<string[]>(ALLOWED_KEY, []);
    if (allowed.includes(fingerprint)) return true;
    const commandLine = describeLaunch(shown);
    const prompt = launchPrompt(entry, shown.kind, commandLine);
    const yes = this.confirmer ? await this.confirmer({ serverName: entry.name, commandLine, kind: shown.kind, prompt }) : await this.askModal(prompt);
    if (!yes) return false;
    // Older answers for the same server are dropped: only its current definition is allowed.
    const others = allowed.filter((item) => !item.startsWith(`${entry.id}\n`));
    await this.state.update(ALLOWED_KEY, [...others, fingerprint]);
    return true;
  }

  private async askModal(prompt: LaunchPrompt): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(prompt.message, { modal: true, detail: prompt.detail }, prompt.allow);
    return choice === prompt.allow;
  }
}

/** A stdio server runs a program on this machine; an HTTP server is a URL this window connects to, sending its headers. */
function launchPrompt(entry: ServerEntry, kind: 'stdio' | 'http', description: string): LaunchPrompt {
  switch (kind) {
    case 'stdio':
      return {
        message: vscode.l10n.t('Start MCP server "{0}" defined by this workspace?', entry.name),
        detail: vscode.l10n.t('It will run:\n\n{0}\n\nDefined in {1}. Start it only if you trust this command.', description, entry.origin.label),
        allow: vscode.l10n.t('Allow and Start'),
      };
    case 'http':
      return {
        message: vscode.l10n.t('Connect to MCP server "{0}" defined by this workspace?', entry.name),
        detail: vscode.l10n.t(
          'It will connect to:\n\n{0}\n\nDefined in {1}. Connect only if you trust this URL: the server receives the headers shown and may ask this window to sample a model or answer forms.',
          description,
          entry.origin.label,
        ),
        allow: vscode.l10n.t('Allow and Connect'),
      };
    default: {
      const exhaustive: never = kind;
      throw new Error(`unknown server kind ${String(exhaustive)}`);
    }
  }
}

/** The command line with working directory and environment overrides, or the URL with header names. */
export function describeLaunch(resolved: ResolvedServer): string {
  if (resolved.kind === 'http') {
    const headers = Object.entries(resolved.headers).map(([name, value]) => `${name}: ${value}`);
    return [describeTarget(resolved), ...headers].join('\n');
  }
  const env = Object.entries(resolved.env).map(([name, value]) => `${name}=${value ?? '(unset)'}`);
  return [describeTarget(resolved), ...(resolved.cwd ? [`cwd: ${resolved.cwd}`] : []), ...(env.length ? [`env: ${env.join(' ')}`] : [])].join('\n');
}

/** Key order must not change the hash (a reformatted file is the same definition). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}
