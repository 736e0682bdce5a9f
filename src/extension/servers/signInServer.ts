import * as vscode from 'vscode';
import { asPersonsStart } from './launchConfirmation';
import { errorMessage } from '../../protocol/errors';
import { notify } from '../ui/notifications';
import type { ServerController } from './serverController';
import type { ServerManager } from './serverManager';
import { resolveServer } from './serverPicker';
import { ServerState } from './serverState';
import { SignInCancelledError } from '../auth/signIn';

/** MCP Workbench: Sign In to Server — the tree row's server, or one picked (those asking for sign-in first). */
export async function signInServer(manager: ServerManager, argument: unknown): Promise<ServerController | undefined> {
  // A server name (from a caller such as a test or a keybinding), else the tree row's server or a pick.
  const named = typeof argument === 'string' ? manager.byName(argument)[0] : undefined;
  const controller = named ?? await resolveServer(manager, argument, {
    placeHolder: vscode.l10n.t('Select the MCP server to sign in to'),
    prefer: (server) => server.state.kind === 'signInRequired',
  });
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
    const showLog = vscode.l10n.t('Show Log');
    void notify('error', vscode.l10n.t('Signing in to MCP server "{0}" failed: {1}', controller.name, controller.mask(errorMessage(error))), showLog).then((choice) => {
      if (choice === showLog) controller.log.show(true);
    });
    return false;
  }
  return ServerState.isRunning(controller.state);
}
