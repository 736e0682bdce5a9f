/**
 * Signing in to an OAuth-protected MCP server from the extension (issue 8) inside the real extension host: the
 * oidc-provider fixture (test/fixtures/oauth/servers.mjs: an authorization server in front of an MCP server that
 * validates audience-bound JWTs) is added to mcp.json; a start shows "Sign in required"; Sign In asks in a modal
 * naming the server and the issuer, and only then "opens" the authorization URL, which the fixture browser
 * (test/fixtures/oauth/browser.mjs, a real HTTP client through the login and consent pages) follows to the loopback
 * redirect; the tools show; Sign Out through the authentication provider forgets the tokens and it asks again;
 * "Sign in" asked of the provider by another extension (getSession with createIfNone) runs the same flow; a sign-in
 * cancelled from its progress closes the loopback listener and stores nothing; an expired access token is refreshed
 * without a browser.
 *
 * The fixture advertises its authorization endpoint at a percent-encoded path (%2F, %20, non-ASCII) that it serves
 * only when those bytes arrive unchanged, so every sign-in here also proves the URL is opened byte for byte.
 *
 * Replaced UI steps only (test hooks): the modal's answer, vscode.env.openExternal and the progress's Cancel button;
 * VS Code's own "wants to sign in" dialog is clicked in Chromium by integration.test.ts. Everything else,
 * SecretStorage included, runs on the real path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { SignInModal } from '../../../src/extension/platform/auth/signIn';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServersTreeNode } from '../../../src/extension/features/serversView/serversTreeProvider';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { leaveCleanState, startFromCleanState, workbenchAccess, writeWorkspaceFile } from './workbench';

const SERVER = 'oauth-protected';
/** A second protected server whose fixture issues access tokens that expire within seconds. */
const SHORT_LIVED = 'oauth-short-lived';
const SHORT_TOKEN_TTL_SECONDS = 4;
const PROVIDER_ID = 'mcp-workbench-oauth';
/** The authorization endpoint's raw path: an encoded slash, an encoded space and a non-ASCII character. */
const AUTHORIZATION_PATH = '/tenant%2Fa%20b%C3%A9/auth';

interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  statsUrl: string;
}

interface FixtureStats {
  grants: string[];
  authorizationRequests: string[];
}

