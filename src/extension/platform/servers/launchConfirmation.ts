import { AsyncLocalStorage } from 'node:async_hooks';
import * as vscode from 'vscode';
import type { ResolvedServer, ResolvedWithSecrets } from '../../../workbench/node/launch';
import { launchFingerprint } from '../../../workbench/node/launchFingerprint';
import { maskSecrets } from '../../../workbench/secrets';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { describeTarget, quoteIfNeeded, type ServerEntry } from '../config/serverEntry';
import { LaunchDeclinedError } from './serverController';
import { sayStoredError } from '../ui/coreErrors';

/** What the first-start confirmation shows; a test hook sees exactly this instead of the modal. */
export interface LaunchConfirmationRequest {
  serverName: string;
  /** The command line (or URL) with cwd and env, hidden characters escaped (`\u202E`), secrets masked. */
  commandLine: string;
  /** The absolute path of the program that will run, or why it was not found (stdio servers only). */
  executable?: string;
  /** The whole text of the dialog's detail. */
  detail: string;
  /** What the detail lays out, one field a line: program, arguments, working folder, environment (or URL, headers). */
  fields: readonly LaunchField[];
}

/** One line of the consent: a label the person reads and the value, hidden characters escaped, secrets masked. */
interface LaunchField {
  label: string;
  value: string;
}

/** A test hook standing in for the modal; everything around it (hashing, remembering) stays real. */
/** What the first-start consent asks: running a command (stdio) or connecting to a URL (http). */
interface LaunchPrompt {
  message: string;
  detail: string;
  /** The button that allows the start. */
  allow: string;
}

export type LaunchConfirmer = (
  request: LaunchConfirmationRequest & { kind: 'stdio' | 'http'; prompt: LaunchPrompt; trigger: LaunchTrigger },
) => Promise<boolean>;

/**
 * Who asked for the start: the person (a command, a click, Enter on the row) or the workspace (auto-start, a changed
 * mcp.json restarting a running server, a crash restart). Only a person's start may raise the consent: a modal the
 * workspace raised could be answered by a keystroke meant for the terminal (Space or Enter on the focused "Allow").
 */
type LaunchTrigger = 'person' | 'workspace';

const personsStart = new AsyncLocalStorage<{ serverId: string }>();

/** Runs `start` as the person's own start of the server `serverId`: its consent may be asked (see LaunchTrigger). */
export function asPersonsStart<T>(serverId: string, start: () => Promise<T>): Promise<T> {
  return personsStart.run({ serverId }, start);
}

/**
 * A workspace-triggered start that needs consent: nothing is raised, the row says "changed: review to start" and the
 * person starts it (and reviews it) themselves. A LaunchDeclinedError, so every caller treats it as "not started".
 */
class LaunchReviewNeededError extends LaunchDeclinedError {
  readonly note = vscode.l10n.t('changed: review to start');
}

/**
 * What the consent is asked on: the command line as it will run (`resolved`), and, when a part of it changes at every
 * start (dev mode's debugger port), the same with that part as a placeholder (`fingerprinted`), which is what a "yes"
 * is remembered by.
 */
interface ConsentPreview extends ResolvedWithSecrets {
  fingerprinted?: ResolvedServer;
}

const ALLOWED_KEY = 'mcpWorkbench.allowedLaunches';
const CONFIRM_SETTING = 'confirmWorkspaceServers';

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

  /** `asking` is called while the person is asked (the modal or the test hook); what it returns ends that. */
  async confirm(
    entry: ServerEntry,
    preview: ConsentPreview,
    asking: () => () => void = () => () => {},
  ): Promise<boolean> {
    if (entry.origin.scope !== 'workspace') return true;
    // Only the user's own settings may turn this off (the setting is application-scoped).
    if (!vscode.workspace.getConfiguration('mcpWorkbench').get<boolean>(CONFIRM_SETTING, true)) return true;
    const shown = maskSecrets(preview.resolved, preview.secrets);
    const fingerprint = launchFingerprint(entry.id, preview.fingerprinted ?? preview.resolved, preview.secrets);
    const allowed = this.state.get<string[]>(ALLOWED_KEY, []);
    if (allowed.includes(fingerprint)) return true;
    // Each line is escaped on its own: escaping the joined text turned its line breaks into `\u000A`, which read
    // as part of the last argument.
    const commandLine = describeLaunch(shown).split('\n').map(escapeForDisplay).join('\n');
    // launch.ts makes transports too: it loads with the first start, not with the extension (esbuild.js).
    const found =
      shown.kind === 'stdio'
        ? await (await import('../../../workbench/node/launch.js')).findExecutable(shown)
        : undefined;
    // A program that is not there cannot run: asking "Allow and Start" for it would be a question with no answer.
    // The start goes on to fail with the reason (the PATH searched, the fix); nothing is remembered, so a program
    // that appears later is still asked for. Only when the preview is final: an `${input:}` or an envFile (which may
    // set PATH) can still change what is found after consent, and then the person is asked as always.
    if (shown.kind === 'stdio' && found?.kind === 'not-found' && !mayChangeAfterConsent(shown)) return true;
    const executable = found
      ? escapeForDisplay(
          found.kind === 'found'
            ? found.path
            : vscode.l10n.t('not found ({0})', sayStoredError({ message: found.hint, detail: found.detail })),
        )
      : undefined;
    const serverName = escapeForDisplay(entry.name);
    const fields = launchFields(shown, executable);
    const prompt = launchPrompt(
      serverName,
      escapeForDisplay(entry.origin.label),
      shown.kind,
      fields.map((field) => `${field.label}: ${field.value}`).join('\n'),
    );
    const trigger: LaunchTrigger = personsStart.getStore()?.serverId === entry.id ? 'person' : 'workspace';
    const request = {
      serverName,
      commandLine,
      executable,
      detail: prompt.detail,
      fields,
      kind: shown.kind,
      prompt,
      trigger,
    };
    if (!this.confirmer && trigger === 'workspace') {
      throw new LaunchReviewNeededError(
        vscode.l10n.t(
          'MCP server "{0}" was not started: its definition is new or changed. Select it and press Enter (or click ▷) to review what it runs and start it.',
          serverName,
        ),
      );
    }
    const answered = asking();
    try {
      // The test hook stands in for the person in both cases (it sees the trigger).
      const confirmer = this.confirmer;
      if (!(await (confirmer ? confirmer(request) : this.askModal(prompt)))) return false;
    } finally {
      answered();
    }
    // Older answers for the same server are dropped: only its current definition is allowed. Read again after the
    // answer: servers confirmed at the same time must not overwrite each other's "yes".
    const others = this.state.get<string[]>(ALLOWED_KEY, []).filter((item) => !item.startsWith(`${entry.id}\n`));
    await this.state.update(ALLOWED_KEY, [...others, fingerprint]);
    return true;
  }

  private async askModal(prompt: LaunchPrompt): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(
      prompt.message,
      { modal: true, detail: prompt.detail },
      prompt.allow,
    );
    return choice === prompt.allow;
  }
}

