import * as vscode from 'vscode';
import { errorDetail, errorMessage } from '../../../protocol/errors';
import { describeGiveUp, type GiveUp } from '../../../workbench/lifecycle/restartPolicy';
import { describeStartFailure } from '../../../workbench/lifecycle/startFailure';
import { sayStartFailureTo, showError } from '../ui/coreErrors';
import { sayDuration } from '../ui/durations';
import { asPersonsStart } from './launchConfirmation';
import { SignInCancelledError } from '../auth/signIn';
import { CommandNotFoundError } from '../shared/commandCheck';
import { LaunchDeclinedError, WorkspaceNotTrustedError, type ServerController } from './serverController';
import { ServerState } from './serverState';
import { showSignInRequired } from './signInRequiredNotice';

/** Starts a server and tells the user when it cannot start; resolves true when it is running. */
export async function startWithFeedback(controller: ServerController): Promise<boolean> {
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting MCP server {0}', controller.name) },
      // The person's own start: only such a start may raise the first-start consent (launchConfirmation.ts).
      () => asPersonsStart(controller.id, () => controller.start()),
    );
  } catch (error) {
    reportStartFailure(controller, error);
    return false;
  }
  return ServerState.isRunning(controller.state);
}

/** The one place that words start failures, for commands, tree expansion, auto-start and config reloads. */
export function reportStartFailure(controller: ServerController, error: unknown): void {
  if (error instanceof WorkspaceNotTrustedError) {
    // Our own sentence (the controller logged the refusal).
    const manage = vscode.l10n.t('Manage Workspace Trust');
    void showError(error, { server: controller, severity: 'warning', logged: true, actions: [manage] }).then(
      (choice) => {
        if (choice === manage) void vscode.commands.executeCommand('workbench.trust.manage');
      },
    );
    return;
  }
  if (error instanceof LaunchDeclinedError) {
    void showError(error, { server: controller, severity: 'info', logged: true });
    return;
  }
  if (controller.state.kind === 'signInRequired') {
    // Not a failure: the tree row says "Sign in required" and offers Sign In; so does this notice, which closes
    // itself when the server is signed in (signInRequiredNotice.ts).
    if (error instanceof SignInCancelledError) return;
    showSignInRequired(controller);
    return;
  }
  // A missing command's message is the fix (PATH searched, what to change), already in the person's words: show all
  // of it. Otherwise one line with the cause (exit code and last stderr line, or why the URL is unreachable); the log
  // has the rest (the controller logged the failure).
  const state = controller.state;
  const failure =
    state.kind === 'error'
      ? describeStartFailure(state.message, state.detail, state.stderrTail)
      : describeStartFailure(errorMessage(error), errorDetail(error));
  const reason =
    error instanceof CommandNotFoundError
      ? error.message
      : failure.kind === 'line'
        ? withoutServerPrefix(failure.line, controller.name)
        : sayStartFailureTo(failure);
  void showError(error, {
    server: controller,
    reason,
    words: (said) => vscode.l10n.t('MCP server "{0}" failed to start: {1}', controller.name, said),
    logged: true,
    showLog: true,
  });
}

/** Crash restarts gave up: say why, once, with the way to the log (crashRecovery.ts logged it). */
export function reportGaveUp(controller: ServerController, giveUp: GiveUp): void {
  void showError(describeGiveUp(giveUp), {
    server: controller,
    reason: vscode.l10n.t(
      'it crashed {0} times in {1} (limit: {2} within {3}); not restarting automatically. Fix the cause and start it again.',
      giveUp.crashes,
      sayDuration(giveUp.spanMs),
      giveUp.limit,
      sayDuration(giveUp.windowMs),
    ),
    words: (said) => vscode.l10n.t('MCP server "{0}" keeps crashing: {1}', controller.name, said),
    logged: true,
    showLog: true,
  });
}

/** The client prefixes errors with the server's name ("fixture: …"); the notification already names it. */
function withoutServerPrefix(reason: string, serverName: string): string {
  return reason.startsWith(`${serverName}: `) ? reason.slice(serverName.length + 2) : reason;
}
