/**
 * End-to-end test of Server Cards (SEP-2127, issue 43) in a real VS Code driven from Chromium: "Add Server…" with an
 * HTTP URL offers to read the server's card first; the card is shown in a modal before anything is added (its name,
 * description, endpoint and the URL it was read from), the header it says a connection needs is prefilled as an
 * input (never the card's own value), and the entry written declares that input as a password. A server added from
 * its card is compared with the card at its first connection: the one difference (its version) is named in one
 * notification, whose Show Server Card shows it again; a later connection names nothing.
 *
 * Run: MCP_E2E_VSIX=dist/test-build/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/serverCards.e2e.ts
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  chooseMenuItem,
  clickUncovered,
  findNotification,
  hideNotificationsCenter,
  openViewContainer,
  pane,
  pressNotificationButton,
  quickPick,
  runCommand,
  runPickerCommand,
  screenshot,
  serverRowText,
  typeInQuickInput,
  visibleRow,
  waitForNotificationGone,
  waitForQuickInput,
  waitUntil,
  wholeJsoncText,
} from './harness';
import { CARD, SELF_SERVER_VERSION, startCardServer, type CardServer } from '../fixtures/http/cardServer';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registry/registry';

/** A VS Code window with no servers and the MCP Workbench view open, beside a card host; `body` runs in it. */
async function inCardWindow(
  name: string,
  body: (window: { page: Page; host: CardServer; configFile: string }) => Promise<void>,
  /** What else the window needs, given the card host: its settings, and what to close after it. */
  beside?: (host: CardServer) => Promise<{ settings: Record<string, unknown>; close(): Promise<void> }>,
): Promise<void> {
  let vscode: VsCodeFixture | undefined;
  let host: CardServer | undefined;
  let extra: { close(): Promise<void> } | undefined;
  try {
    host = await startCardServer();
    const added = beside ? await beside(host) : undefined;
    extra = added;
    vscode = await VsCodeFixture.prepare({ name, mcpJson: { kind: 'servers', servers: {} } });
    const page = await vscode.start(added ? { settings: added.settings } : {});
    await openViewContainer(page, 'MCP Workbench');
    await body({ page, host, configFile: vscode.mcpJsonPath });
  } finally {
    await vscode?.dispose();
    await extra?.close();
    await host?.close();
  }
}

/** The headers box Add Server fills from the card: `expected` (what the card asks for, as an input), accepted. */
async function acceptPrefilledHeaders(page: Page, expected: string): Promise<void> {
  await waitForQuickInput(page);
  const input = page.locator('.quick-input-widget .quick-input-box input').first();
  const prefilled = await waitUntil('the prefilled headers', async () => {
    const value = await input.inputValue();
    return value.includes('Authorization') ? value : undefined;
  });
  assert.equal(prefilled, expected);
  await page.keyboard.press('Enter');
}

/** Add Server's last steps: the workspace's .vscode/mcp.json, the entry's `name`; returns the file once it has it. */
async function saveEntry(page: Page, configFile: string, name: string): Promise<string> {
  await quickPick(page, /\.vscode\/mcp\.json/);
  await typeInQuickInput(page, name);
  return waitUntil('the new entry in mcp.json', () => {
    const text = wholeJsoncText(configFile);
    return text?.includes(JSON.stringify(name)) ? text : undefined;
  });
}

