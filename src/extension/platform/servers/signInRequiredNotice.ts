import * as vscode from 'vscode';
import type { ServerController } from './serverController';

/** The servers whose notice is on screen, so a second start that meets the same 401 does not stack another. */
const showing = new Set<ServerController>();

/**
 * Tells the person that a server needs signing in, in a notification that closes itself once that is no longer
 * true. A plain toast (showInformationMessage) cannot be closed by the extension and outlived the sign-in,
 * still saying "requires signing in" beside the running server; a progress notification ends with its promise,
 * here when the server's state leaves `signInRequired` (signed in, stopped, removed) or the person dismisses it.
 * The way to sign in is the row's Sign In (and the Sign In to Server command), which the text names.
 */
export function showSignInRequired(controller: ServerController): void {
  if (showing.has(controller) || controller.state.kind !== 'signInRequired') return;
  showing.add(controller);
  void vscode.window
    .withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t(
          'MCP server "{0}" requires signing in: use Sign In on its row in the MCP Servers view, or run "Sign In to Server".',
          controller.name,
        ),
        cancellable: true,
      },
      (_progress, dismissed) =>
        new Promise<void>((resolve) => {
          const subscriptions: vscode.Disposable[] = [];
          const end = () => {
            for (const subscription of subscriptions) subscription.dispose();
            resolve();
          };
          subscriptions.push(
            dismissed.onCancellationRequested(end),
            controller.onDidChangeState((state) => {
              if (state.kind !== 'signInRequired') end();
            }),
          );
        }),
    )
    .then(() => showing.delete(controller));
}
