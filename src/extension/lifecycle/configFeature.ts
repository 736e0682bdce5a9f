import * as vscode from 'vscode';
import { registerAddServer } from '../config/addServer';
import type { CommandContext } from '../commands/commandContext';
import { registerForgetInputs } from '../config/forgetInputs';
import { registerImportServers } from '../config/importServers';
import { registerSetLogLevel } from '../servers/setLogLevel';
import type { ConfigFileProblems } from '../config/configLoader';
import { InputPrompter, type PromptAnswerer } from '../config/inputPrompter';
import type { ServerController } from '../servers/serverController';
import { LaunchConfirmation, type LaunchConfirmer } from '../servers/launchConfirmation';
import { ServersStatusBar } from '../servers/statusBar';

/**
 * Test hooks for configuration and lifecycle. Each replaces only the UI step (the input box, the modal); storage in
 * SecretStorage/workspaceState and the remembered confirmations stay on their real paths.
 */
export interface ConfigTestApi {
  /** Answers `${input:...}` prompts instead of the input box; undefined restores the UI. */
  setPromptAnswerer(answerer: PromptAnswerer | undefined): void;
  /** Answers the first-start confirmation instead of the modal; undefined restores the modal. */
  setLaunchConfirmer(confirmer: LaunchConfirmer | undefined): void;
  /** Reads a stored secret input the way the extension does (context.secrets), for asserting where it went. */
  storedSecret(configUri: string, inputId: string): Thenable<string | undefined>;
  /** The status bar text, e.g. "$(server) 2 $(error) 1". */
  statusBarText(): string;
  /** The status bar tooltip's markdown ("MCP servers: 1 running, 1 failed, 3 configured", one line per server). */
  statusBarTooltip(): string;
  /** The command the status bar item runs when clicked. */
  statusBarCommand(): string | undefined;
  /** Folders where this window writes logs and workspace state, for asserting that no secret reaches a file. */
  storageFolders(): string[];
}

/** The configuration/lifecycle services the manager needs at construction, and what the composition root registers. */
export class ConfigFeature {
  readonly inputs: InputPrompter;
  readonly confirmation: LaunchConfirmation;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.inputs = new InputPrompter(context.secrets, context.workspaceState);
    this.confirmation = new LaunchConfirmation(context.workspaceState);
  }

  /** Commands and the status bar; call once the manager exists. */
  register(commands: CommandContext): { disposable: vscode.Disposable; testApi: ConfigTestApi } {
    const statusBar = new ServersStatusBar(commands.manager);
    const disposable = vscode.Disposable.from(
      statusBar,
      registerAddServer(),
      registerImportServers(),
      registerForgetInputs(this.inputs),
      registerSetLogLevel(commands),
    );
    const testApi: ConfigTestApi = {
      setPromptAnswerer: (answerer) => (this.inputs.answerer = answerer),
      setLaunchConfirmer: (confirmer) => (this.confirmation.confirmer = confirmer),
      storedSecret: (configUri, inputId) => this.context.secrets.get(`mcpWorkbench.input:${configUri}#${inputId}`),
      statusBarText: () => statusBar.text,
      statusBarTooltip: () => statusBar.tooltip,
      statusBarCommand: () => statusBar.command,
      // The output channels' log files live next to the extension's own log folder (…/exthost/).
      storageFolders: () => [vscode.Uri.joinPath(this.context.logUri, '..').fsPath, ...(this.context.storageUri ? [this.context.storageUri.fsPath] : [])],
    };
    return { disposable, testApi };
  }
}

/** Crash restarts gave up: say why, once, with the way to the log. */
export function reportGaveUp(controller: ServerController, reason: string): void {
  const showLog = vscode.l10n.t('Show Log');
  void vscode.window.showErrorMessage(vscode.l10n.t('MCP server "{0}" keeps crashing: {1}', controller.name, reason), showLog).then((choice) => {
    if (choice === showLog) controller.log.show(true);
  });
}

/** A config source has problems: name the file (or the user settings) and each reason, and offer to open it. */
export function reportConfigProblems({ configUri, problems, sourceLabel, scope }: ConfigFileProblems): void {
  const reasons = problems.map((problem) => (problem.server ? `${problem.server}: ${problem.message}` : problem.message)).join('; ');
  const open = vscode.l10n.t('Open File');
  const where = scope === 'user' ? sourceLabel : vscode.workspace.asRelativePath(configUri);
  void vscode.window.showWarningMessage(vscode.l10n.t('MCP configuration {0} has problems: {1}', where, reasons), open).then((choice) => {
    if (choice !== open) return;
    if (scope === 'user') void vscode.commands.executeCommand('workbench.action.openSettingsJson');
    else void vscode.window.showTextDocument(configUri);
  });
}
