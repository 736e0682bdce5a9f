/**
 * End-to-end test of OAuth sign-in in a real VS Code (code-server 4.100.3) driven from Chromium, with the real
 * login and consent pages of the oidc-provider fixture (test/fixtures/oauth/servers.mjs): the protected server
 * shows "Sign in required" and a notice that closes itself once signed in; Sign In to Server shows the consent
 * modal naming the server, the issuer and the whole authorization URL; after "Sign In" VS Code opens the page with
 * no second consent (the real openExternal: it opens the loopback listener's URL, which link protection trusts, and
 * the listener redirects to the URL the modal showed), the page is completed in that Chromium window, the redirect
 * reaches the extension's loopback listener, and the server's tools appear in the tree. Then
 * Sign Out from VS Code's Accounts menu (the activity bar's Accounts icon, the server's account, Sign Out, VS Code's
 * confirmation) forgets the tokens, and the row asks for sign-in again. The fixture's authorization endpoint sits at
 * a percent-encoded path (%2F, %20, non-ASCII) it serves only byte for byte, so the URL must arrive unchanged.
 *
 * Run: node --import tsx --test test/e2e/oauth.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  REPO_ROOT,
  chooseMenuItem,
  clickUncovered,
  findNotification,
  hideNotificationsCenter,
  openViewContainer,
  pressNotificationButton,
  quickPick,
  runPickerCommand,
  screenshot,
  waitForNotificationGone,
  waitUntil,
} from './harness';

const SERVER = 'oauth-protected';
/** The authorization endpoint's raw path: an encoded slash, an encoded space and a non-ASCII character. */
const AUTHORIZATION_PATH = '/tenant%2Fa%20b%C3%A9/auth';
/** The authentication provider's label in VS Code's Accounts menu (registerAuthenticationProvider in extension.ts). */
const PROVIDER_LABEL = 'MCP Servers (MCP Workbench)';

interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
}