test(
  'Add Server… with a URL shows the Server Card before adding, and takes the header it needs',
  { timeout: 600_000 },
  () =>
    inCardWindow('server-cards', async ({ page, host, configFile }) => {
      const serverUrl = `${host.origin}/self/mcp`;

      await runPickerCommand(page, 'MCP Workbench: Add Server…');
      await quickPick(page, /HTTP/);
      await typeInQuickInput(page, serverUrl);
      const asked = host.requests.length;
      await quickPick(page, /Read Its Server Card First/);

      await page.locator('.monaco-dialog-box').first().waitFor({ state: 'visible', timeout: 30_000 });
      await screenshot(page, 'server-cards-01-card');
      const shown = await answerDialog(page, 'Add This Server');
      for (const expected of [
        'com.example/weather',
        'Forecasts and alerts for any city.',
        `Endpoint: ${serverUrl} (Streamable HTTP`,
        'needs the headers Authorization',
        `Read from: ${host.origin}/self/mcp/server-card`,
      ])
        assert.ok(shown.includes(expected), `the card dialog does not show "${expected}":\n${shown}`);
      assert.deepEqual(
        host.requests.slice(asked).map((request) => [request.path, request.headers.authorization]),
        [['/self/mcp/server-card', undefined]],
        'the card was read once, without credentials',
      );

      // The headers box holds what the card asks for, as an input: never the card's own value (${env:HOME}).
      await acceptPrefilledHeaders(page, 'Authorization: ${input:header-127.0.0.1-authorization}');
      const written = await saveEntry(page, configFile, 'carded');
      const config = JSON.parse(written) as {
        servers: Record<string, { url: string; headers?: Record<string, string> }>;
        inputs?: { id: string; password?: boolean }[];
      };
      assert.equal(config.servers.carded.url, serverUrl);
      assert.deepEqual(config.servers.carded.headers, { Authorization: '${input:header-127.0.0.1-authorization}' });
      assert.deepEqual(
        config.inputs?.map((declared) => [declared.id, declared.password]),
        [['header-127.0.0.1-authorization', true]],
      );
      assert.ok(!written.includes('${env:HOME}'), `the card's header value reached mcp.json:\n${written}`);

      // Show Server Card on the added (stopped) server's row: the card again, and how to compare it with the server.
      const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'carded' }).first();
      await clickUncovered(page, row, { button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: /^Show Server Card$/ }).last();
      await chooseMenuItem(page, item, 'Show Server Card');
      const again = await answerDialog(page, 'OK');
      assert.ok(
        again.includes('com.example/weather') && again.includes('Start the server to compare its card'),
        `Show Server Card:\n${again}`,
      );
    }),
);

