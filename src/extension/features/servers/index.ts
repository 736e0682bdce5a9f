import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { AUTH_PROVIDER_ID, OAuthSessionsProvider } from '../../platform/auth/sessionsProvider';
import { signInServer, signInWithFeedback } from '../../platform/servers/signInServer';
import { BuiltInMcpNotice } from './builtInMcpNotice';
import { restartServer } from './restartServer';
import { setLogLevel } from './setLogLevel';
import { showLog } from './showLog';
import { refreshSignInNow, showSignInSteps, SignInStepsDocuments } from './signInSteps';
import { startServer } from './startServerCommand';
import { ServersStatusBar } from './statusBar';
import { stopServer } from './stopServer';

/** Start, stop, restart and sign in; a server's log; the status bar; the Accounts menu's MCP sign-ins. */
export const serversFeature = defineFeature({
  name: 'servers',
  activate({ platform, own }) {
    const { manager, loader } = platform;
    const statusBar = new ServersStatusBar(manager);
    const builtInMcpNotice = new BuiltInMcpNotice(
      platform.extension.workspaceState,
      platform.chatRoute,
      () => platform.loader.sourceFiles().find((file) => file.id === 'vscodeUser')?.path,
    );
    const sessions = new OAuthSessionsProvider(
      platform.authStore,
      // "Sign in" from the Accounts menu (or another extension's getSession with createIfNone): the one server asking
      // for sign-in, else a pick; the same consent modal and browser flow as Sign In on a row.
      async () => {
        const needing = manager.servers.filter((server) => server.state.kind === 'signInRequired');
        const controller =
          needing.length === 1
            ? (await signInWithFeedback(needing[0]))
              ? needing[0]
              : undefined
            : await signInServer(manager, undefined);
        return controller?.authorizedServerUrl;
      },
      async (serverUrl) => {
        await Promise.all(manager.servers.map((controller) => controller.signedOut(serverUrl)));
      },
    );
    const signInSteps = new SignInStepsDocuments(platform.auth, manager);
    own(
      statusBar,
      sessions,
      signInSteps,
      vscode.authentication.registerAuthenticationProvider(
        AUTH_PROVIDER_ID,
        vscode.l10n.t('MCP Servers (MCP Workbench)'),
        sessions,
        { supportsMultipleAccounts: true },
      ),
      loader.onDidChange((entries) => void builtInMcpNotice.check(entries)),
    );
    return {
      commands: {
        'mcpWorkbench.startServer': (argument) => startServer(manager, argument),
        'mcpWorkbench.stopServer': (argument) => stopServer(manager, argument),
        'mcpWorkbench.restartServer': (argument) => restartServer(manager, argument),
        'mcpWorkbench.signIn': (argument) =>
          signInServer(manager, argument).then((controller) => controller !== undefined),
        'mcpWorkbench.showLog': (argument) => showLog(manager, argument),
        'mcpWorkbench.setLogLevel': (argument, level) => setLogLevel(manager, argument, level),
        'mcpWorkbench.showSignInSteps': (argument) => showSignInSteps(manager, signInSteps, argument),
        'mcpWorkbench.refreshSignInNow': (argument) => refreshSignInNow(manager, platform.auth, argument),
      },
      exports: { statusBar, builtInMcpNotice, sessions },
    };
  },
});