function startOAuthFixture(): Promise<{ info: OAuthFixture; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'test', 'fixtures', 'oauth', 'servers.mjs'), '--authorization-path', AUTHORIZATION_PATH],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve({ info: JSON.parse(stdout.split('\n')[0]) as OAuthFixture, child });
    });
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}: ${stderr}`)));
  });
}

async function sidebarRows(page: Page): Promise<string[]> {
  return page
    .locator('.part.sidebar .monaco-list-row')
    .evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').trim()));
}

test(
  'OAuth in real VS Code: Sign in required, consent naming the issuer, the real login and consent pages, tools, Sign Out from the Accounts menu',
  { timeout: 600_000 },
  async () => {
    let vscode: VsCodeFixture | undefined;
    let fixture: ChildProcess | undefined;
    try {
      const started = await startOAuthFixture();
      fixture = started.child;
      const { issuer, mcpUrl } = started.info;
      vscode = await VsCodeFixture.prepare({
        name: 'oauth',
        mcpJson: { kind: 'servers', servers: { [SERVER]: { type: 'http', url: mcpUrl } } },
      });
      const page = await vscode.start({ env: { MCP_WORKBENCH_TEST_HOOKS: '1' } });
      /** Every browser window opened from the workbench (openExternal is window.open in code-server). */
      const openedPages: Page[] = [];
      page.context().on('page', (opened) => openedPages.push(opened));
      /** Every URL the browser requested, as sent (the authorization request is one hop: the AS goes on to its own pages). */
      const requested: string[] = [];
      page.context().on('request', (request) => requested.push(request.url()));
      await openViewContainer(page, 'MCP Workbench');
      await waitUntil(`"${SERVER}" in the Servers view`, async () =>
        (await sidebarRows(page)).some((row) => row.includes(SERVER)) ? true : undefined,
      );

      // Expanding the row starts the server; a first start of a workspace server may ask first.
      await clickUncovered(page, page.locator('.part.sidebar .monaco-list-row').filter({ hasText: SERVER }).first());
      const dialog = page.locator('.monaco-dialog-box').first();
      const allow = dialog.locator('.monaco-button', { hasText: 'Allow and Connect' }).first();
      await waitUntil(
        '"Sign in required" on the row (or the first-start confirmation)',
        async () => {
          if (await allow.isVisible()) await allow.click();
          return (await sidebarRows(page)).some((row) => row.includes('Sign in required')) ? true : undefined;
        },
        60_000,
      );
      await screenshot(page, 'oauth-01-sign-in-required');
      // The notice that the server needs signing in (positive control for the check after the sign-in).
      const SIGN_IN_NOTICE = 'requires signing in';
      await findNotification(page, SIGN_IN_NOTICE);
      await hideNotificationsCenter(page);

      /**
       * Sign In to Server, the consent modal (checked), Sign In; resolves with the browser window VS Code opened, past
       * the authorization request, and that request's URL. One consent: VS Code's link protection would hold the window behind its own dialog ("Do you
       * want code-server to open the external website?") until clicked; here the window opens with no second click.
       */
      const signInThroughConsent = async (
        consentScreenshot?: string,
      ): Promise<{ browserPage: Page; authorizationUrl: string }> => {
        await runPickerCommand(page, 'MCP Workbench: Sign In to Server');
        await quickPick(page, new RegExp(SERVER));
        await dialog.waitFor({ state: 'visible', timeout: 30_000 });
        const dialogText = (await dialog.textContent()) ?? '';
        assert.ok(
          dialogText.includes(SERVER) && dialogText.includes(issuer),
          `the consent modal does not name the server and the issuer: ${dialogText}`,
        );
        assert.ok(
          dialogText.includes(`${issuer}${AUTHORIZATION_PATH}?`),
          `the consent modal does not show the whole authorization URL: ${dialogText}`,
        );
        // A stray Enter opens nothing: the button VS Code focuses (Enter presses it) is Not Now.
        assert.equal(
          ((await dialog.locator('.monaco-button:focus').first().textContent()) ?? '').trim(),
          'Not Now',
          'the sign-in consent focuses Not Now',
        );
        const pagesBefore = openedPages.length;
        const requestsBefore = requested.length;
        if (consentScreenshot) await screenshot(page, consentScreenshot);
        const opening = page.context().waitForEvent('page', { timeout: 60_000 });
        await dialog
          .locator('.monaco-button', { hasText: /^Sign In$/ })
          .first()
          .click();
        const browserPage = await opening;
        assert.equal(openedPages.length, pagesBefore + 1, 'one window opened, after the consent');
        const authorizationUrl = await waitUntil('the authorization request', () =>
          requested.slice(requestsBefore).find((url) => url.startsWith(issuer)),
        );
        assert.ok(
          authorizationUrl.startsWith(`${issuer}${AUTHORIZATION_PATH}?`),
          `the first request to the authorization server is not the advertised endpoint, byte for byte: ${authorizationUrl}`,
        );
        assert.ok(
          dialogText.includes(authorizationUrl),
          `the page opened is not the URL the modal showed, byte for byte: ${authorizationUrl}`,
        );
        assert.equal(
          await page.locator('.monaco-dialog-box').isVisible(),
          false,
          'a second dialog is showing after the consent',
        );
        return { browserPage, authorizationUrl };
      };

      // A first sign-in the person gives up on: Cancel on the progress notification closes the loopback listener.
      const abandoned = await signInThroughConsent('oauth-02-consent');
      const abandonedUrl = abandoned.authorizationUrl;
      await abandoned.browserPage.close();
      // Found as a toast or, when other notices fill the toasts (VS Code shows the three oldest), in the center.
      const WAITING_FOR_THE_BROWSER = 'complete the sign-in in your browser';
      await findNotification(page, WAITING_FOR_THE_BROWSER);
      await screenshot(page, 'oauth-02b-waiting-for-the-browser');
      await pressNotificationButton(page, WAITING_FOR_THE_BROWSER, 'Cancel');
      const abandonedRedirect = new URL(new URL(abandonedUrl).searchParams.get('redirect_uri') ?? '');
      // Reached directly, a closed listener refuses the connection; through code-server's port proxy (the redirect URI
      // asExternalUri gives in a web window) the proxy answers 500 (its connection error). An open listener answers 400:
      // not this sign-in's state.
      await waitUntil(`the loopback listener behind ${abandonedRedirect.href} to be closed`, async () => {
        try {
          const answer = await fetch(abandonedRedirect);
          await answer.body?.cancel();
          return answer.status >= 500 ? true : undefined;
        } catch (error) {
          return (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED' ? true : undefined;
        }
      });
      let rowsAfterCancel: string[] = [];
      await waitUntil('the row to ask for sign-in after the cancel', async () => {
        rowsAfterCancel = await sidebarRows(page);
        return rowsAfterCancel.some((row) => row.includes(SERVER) && row.includes('Sign in required'))
          ? true
          : undefined;
      }).catch((error: Error) => {
        throw new Error(`${error.message}; the rows: ${JSON.stringify(rowsAfterCancel)}`);
      });

      // The person's browser: the window VS Code opened, through the provider's real login and consent forms.
      const { browserPage, authorizationUrl } = await signInThroughConsent();
      try {
        await browserPage.locator('input[name="login"]').fill('test-user');
        await browserPage.locator('input[name="password"]').fill('test-password');
        await browserPage.locator('button[type="submit"]').first().click();
        await browserPage.locator('button[type="submit"]').first().waitFor({ state: 'visible', timeout: 30_000 });
        await browserPage.locator('button[type="submit"]').first().click();
        await waitUntil(
          'the redirect to the loopback listener',
          () => (new URL(browserPage.url()).pathname.endsWith('/callback') ? true : undefined),
          30_000,
        );
        const redirected = new URL(browserPage.url());
        assert.equal(
          `${redirected.origin}${redirected.pathname}`,
          new URL(new URL(authorizationUrl).searchParams.get('redirect_uri') ?? '').href,
          'the browser came back to the redirect URI the extension announced',
        );
        const confirmation = (await browserPage.textContent('body')) ?? '';
        assert.ok(
          confirmation.includes('Signed in'),
          `the loopback page does not confirm the sign-in: ${confirmation}`,
        );
        assert.ok(
          confirmation.includes('return to VS Code') && !confirmation.includes('terminal'),
          `the loopback page speaks of another program: ${confirmation}`,
        );
      } finally {
        await browserPage.close();
      }
      await waitUntil(
        'the tools of the signed-in server',
        async () => ((await sidebarRows(page)).some((row) => /Tools/.test(row)) ? true : undefined),
        90_000,
      );
      await screenshot(page, 'oauth-03-signed-in');
      // Nothing still says "requires signing in": the notice closed itself (a plain toast stayed on screen).
      await waitForNotificationGone(page, SIGN_IN_NOTICE, { timeoutMs: 30_000 });

      // Sign Out as a person does: the Accounts icon, the server's account (label "<server> (<host>)"), Sign Out.
      const host = new URL(mcpUrl).host;
      await page.locator('.part.activitybar .codicon-accounts-view-bar-icon').first().click();
      const menu = page.locator('.monaco-menu').last();
      const account = menu.locator('.action-item', { hasText: `${SERVER} (${host})` }).first();
      await account.waitFor({ state: 'visible', timeout: 30_000 });
      assert.ok(
        ((await account.textContent()) ?? '').includes(PROVIDER_LABEL),
        `the account is not under the provider: ${await account.textContent()}`,
      );
      await screenshot(page, 'oauth-04-accounts-menu');
      await chooseMenuItem(page, account, `the account ${SERVER} (${host})`, { opens: 'submenu' });
      const signOut = page.locator('.monaco-menu .action-item', { hasText: /^Sign Out$/ }).last();
      await signOut.waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot(page, 'oauth-05-account-submenu');
      await chooseMenuItem(page, signOut, 'Sign Out');
      // VS Code's own confirmation names the account.
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      const confirmation = (await dialog.textContent()) ?? '';
      assert.ok(confirmation.includes(SERVER), `the sign-out confirmation does not name the account: ${confirmation}`);
      await screenshot(page, 'oauth-06-sign-out-confirmation');
      await dialog
        .locator('.monaco-button', { hasText: /Sign Out/ })
        .first()
        .click();
      await dialog.waitFor({ state: 'hidden', timeout: 30_000 });

      // The tokens are gone: the server is restarted without them and its row asks again.
      await waitUntil(
        '"Sign in required" on the row after Sign Out',
        async () =>
          (await sidebarRows(page)).some((row) => row.includes(SERVER) && row.includes('Sign in required'))
            ? true
            : undefined,
        90_000,
      );
      await screenshot(page, 'oauth-07-signed-out');
    } catch (error) {
      // The server's own log says which state it reached and why; the folder is removed at dispose.
      const log = vscode?.extensionLog(`MCP Workbench ${SERVER}`);
      if (log !== undefined && error instanceof Error)
        error.message += `\n--- the extension's log of ${SERVER}:\n${log.slice(-6000)}`;
      throw error;
    } finally {
      await vscode?.dispose();
      fixture?.kill();
    }
  },
);