test(
  "Add Server… From a Domain's Catalog lists the catalog's servers, shows the picked one's card, and adds its endpoint",
  { timeout: 600_000 },
  () =>
    inCardWindow('server-cards-catalog', async ({ page, host, configFile }) => {
      await runPickerCommand(page, 'MCP Workbench: Add Server…');
      await quickPick(page, /From a Domain's Catalog/);
      await typeInQuickInput(page, host.origin.replace('http://', ''));
      // The catalog's two MCP entries (the other three are left out: another type, plain http, url and data).
      await quickPick(page, /^Weather$/);
      const shown = await answerDialog(page, 'Add This Server');
      assert.ok(
        shown.includes('com.example/weather') && shown.includes(`Read from: ${host.origin}/mcp/server-card`),
        `the card dialog:\n${shown}`,
      );
      await acceptPrefilledHeaders(page, 'Authorization: ${input:header-example.com-authorization}');
      const written = await saveEntry(page, configFile, 'from-catalog');
      const config = JSON.parse(written) as { servers: Record<string, { type: string; url: string }> };
      assert.deepEqual(
        [config.servers['from-catalog'].type, config.servers['from-catalog'].url],
        ['http', 'https://example.com/mcp'],
      );
      assert.deepEqual(
        host.requests.map((request) => request.path),
        ['/.well-known/mcp/catalog.json', '/mcp/server-card'],
        'only the catalog and the picked card were read',
      );
    }),
);

test(
  "the registry's detail page of a remote server reads its Server Card on request and goes back to the details",
  { timeout: 600_000 },
  () => {
    let registry: FixtureRegistry | undefined;
    return inCardWindow(
      'server-cards-registry',
      async ({ page, host }) => {
        await runPickerCommand(page, 'MCP Workbench: Browse MCP Registry…');
        await typeInQuickInput(page, 'hosted', { submit: false });
        const fixture = registry as FixtureRegistry;
        await waitUntil('the search to reach the registry', () =>
          fixture.requests.some((url) => url.includes('search=hosted')) ? true : undefined,
        );
        await quickPick(page, /^Hosted$/);
        assert.equal(host.requests.length, 0, 'a card was read before it was asked for');
        await quickPick(page, /Read Server Card/);
        const shown = await answerDialog(page, 'OK');
        assert.ok(
          shown.includes('com.example/weather') && shown.includes(`Read from: ${host.origin}/self/mcp/server-card`),
          `the card dialog:\n${shown}`,
        );
        // Back on the same entry's details, to add it or not.
        await quickPick(page, /Add to User Settings/, { timeoutMs: 30_000 }).catch(async () => {
          throw new Error(
            `the details did not come back: ${(await page.locator('.quick-input-widget').textContent()) ?? ''}`,
          );
        });
      },
      async (host) => {
        // The fixture registry's "Hosted" entry has its Streamable HTTP remote on the card host.
        const started = await startFixtureRegistry({ remoteUrl: `${host.origin}/self/mcp` });
        registry = started;
        return { settings: { 'mcpWorkbench.registry.url': started.url }, close: () => started.close() };
      },
    );
  },
);

/** Chooses `item` (its whole label) in the context menu of the Servers view's row `label`. */
async function rowMenu(page: Page, label: string, item: string): Promise<void> {
  await clickUncovered(page, await visibleRow(page, pane(page, 'Servers'), label), { button: 'right' });
  await chooseMenuItem(
    page,
    page.locator('.monaco-menu .action-item', { hasText: new RegExp(`^${item}$`) }).last(),
    item,
  );
}

/** Waits until the Servers view's row `label` says `state` (its description, e.g. "0 tools" once connected). */
async function waitForRowText(page: Page, label: string, state: RegExp): Promise<void> {
  await waitUntil(`the row ${label} to say ${String(state)}`, async () =>
    state.test(await serverRowText(page, label)) ? true : undefined,
  );
}

test(
  'a server added from its Server Card is compared with the card at its first connection, and a difference is named once',
  { timeout: 600_000 },
  () =>
    inCardWindow('server-cards-after-add', async ({ page, host, configFile }) => {
      const serverUrl = `${host.origin}/self/mcp`;
      await runPickerCommand(page, 'MCP Workbench: Add Server…');
      await quickPick(page, /HTTP/);
      await typeInQuickInput(page, serverUrl);
      await quickPick(page, /Read Its Server Card First/);
      await answerDialog(page, 'Add This Server');
      await acceptPrefilledHeaders(page, 'Authorization: ${input:header-127.0.0.1-authorization}');
      await saveEntry(page, configFile, 'carded');
      assert.equal(
        host.requests.filter((request) => request.path === '/self/mcp').length,
        0,
        'nothing reached the server before its start',
      );

      // Its first start: the workspace server's consent (Allow and Connect), then the header's input; it connects and
      // answers as version 2.0.0 where its card says 1.2.0.
      await rowMenu(page, 'carded', 'Start Server');
      await answerDialog(page, 'Allow and Connect');
      await typeInQuickInput(page, 'token-for-the-card-test');
      await waitForRowText(page, 'carded', /0 tools/);
      const difference = `version: the card says ${CARD.version}, the server ${SELF_SERVER_VERSION}`;
      const said = /carded differs from the Server Card it was added from/;
      const notice = await findNotification(page, said);
      const text = (await notice.textContent()) ?? '';
      assert.ok(text.includes(difference), `the notification names the difference: ${text}`);
      await hideNotificationsCenter(page);
      await screenshot(page, 'server-cards-04-differs');

      // Its Show Server Card: the card, and the same difference from the running server.
      // It opens a modal: the center is left open (waitForNotificationGone below looks in it and closes it).
      await pressNotificationButton(page, said, 'Show Server Card', { leaveCenterOpen: true });
      const shown = await answerDialog(page, 'OK');
      assert.ok(
        shown.includes('Where the running server differs from its card') && shown.includes(difference),
        `Show Server Card from the notification:\n${shown}`,
      );
      await waitForNotificationGone(page, said);

      // The next connection compares nothing: the card was forgotten after the first. The moment to look is after Show
      // Server Card on the row, once the server runs again: it reads the card over HTTP and waits for the person,
      // well after the connection's own handling (with the card not forgotten, this saw the notice again).
      await rowMenu(page, 'carded', 'Stop Server');
      await waitForRowText(page, 'carded', /stopped/);
      await rowMenu(page, 'carded', 'Start Server');
      await waitForRowText(page, 'carded', /0 tools/);
      await rowMenu(page, 'carded', 'Show Server Card');
      assert.ok((await answerDialog(page, 'OK')).includes(difference), 'the running server still differs');
      await runCommand(page, 'Notifications: Show Notifications');
      const center = page.locator('.notifications-center').first();
      await center.waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(
        await center.locator('.notification-list-item').filter({ hasText: said }).count(),
        0,
        'the difference was named again at the second connection',
      );
      await hideNotificationsCenter(page);
    }),
);