/** A stdio server runs a program on this machine; an HTTP server is a URL this window connects to, sending its headers. */
function launchPrompt(serverName: string, origin: string, kind: 'stdio' | 'http', description: string): LaunchPrompt {
  switch (kind) {
    case 'stdio':
      return {
        message: vscode.l10n.t('Start MCP server "{0}" defined by this workspace?', serverName),
        detail: vscode.l10n.t(
          'It will run:\n\n{0}\n\nDefined in {1}. Start it only if you trust this command.',
          description,
          origin,
        ),
        allow: vscode.l10n.t('Allow and Start'),
      };
    case 'http':
      return {
        message: vscode.l10n.t('Connect to MCP server "{0}" defined by this workspace?', serverName),
        detail: vscode.l10n.t(
          'It will connect to:\n\n{0}\n\nDefined in {1}. Connect only if you trust this URL: the server receives the headers shown and may ask this window to sample a model or answer forms.',
          description,
          origin,
        ),
        allow: vscode.l10n.t('Allow and Connect'),
      };
    default: {
      const exhaustive: never = kind;
      throw new Error(`unknown server kind ${String(exhaustive)}`);
    }
  }
}

/** The preview is what will run unless a value asked after consent (an input) or read after it (an envFile) changes it. */
function mayChangeAfterConsent(server: Extract<ResolvedServer, { kind: 'stdio' }>): boolean {
  return server.envFile !== undefined || JSON.stringify(server).includes('${input:');
}

/**
 * The consent as fields, one a line, so nothing reads as part of something else: the program (with the path it
 * resolves to), its arguments, the working folder, the environment the definition sets (names and masked values: a
 * value such as NODE_OPTIONS changes what runs) and the envFile; or the URL and its headers.
 */
function launchFields(resolved: ResolvedServer, executable: string | undefined): LaunchField[] {
  const field = (label: string, value: string): LaunchField => ({ label, value: escapeForDisplay(value) });
  if (resolved.kind === 'http') {
    return [
      field(vscode.l10n.t('URL'), resolved.url),
      ...Object.entries(resolved.headers).map(([name, value]) => field(vscode.l10n.t('Header'), `${name}: ${value}`)),
    ];
  }
  return [
    {
      label: vscode.l10n.t('Program'),
      value: escapeForDisplay(quoteIfNeeded(resolved.command)) + (executable !== undefined ? ` → ${executable}` : ''),
    },
    field(
      vscode.l10n.t('Arguments'),
      resolved.args.length ? resolved.args.map(quoteIfNeeded).join(' ') : vscode.l10n.t('(none)'),
    ),
    ...(resolved.cwd ? [field(vscode.l10n.t('Working folder'), resolved.cwd)] : []),
    ...Object.entries(resolved.env).map(([name, value]) =>
      field(vscode.l10n.t('Environment'), `${name}=${value ?? vscode.l10n.t('(unset)')}`),
    ),
    ...(resolved.envFile ? [field(vscode.l10n.t('Environment file'), resolved.envFile)] : []),
  ];
}

/**
 * The command line with working directory, environment overrides and the envFile to be read, or the URL with its
 * headers. `${input:...}` placeholders appear as written: they are asked for only after the person agreed.
 */
function describeLaunch(resolved: ResolvedServer): string {
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