export function oauthSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('oauth');
  let api: McpWorkbenchApi | undefined;
  let originalConfig: string | undefined;
  const fixtureProcesses: ChildProcess[] = [];
  let fixture: OAuthFixture | undefined;
  let shortLived: OAuthFixture | undefined;
  const modals: SignInModal[] = [];
  const opened: string[] = [];
  const { configFile, requireApi, controllerOf } = workbenchAccess(vscode, () => api);
  const repoRoot = process.env.MCP_INTEGRATION_REPO_ROOT ?? '';
  const fixtureFile = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'oauth', name);
  const requireFixture = (): OAuthFixture => {
    assert(fixture, 'the OAuth fixture is not running');
    return fixture;
  };
  const requireShortLived = (): OAuthFixture => {
    assert(shortLived, 'the short-lived OAuth fixture is not running');
    return shortLived;
  };
  // Electron (the test-electron route) runs scripts as Node only when asked; code-server's Node ignores the variable.
  const nodeEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };

  /** Answers the consent modal with its one button (Sign In), or as VS Code's own Cancel / Escape do (undefined). */
  const answerModal = (accept: boolean) =>
    requireApi().auth.answerSignInModal((modal) => {
      modals.push(modal);
      return accept ? modal.buttons[0] : undefined;
    });

  /** The fixture browser in place of the external one: a real process following the URL through login and consent. */
  const fixtureBrowser = (url: string): Thenable<boolean> => {
    opened.push(url);
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [fixtureFile('browser.mjs'), url], { env: nodeEnv, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => resolve(true));
    });
  };

  const stats = async (of: OAuthFixture): Promise<FixtureStats> =>
    (await (await fetch(of.statsUrl)).json()) as FixtureStats;

  const startFixture = async (args: string[]): Promise<OAuthFixture> => {
    const child = spawn(process.execPath, [fixtureFile('servers.mjs'), ...args], {
      env: nodeEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: repoRoot,
    });
    fixtureProcesses.push(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<OAuthFixture>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]) as OAuthFixture);
      });
      child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}: ${stderr}`)));
    });
  };

  const serverRow = async (): Promise<vscodeTypes.TreeItem> => {
    const tree = requireApi().tree;
    const queue: (ServersTreeNode | undefined)[] = [undefined];
    for (let depth = 0; depth < 3 && queue.length > 0; depth++) {
      const level = queue.splice(0);
      for (const parent of level) {
        for (const node of (await tree.getChildren(parent)) ?? []) {
          if (node.kind === 'server' && node.controller === controllerOf(SERVER)) return tree.getTreeItem(node);
          if (node.kind !== 'server') queue.push(node);
        }
      }
    }
    throw new Error(`no tree row for ${SERVER}`);
  };

  suite.before(async () => {
    assert(
      repoRoot && fs.existsSync(fixtureFile('servers.mjs')),
      `the OAuth fixture is not found under ${repoRoot || '(MCP_INTEGRATION_REPO_ROOT unset)'}`,
    );
    api = await startFromCleanState(vscode);
    [fixture, shortLived] = await Promise.all([
      startFixture(['--authorization-path', AUTHORIZATION_PATH]),
      startFixture(['--access-token-ttl', String(SHORT_TOKEN_TTL_SECONDS)]),
    ]);
    originalConfig = fs.readFileSync(configFile(), 'utf8');
    const original = JSON.parse(originalConfig) as { servers: Record<string, object> };
    const servers = {
      ...original.servers,
      [SERVER]: { type: 'http', url: fixture.mcpUrl },
      [SHORT_LIVED]: { type: 'http', url: shortLived.mcpUrl },
    };
    await writeWorkspaceFile(vscode, configFile(), `${JSON.stringify({ servers }, null, 2)}\n`);
    await requireApi().reload();
    controllerOf(SERVER);
    requireApi().auth.setOpenExternal(fixtureBrowser);
  });

  suite.after(async () => {
    const hooks = api?.auth;
    hooks?.answerSignInModal(undefined);
    hooks?.setOpenExternal(undefined);
    for (const signedIn of [fixture, shortLived])
      if (signedIn && hooks) await hooks.sessions.removeSession(signedIn.mcpUrl).catch(() => undefined);
    if (originalConfig !== undefined) {
      await writeWorkspaceFile(vscode, configFile(), originalConfig);
      await api?.reload();
    }
    await leaveCleanState(vscode, api);
    for (const child of fixtureProcesses) child.kill();
  });

  suite.test(
    'a server that needs sign-in shows "Sign in required" with Sign In on its row, not a failure',
    async () => {
      const controller = controllerOf(SERVER);
      await controller.start().then(
        () => assert(false, 'the start succeeded without a token'),
        () => undefined,
      );
      assertEqual(controller.state.kind, 'signInRequired', `state of ${SERVER}`);
      const row = await serverRow();
      assertEqual(
        row.contextValue,
        'server.signInRequired',
        'context value of the row (it carries the Sign In action)',
      );
      assertEqual(opened.length, 0, 'URLs opened by a start that is not a sign-in');
      assertEqual(modals.length, 0, 'consent modals shown by a start that is not a sign-in');
    },
  );

  suite.test('declining the consent modal opens nothing; the modal names the server and the issuer', async () => {
    answerModal(false);
    const signedIn = await vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SERVER);
    assertEqual(signedIn, false, 'result of a declined sign-in');
    assertEqual(modals.length, 1, 'consent modals shown');
    const [modal] = modals;
    assertEqual(modal.buttons.length, 1, "buttons of the modal besides VS Code's own Cancel");
    assert(modal.message.includes(SERVER), `the modal does not name the server: ${modal.message}`);
    assertEqual(modal.issuer, requireFixture().issuer, 'issuer named by the modal');
    assert(
      modal.detail.includes(requireFixture().issuer),
      `the modal's text does not name the issuer: ${modal.detail}`,
    );
    assertEqual(opened.length, 0, 'URLs opened after declining');
    assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', 'state after declining');
  });

  suite.test(
    'cancelling the progress while the browser is out closes the loopback listener and stores nothing',
    async () => {
      answerModal(true);
      const abandoned: string[] = [];
      // A browser that never comes back: the person closes it, then presses Cancel on the progress.
      requireApi().auth.setOpenExternal(async (url) => {
        abandoned.push(url);
        return true;
      });
      try {
        const signingIn = vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SERVER);
        const cancelled = await waitUntil(
          'the sign-in to wait for its redirect',
          () => (requireApi().auth.cancelSignInProgress() > 0 ? true : undefined),
          60_000,
        );
        assert(cancelled, 'nothing was cancelled');
        assertEqual(await signingIn, false, 'result of a cancelled sign-in');
        assertEqual(abandoned.length, 1, 'URLs opened');
        const announced = new URL(new URL(abandoned[0]).searchParams.get('redirect_uri') ?? '');
        assertEqual(announced.hostname, '127.0.0.1', 'host of the redirect URI');
        // In code-server the redirect goes through its port proxy (/proxy/<port>/callback): the listener is that port.
        const proxied = /^\/proxy\/(\d+)(\/.*)$/.exec(announced.pathname);
        const redirectUri = proxied ? new URL(`http://127.0.0.1:${proxied[1]}${proxied[2]}`) : announced;
        const refused = await waitUntil(`the loopback listener on port ${redirectUri.port} to be closed`, async () => {
          try {
            await fetch(`${redirectUri.href}?code=late&state=late`);
            return undefined;
          } catch (error) {
            const code = (error as { cause?: { code?: string } }).cause?.code;
            return code === 'ECONNREFUSED' ? code : undefined;
          }
        });
        assertEqual(refused, 'ECONNREFUSED', 'a redirect after the cancel');
        assertEqual(
          await requireApi().auth.hasStoredTokens(requireFixture().mcpUrl),
          false,
          'tokens stored after the cancel',
        );
        assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', 'state after the cancel');
        assertEqual((await serverRow()).contextValue, 'server.signInRequired', 'the row still offers Sign In');
        assertEqual(requireApi().auth.cancelSignInProgress(), 0, 'sign-ins still waiting after the cancel');
      } finally {
        requireApi().auth.setOpenExternal(fixtureBrowser);
      }
    },
  );

  suite.test(
    'signing in opens the authorization URL after consent, stores the tokens in SecretStorage, and the tools show',
    async () => {
      answerModal(true);
      const signedIn = await vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SERVER);
      assertEqual(signedIn, true, 'result of the sign-in');
      assertEqual(opened.length, 1, 'URLs opened');
      // Byte for byte: the URL the consent was given for is the one opened, and the one the authorization server got.
      const consentedUrl = modals[modals.length - 1].url;
      assertEqual(opened[0], consentedUrl, 'the URL opened');
      const prefix = `${requireFixture().issuer}${AUTHORIZATION_PATH}?`;
      assert(consentedUrl.startsWith(prefix), `the URL is not at the advertised endpoint ${prefix}: ${consentedUrl}`);
      assert(
        /scope=[^&]*\+/.test(consentedUrl) && /redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A/.test(consentedUrl),
        `the query is not form-encoded (+, %2F, %3A): ${consentedUrl}`,
      );
      assertEqual(
        (await stats(requireFixture())).authorizationRequests.at(-1),
        consentedUrl.slice(requireFixture().issuer.length),
        'the request target the authorization server received',
      );
      const authorizationUrl = new URL(consentedUrl);
      assertEqual(
        authorizationUrl.searchParams.get('resource'),
        requireFixture().mcpUrl,
        'resource indicator (RFC 8707)',
      );
      const controller = controllerOf(SERVER);
      const state = controller.state;
      assert(state.kind === 'running' && state.tools.length > 0, `${SERVER} is not running with tools: ${state.kind}`);
      assertEqual((await serverRow()).contextValue, 'server.running', 'context value of the signed-in row');
      const stored = await requireApi().auth.storedState(requireFixture().mcpUrl);
      assert(stored, 'no OAuth state in SecretStorage');
      const accessToken = (JSON.parse(stored) as { tokens?: { accessToken?: string } }).tokens?.accessToken;
      assert(accessToken, 'no access token in the stored state');
      assert(
        controller.knownSecrets().includes(accessToken),
        'the access token is not among the values the logs and traces mask',
      );
      assertEqual(
        controller.mask(`Bearer ${accessToken}`).includes(accessToken),
        false,
        'the token is masked in text about the server',
      );
    },
  );

  suite.test('the session is in the Accounts menu; Sign Out forgets the tokens and the server asks again', async () => {
    const sessions = requireApi().auth.sessions;
    const mcpUrl = requireFixture().mcpUrl;
    const session = (await sessions.getSessions()).find((candidate) => candidate.id === mcpUrl);
    assert(session, `no session for ${mcpUrl}`);
    assert(
      session.account.label.includes(SERVER),
      `the account label does not name the server: ${session.account.label}`,
    );
    assert(
      !(await requireApi().auth.storedState(mcpUrl))?.includes(session.accessToken),
      'the session hands out the stored token',
    );
    const accounts = await waitUntil(
      'VS Code to list the account of the provider',
      async () => {
        const listed = await vscode.authentication.getAccounts(PROVIDER_ID);
        return listed.some((account) => account.id === mcpUrl) ? listed : undefined;
      },
      10_000,
    );
    assert(accounts.length >= 1, 'no accounts');

    await sessions.removeSession(session.id);
    assertEqual(await requireApi().auth.hasStoredTokens(mcpUrl), false, 'tokens stored after Sign Out');
    assertEqual(
      (await sessions.getSessions()).some((candidate) => candidate.id === mcpUrl),
      false,
      'session listed after Sign Out',
    );
    await waitUntil(
      `${SERVER} to ask for sign-in again`,
      () => (controllerOf(SERVER).state.kind === 'signInRequired' ? true : undefined),
      20_000,
    );
    const modalsBefore = modals.length;
    const openedBefore = opened.length;
    await controllerOf(SERVER)
      .start()
      .catch(() => undefined);
    assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', 'state on the next start');
    assertEqual(modals.length, modalsBefore, 'modals shown by a start after Sign Out');
    assertEqual(opened.length, openedBefore, 'URLs opened by a start after Sign Out');
  });

  suite.test(
    '"Sign in" asked of the provider (getSession with createIfNone) runs the same consented flow',
    async () => {
      const mcpUrl = requireFixture().mcpUrl;
      assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', `state of ${SERVER} before`);
      answerModal(true);
      const modalsBefore = modals.length;
      const openedBefore = opened.length;
      // VS Code first asks whether this (the runner) extension may sign in; integration.test.ts presses Allow.
      const session = await vscode.authentication.getSession(PROVIDER_ID, [], { createIfNone: true });
      assertEqual(session.id, mcpUrl, 'the session created');
      assertEqual(modals.length, modalsBefore + 1, 'consent modals shown');
      assert(
        modals[modals.length - 1].message.includes(SERVER),
        `the modal does not name the server: ${modals[modals.length - 1].message}`,
      );
      assertEqual(opened.length, openedBefore + 1, 'URLs opened');
      assertEqual(opened[opened.length - 1], modals[modals.length - 1].url, 'the URL opened');
      assertEqual(await requireApi().auth.hasStoredTokens(mcpUrl), true, 'tokens stored');
      assert(
        !(await requireApi().auth.storedState(mcpUrl))?.includes(session.accessToken),
        'the session hands out the stored token',
      );
      const state = controllerOf(SERVER).state;
      assert(state.kind === 'running' && state.tools.length > 0, `${SERVER} is not running with tools: ${state.kind}`);
      const again = await vscode.authentication.getSession(PROVIDER_ID, [], { silent: true });
      assertEqual(again?.id, mcpUrl, 'the session VS Code hands out afterwards');
    },
  );

  suite.test('an expired access token is refreshed on the next call, without a browser or a modal', async () => {
    const server = requireShortLived();
    answerModal(true);
    const signedIn = await vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SHORT_LIVED);
    assertEqual(signedIn, true, `result of the sign-in to ${SHORT_LIVED}`);
    const tokensOf = async () => {
      const stored = await requireApi().auth.storedState(server.mcpUrl);
      return (
        stored
          ? (JSON.parse(stored) as { tokens?: { accessToken?: string; expiresAt?: number; refreshToken?: string } })
          : {}
      ).tokens;
    };
    const first = await tokensOf();
    assert(
      first?.accessToken && first.refreshToken && first.expiresAt,
      'no access token with an expiry and a refresh token stored',
    );
    // The fixture's tokens live seconds; wait until this one is past its expiry (the server would refuse it too).
    await waitUntil(
      'the access token to expire',
      () => (Date.now() > (first.expiresAt ?? 0) + 1000 ? true : undefined),
      (SHORT_TOKEN_TTL_SECONDS + 30) * 1000,
    );
    const modalsBefore = modals.length;
    const openedBefore = opened.length;
    const grantsBefore = (await stats(server)).grants.length;
    const outcome = await controllerOf(SHORT_LIVED).callTool('read', {}, {});
    assert(
      JSON.stringify(outcome.result).includes('read ok'),
      `the call did not succeed: ${JSON.stringify(outcome.result)}`,
    );
    const grants = (await stats(server)).grants.slice(grantsBefore);
    assert(
      grants.includes('refresh_token') && !grants.includes('authorization_code'),
      `token requests for the call: ${JSON.stringify(grants)}`,
    );
    assertEqual(opened.length, openedBefore, 'URLs opened by the refresh');
    assertEqual(modals.length, modalsBefore, 'modals shown by the refresh');
    const refreshed = await tokensOf();
    assert(
      refreshed?.accessToken && refreshed.accessToken !== first.accessToken,
      'the stored access token was not replaced',
    );
    assert(
      controllerOf(SHORT_LIVED).knownSecrets().includes(refreshed.accessToken),
      'the new access token is not among the values masked',
    );
  });

  suite.test(
    'Sign-in Steps shows the sign-in and its refreshes with every secret masked; Refresh Now refreshes at once',
    async () => {
      const server = requireShortLived();
      const shown = await vscode.commands.executeCommand<boolean>('mcpWorkbench.showSignInSteps', SHORT_LIVED);
      assertEqual(shown, true, 'Sign-in Steps opened');
      const stepsText = () =>
        vscode.workspace.textDocuments.find((document) => document.uri.scheme === 'mcp-workbench-sign-in')?.getText() ??
        '';
      const before = stepsText();
      for (const step of [
        'Discovery: protected resource metadata',
        'Discovery: authorization server metadata',
        'Token request',
        'Refresh',
      ])
        assert(before.includes(step), `no "${step}" step in:\n${before}`);
      assert(/Sign-in at [\d:]+: succeeded/.test(before), `the sign-in is not shown as succeeded:\n${before}`);
      assert(/Expires: /.test(before), `the token's expiry is not shown:\n${before}`);
      const refreshesBefore = before.match(/### Refresh at /g)?.length ?? 0;
      assert(refreshesBefore >= 1, `the refresh of the previous test is not shown:\n${before}`);

      const grantsBefore = (await stats(server)).grants.length;
      const refreshed = await vscode.commands.executeCommand<boolean>('mcpWorkbench.refreshSignInNow', SHORT_LIVED);
      assertEqual(refreshed, true, 'Refresh Now');
      assertEqual(
        (await stats(server)).grants.slice(grantsBefore).join(','),
        'refresh_token',
        'token requests of Refresh Now',
      );
      const after = await waitUntil(
        'the steps document to show the new refresh',
        () => {
          const text = stepsText();
          return (text.match(/### Refresh at /g)?.length ?? 0) > refreshesBefore ? text : undefined;
        },
        15_000,
      );
      const stored = JSON.parse((await requireApi().auth.storedState(server.mcpUrl)) ?? '{}') as {
        tokens?: { accessToken?: string; refreshToken?: string };
        clients?: Record<string, { clientSecret?: string }>;
      };
      const secrets = [
        stored.tokens?.accessToken,
        stored.tokens?.refreshToken,
        ...Object.values(stored.clients ?? {}).map((client) => client.clientSecret),
      ].filter((value): value is string => typeof value === 'string' && value.length > 0);
      assert(secrets.length >= 2, 'the stored state holds the tokens');
      for (const secret of secrets)
        assert(!after.includes(secret), 'a token or client secret is in the steps document');
      assert(after.includes('••••'), 'the masked values are marked');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    },
  );

  return suite;
}
