import * as vscode from 'vscode';
import { asPersonsStart } from './launchConfirmation';
import { errorMessage } from '../../../protocol/errors';
import { notify } from '../ui/notifications';
import type { ServerController } from './serverController';
import type { ServerManager } from './serverManager';
import { resolveServer } from './serverPicker';
import { ServerState } from './serverState';
import { SignInCancelledError } from '../auth/signIn';
import { signInAttempts, type SignInAttempt } from '../auth/signInAttempts';
import { showError } from '../ui/coreErrors';

/** MCP Workbench: Sign In to Server — the tree row's server, or one picked (those asking for sign-in first). */
export async function signInServer(manager: ServerManager, argument: unknown): Promise<ServerController | undefined> {
  // A server name (from a caller such as a test or a keybinding), else the tree row's server or a pick.
  const named = typeof argument === 'string' ? manager.byName(argument)[0] : undefined;
  const controller =
    named ??
    (await resolveServer(manager, argument, {
      placeHolder: vscode.l10n.t('Select the MCP server to sign in to'),
      prefer: (server) => server.state.kind === 'signInRequired',
    }));
  if (!controller) return undefined;
  return (await signInWithFeedback(controller)) ? controller : undefined;
}

/** Signs in and starts; resolves true when the server runs. A declined or cancelled sign-in is not reported as an error. */
export async function signInWithFeedback(controller: ServerController): Promise<boolean> {
  try {
    await asPersonsStart(controller.id, () => controller.signIn());
  } catch (error) {
    if (error instanceof SignInCancelledError || controller.state.kind === 'signInRequired') {
      controller.log.info(`Sign-in not completed: ${controller.mask(errorMessage(error))}`);
      return false;
    }
    const unfinished = signInAttempts.current(controller.name);
    if (unfinished) {
      reportUnfinishedSignIn(controller, unfinished, error);
      return false;
    }
    // The sign-in's start logged the failure.
    void showError(error, {
      server: controller,
      words: (reason) => vscode.l10n.t('Signing in to MCP server "{0}" failed: {1}', controller.name, reason),
      logged: true,
      showLog: true,
    });
    return false;
  }
  return ServerState.isRunning(controller.state);
}

/**
 * The start gave up while the person was still signing in (the request that met the 401 ran out of time): say so in
 * those words rather than as the protocol request that timed out, and when the person finishes in the browser
 * after all, say that too and offer to start the server with the new tokens.
 */
function reportUnfinishedSignIn(controller: ServerController, attempt: SignInAttempt, error: unknown): void {
  const seconds = Math.max(1, Math.round((Date.now() - attempt.startedAt) / 1000));
  controller.log.warn(
    `The start gave up after ${seconds} s while the sign-in was still in progress: ${controller.mask(errorMessage(error))}`,
  );
  const showLog = vscode.l10n.t('Show Log');
  void notify(
    'error',
    vscode.l10n.t(
      'Signing in to MCP server "{0}" failed: the sign-in was not finished within {1} s. If you finish it in the browser, the server can start then.',
      controller.name,
      seconds,
    ),
    showLog,
  ).then((choice) => {
    if (choice === showLog) controller.log.show(true);
  });
  void attempt.outcome.then((outcome) => {
    if (outcome.kind !== 'signed-in' || ServerState.isActive(controller.state)) return;
    const start = vscode.l10n.t('Start');
    void notify(
      'info',
      vscode.l10n.t('Signed in to MCP server "{0}" after its start had given up. Start it now?', controller.name),
      start,
    ).then((choice) => {
      if (choice !== start) return;
      controller.start().catch((startError: unknown) => {
        void showError(startError, {
          server: controller,
          words: (reason) => vscode.l10n.t('MCP server "{0}" failed to start: {1}', controller.name, reason),
          logged: true,
        });
      });
    });
  });
}
