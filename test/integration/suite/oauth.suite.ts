/**
 * Signing in to an OAuth-protected MCP server from the extension (issue 8) inside the real extension host: the
 * oidc-provider fixture (test/fixtures/oauth/servers.mjs: an authorization server in front of an MCP server that
 * validates audience-bound JWTs) is added to mcp.json; a start shows "Sign in required"; Sign In asks in a modal
 * naming the server and the issuer, and only then "opens" the authorization URL, which the fixture browser
 * (test/fixtures/oauth/browser.mjs, a real HTTP client through the login and consent pages) follows to the loopback
 * redirect; the tools show; Sign Out through the authentication provider forgets the tokens and it asks again.
 *
 * Replaced UI steps only (test hooks): the modal's answer and vscode.env.openExternal. Everything else, SecretStorage
 * included, runs on the real path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as vscodeTypes from 'vscode';
import type { SignInModal } from '../../../src/extension/auth/signIn';
import type { McpWorkbenchApi } from '../../../src/extension/extension';
import type { ServersTreeNode } from '../../../src/extension/views/serversTreeProvider';
import { Suite, assert, assertEqual, waitUntil, type VscodeApi } from './framework';
import { leaveCleanState, startFromCleanState, workbenchAccess, writeWorkspaceFile } from './workbench';

const SERVER = 'oauth-protected';
const PROVIDER_ID = 'mcp-workbench-oauth';

interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  statsUrl: string;
}

export function oauthSuite(vscode: VscodeApi): Suite {
  const suite = new Suite('oauth');
  let api: McpWorkbenchApi | undefined;
  let originalConfig: string | undefined;
  let fixtureProcess: ChildProcess | undefined;
  let fixture: OAuthFixture | undefined;
  const modals: SignInModal[] = [];
  const opened: string[] = [];
  const { configFile, requireApi, controllerOf } = workbenchAccess(vscode, () => api);
  const repoRoot = process.env.MCP_INTEGRATION_REPO_ROOT ?? '';
  const fixtureFile = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'oauth', name);
  const requireFixture = (): OAuthFixture => {
    assert(fixture, 'the OAuth fixture is not running');
    return fixture;
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
  const fixtureBrowser = (uri: vscodeTypes.Uri): Thenable<boolean> => {
    const url = uri.toString(true);
    opened.push(url);
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [fixtureFile('browser.mjs'), url], { env: nodeEnv, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => resolve(true));
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
    assert(repoRoot && fs.existsSync(fixtureFile('servers.mjs')), `the OAuth fixture is not found under ${repoRoot || '(MCP_INTEGRATION_REPO_ROOT unset)'}`);
    api = await startFromCleanState(vscode);
    const child = spawn(process.execPath, [fixtureFile('servers.mjs')], { env: nodeEnv, stdio: ['ignore', 'pipe', 'pipe'], cwd: repoRoot });
    fixtureProcess = child;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    fixture = await new Promise<OAuthFixture>((resolve, reject) => {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]) as OAuthFixture);
      });
      child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}: ${stderr}`)));
    });
    originalConfig = fs.readFileSync(configFile(), 'utf8');
    const original = JSON.parse(originalConfig) as { servers: Record<string, object> };
    const servers = { ...original.servers, [SERVER]: { type: 'http', url: fixture.mcpUrl } };
    await writeWorkspaceFile(vscode, configFile(), `${JSON.stringify({ servers }, null, 2)}\n`);
    await requireApi().reload();
    controllerOf(SERVER);
    requireApi().auth.setOpenExternal(fixtureBrowser);
  });

  suite.after(async () => {
    const hooks = api?.auth;
    hooks?.answerSignInModal(undefined);
    hooks?.setOpenExternal(undefined);
    if (fixture && hooks) await hooks.sessions.removeSession(fixture.mcpUrl).catch(() => undefined);
    if (originalConfig !== undefined) {
      await writeWorkspaceFile(vscode, configFile(), originalConfig);
      await api?.reload();
    }
    await leaveCleanState(vscode, api);
    fixtureProcess?.kill();
  });

  suite.test('a server that needs sign-in shows "Sign in required" with Sign In on its row, not a failure', async () => {
    const controller = controllerOf(SERVER);
    await controller.start().then(
      () => assert(false, 'the start succeeded without a token'),
      () => undefined,
    );
    assertEqual(controller.state.kind, 'signInRequired', `state of ${SERVER}`);
    const row = await serverRow();
    assertEqual(row.contextValue, 'server.signInRequired', 'context value of the row (it carries the Sign In action)');
    assertEqual(opened.length, 0, 'URLs opened by a start that is not a sign-in');
    assertEqual(modals.length, 0, 'consent modals shown by a start that is not a sign-in');
  });

  suite.test('declining the consent modal opens nothing; the modal names the server and the issuer', async () => {
    answerModal(false);
    const signedIn = await vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SERVER);
    assertEqual(signedIn, false, 'result of a declined sign-in');
    assertEqual(modals.length, 1, 'consent modals shown');
    const [modal] = modals;
    assertEqual(modal.buttons.length, 1, 'buttons of the modal besides VS Code\'s own Cancel');
    assert(modal.message.includes(SERVER), `the modal does not name the server: ${modal.message}`);
    assertEqual(modal.issuer, requireFixture().issuer, 'issuer named by the modal');
    assert(modal.detail.includes(requireFixture().issuer), `the modal's text does not name the issuer: ${modal.detail}`);
    assertEqual(opened.length, 0, 'URLs opened after declining');
    assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', 'state after declining');
  });

  suite.test('signing in opens the authorization URL after consent, stores the tokens in SecretStorage, and the tools show', async () => {
    answerModal(true);
    const signedIn = await vscode.commands.executeCommand<boolean>('mcpWorkbench.signIn', SERVER);
    assertEqual(signedIn, true, 'result of the sign-in');
    assertEqual(opened.length, 1, 'URLs opened');
    const authorizationUrl = new URL(opened[0]);
    // Compared as parsed URLs: a vscode.Uri renders the query with its own (equivalent) percent-encoding.
    const consented = new URL(modals[modals.length - 1].url);
    assertEqual(`${authorizationUrl.origin}${authorizationUrl.pathname}`, `${consented.origin}${consented.pathname}`, 'the page opened is the one the modal was about');
    assertEqual(JSON.stringify([...authorizationUrl.searchParams]), JSON.stringify([...consented.searchParams]), 'the query opened is the one the modal was about');
    assert(authorizationUrl.href.startsWith(requireFixture().issuer), `the URL opened is not at the issuer: ${authorizationUrl.href}`);
    assertEqual(authorizationUrl.searchParams.get('resource'), requireFixture().mcpUrl, 'resource indicator (RFC 8707)');
    const controller = controllerOf(SERVER);
    const state = controller.state;
    assert(state.kind === 'running' && state.tools.length > 0, `${SERVER} is not running with tools: ${state.kind}`);
    assertEqual((await serverRow()).contextValue, 'server.running', 'context value of the signed-in row');
    const stored = await requireApi().auth.storedState(requireFixture().mcpUrl);
    assert(stored, 'no OAuth state in SecretStorage');
    const accessToken = (JSON.parse(stored) as { tokens?: { accessToken?: string } }).tokens?.accessToken;
    assert(accessToken, 'no access token in the stored state');
    assert(controller.knownSecrets().includes(accessToken), 'the access token is not among the values the logs and traces mask');
    assertEqual(controller.mask(`Bearer ${accessToken}`).includes(accessToken), false, 'the token is masked in text about the server');
  });

  suite.test('the session is in the Accounts menu; Sign Out forgets the tokens and the server asks again', async () => {
    const sessions = requireApi().auth.sessions;
    const mcpUrl = requireFixture().mcpUrl;
    const session = (await sessions.getSessions()).find((candidate) => candidate.id === mcpUrl);
    assert(session, `no session for ${mcpUrl}`);
    assert(session.account.label.includes(SERVER), `the account label does not name the server: ${session.account.label}`);
    assert(!(await requireApi().auth.storedState(mcpUrl))?.includes(session.accessToken), 'the session hands out the stored token');
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
    assertEqual((await sessions.getSessions()).some((candidate) => candidate.id === mcpUrl), false, 'session listed after Sign Out');
    await waitUntil(`${SERVER} to ask for sign-in again`, () => (controllerOf(SERVER).state.kind === 'signInRequired' ? true : undefined), 20_000);
    const modalsBefore = modals.length;
    const openedBefore = opened.length;
    await controllerOf(SERVER).start().catch(() => undefined);
    assertEqual(controllerOf(SERVER).state.kind, 'signInRequired', 'state on the next start');
    assertEqual(modals.length, modalsBefore, 'modals shown by a start after Sign Out');
    assertEqual(opened.length, openedBefore, 'URLs opened by a start after Sign Out');
  });

  return suite;
}
