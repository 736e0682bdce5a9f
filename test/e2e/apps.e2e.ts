/**
 * MCP Apps end to end in a real VS Code (code-server) driven from Chromium: the apps fixture
 * (test/fixtures/apps/appServer.mjs, official v2 SDK) and the published basic-vanillajs example.
 *   - the app-only tool is absent from the Servers tree, and app tools are marked "app";
 *   - calling show_panel draws its app beside the result: the app got ui/initialize (its theme), the tool input and
 *     the result; its button calls the app-only tool through the host and shows the answer;
 *   - its link asks first (a modal naming the server with the URL) with "Not Now" focused: a stray Enter opens nothing,
 *     and declining opens nothing; its message is shown escaped (a right-to-left override as \u202E);
 *   - its call of erase_notes (marked destructive) asks first, naming the tool and its arguments; declined, the app hears
 *     so; allowed, it runs; History lists the app's calls, each "via the app of show_panel";
 *   - flat_key's panel switches itself to fullscreen with no click: its tab does not take the focus;
 *   - a theme switch reaches the app (host-context-changed);
 *   - the server row counts seven tools (app_only is left out); Open App in Editor asked twice keeps one editor copy
 *     and shows it; that copy's tab closed with X ends the app host-side (the log says the app could not be told);
 *   - Close App tears it down (the app answers ui/resource-teardown) and its tab closes;
 *   - the hostile app cannot reach the page, the VS Code API or an undeclared origin, and its flood stops it with a note;
 *   - the WebRTC app reaches no STUN server (a UDP socket of this test) from its document, a srcdoc frame, a frame
 *     written by innerHTML, a frame in its own markup, or a popup, and its note says WebRTC is blocked;
 *   - basic-vanillajs's get-time app draws.
 * Screenshots: test-results/e2e/apps-01-panel.png, apps-02-hostile.png, apps-03-basic.png.
 *
 * Run: node --import tsx --test test/e2e/apps.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import * as dgram from 'node:dgram';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  clickUncovered,
  DEFAULT_TIMEOUT_MS,
  inlineAction,
  openViewContainer,
  pane,
  paneRows,
  REPO_ROOT,
  runCommand,
  screenshot,
  serverRowText,
  visibleRow,
  waitUntil,
  webviewFrame,
  picture,
} from './harness';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'apps', 'appServer.mjs');
const BASIC = path.join(
  REPO_ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-basic-vanillajs',
  'dist',
  'index.js',
);

/** The text of `selector` in whichever frame now holds `frameSelector` (a webview's frames can be replaced). */
async function textIn(page: Page, frameSelector: string, selector: string): Promise<string> {
  for (const frame of page.frames()) {
    if (
      (await frame
        .locator(frameSelector)
        .count()
        .catch(() => 0)) === 0
    )
      continue;
    return (
      (await frame
        .locator(selector)
        .first()
        .textContent({ timeout: 2000 })
        .catch(() => null)) ?? ''
    ).trim();
  }
  return '';
}

async function textOf(frame: Frame, selector: string): Promise<string> {
  return (
    (await frame
      .locator(selector)
      .first()
      .textContent({ timeout: 2000 })
      .catch(() => null)) ?? ''
  ).trim();
}

async function expectText(
  frame: Frame,
  selector: string,
  pattern: RegExp,
  what: string,
  page?: Page,
  frameSelector?: string,
): Promise<string> {
  let last = '';
  try {
    return await waitUntil(
      what,
      async () => {
        last = page && frameSelector ? await textIn(page, frameSelector, selector) : await textOf(frame, selector);
        return pattern.test(last) ? last : undefined;
      },
      60_000,
    );
  } catch (error) {
    throw new Error(`${String(error)}: ${selector} last said ${JSON.stringify(last)}`);
  }
}

/** The editor tabs titled `title`, in the page's order; `shown` is the active tab of the active editor group. */
async function tabsTitled(page: Page, title: string): Promise<{ shown: boolean }[]> {
  return page.evaluate(
    (wanted) =>
      Array.from(document.querySelectorAll('.tabs-container .tab'))
        .filter((tab) => (tab.textContent ?? '').includes(wanted))
        .map((tab) => ({
          shown:
            tab.classList.contains('active') &&
            tab.closest('.editor-group-container')?.classList.contains('active') === true,
        })),
    title,
  );
}

/** The text of the dialog shown now, or undefined when none is. */
async function dialogText(page: Page): Promise<string | undefined> {
  const dialog = page.locator('.monaco-dialog-box').first();
  if (!(await dialog.isVisible().catch(() => false))) return undefined;
  return (await dialog.textContent().catch(() => null)) ?? undefined;
}

/** The descriptions of the History rows labelled `label` (History pane expanded, the Servers pane folded for room). */
async function historyDescriptions(page: Page, label: string, count: number): Promise<string[]> {
  const history = pane(page, 'History');
  const header = history.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await clickUncovered(page, header);
  return waitUntil(`${count} History rows "${label}"`, async () => {
    const rows = paneRows(history, label);
    if ((await rows.count()) < count) return undefined;
    return rows.locator('.label-description').allTextContents();
  });
}

/** Calls a tool without arguments from its form (the tree row's Call Tool action, then the form's Call button). */
async function callFromForm(page: Page, tool: string, formText: string): Promise<void> {
  await inlineAction(page, await visibleRow(page, pane(page, 'Servers'), tool), 'Call Tool');
  const form = await webviewFrame(page, `the Call Tool form for ${tool}`, `text=${formText}`);
  await form.locator('#submit').click();
}

test(
  'MCP Apps in real VS Code: drawn beside the result, calling its own tools, asking before links, themed, torn down, contained',
  {
    timeout: 600_000,
  },
  async () => {
    let session: VsCodeFixture | undefined;
    // The STUN server the WebRTC app aims at: any datagram here is a packet the app's frame should not have sent.
    const stun = dgram.createSocket('udp4');
    const datagrams: string[] = [];
    stun.on('message', (_message, from) => datagrams.push(`${from.address}:${from.port}`));
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    try {
      session = await VsCodeFixture.open({
        name: 'apps',
        mcpJson: {
          kind: 'servers',
          comment: 'the MCP Apps fixture and the basic-vanillajs example, for apps.e2e.ts',
          servers: {
            apps: {
              type: 'stdio',
              command: process.execPath,
              args: [FIXTURE, '${workspaceFolder}'],
              env: { APPS_FIXTURE_STUN_PORT: String(stun.address().port) },
            },
            basic: { type: 'stdio', command: process.execPath, args: [BASIC, '--stdio', '${workspaceFolder}'] },
          },
        },
        settings: { 'workbench.colorTheme': 'Default Dark Modern' },
      });
      const { page } = session;
      await openViewContainer(page, 'MCP Workbench');
      const servers = pane(page, 'Servers');
      await clickUncovered(page, await visibleRow(page, servers, 'apps'));
      await answerDialog(page, 'Allow and Start');
      await visibleRow(page, servers, 'show_panel');
      assert.equal(await paneRows(servers, 'app_only').count(), 0, 'the ["app"]-only tool is not in the tree');
      const appsRow = await waitUntil('the apps row to count its tools', async () => {
        const text = await serverRowText(page, 'apps');
        return /\d+ tools?\b/.test(text) ? text : undefined;
      });
      assert.match(
        appsRow,
        /· 7 tools\b/,
        "the row counts the seven tools offered (nine listed, app_only and erase_notes are the app's alone)",
      );
      assert.match(
        (await paneRows(servers, 'show_panel').first().textContent()) ?? '',
        /\[app\]/,
        'app tools are marked',
      );

      // The app draws beside the result and hears initialize, the input and the result.
      await callFromForm(page, 'show_panel', 'Shows the panel app');
      const app = await webviewFrame(page, 'the panel app', '#call');
      await expectText(app, '#theme', /^theme: dark$/, 'the app knows the dark theme', page, '#call');
      await expectText(app, '#input', /^input: \{\}$/, 'the app got the tool input', page, '#call');
      await expectText(app, '#result', /^result: panel result$/, 'the app got the tool result', page, '#call');
      // Its button calls the app-only tool through the host.
      await app.locator('#call').click();
      await expectText(app, '#answer', /^app-only answer: clicked$/, 'the app-only tool answered the app');
      await screenshot(page, 'apps-01-panel');
      await picture(page, 'mcp-app');
      // A link asks first, with "Not Now" focused: a stray Enter opens nothing (no browser window, and no second dialog
      // from VS Code's link protection), and the app hears isError.
      const windows: string[] = [];
      page.context().on('page', (window) => windows.push(window.url()));
      await app.locator('#link').click();
      const focused = await waitUntil('the link prompt, with a button of it focused', () =>
        page.evaluate(() => {
          const active = document.activeElement;
          return active?.closest('.monaco-dialog-box') &&
            /wants to open a link/.test(active.closest('.monaco-dialog-box')?.textContent ?? '')
            ? (active.textContent ?? '')
            : undefined;
        }),
      );
      assert.equal(focused.trim(), 'Not Now', "the default button of the app's link prompt is Not Now");
      await page.keyboard.press('Enter');
      const afterEnter = await waitUntil(
        'the app to hear the answer to its link (or the link to open)',
        async () => {
          if (windows.length > 0) return `a window opened: ${windows.join(', ')}`;
          const dialog = await dialogText(page);
          if (dialog !== undefined && !/wants to open a link/.test(dialog)) return `another dialog: ${dialog}`;
          const answer = await textOf(app, '#answer');
          return answer.startsWith('link 1:') ? answer : undefined;
        },
        DEFAULT_TIMEOUT_MS,
      );
      assert.equal(afterEnter, 'link 1: {"isError":true}', 'Enter on the link prompt opened nothing');
      assert.deepEqual(windows, [], 'no window opened');
      // Declining with Cancel opens nothing either.
      await app.locator('#link').click();
      const dialog = await answerDialog(page, 'Cancel');
      assert.match(dialog, /The app of MCP server "apps" wants to open a link\./);
      assert.match(dialog, /https:\/\/example\.com\/from-app/);
      await expectText(app, '#answer', /^link 2: \{"isError":true\}$/, 'the declined link answered isError');
      // The app's message is shown escaped: its right-to-left override is written out, never drawn.
      await app.locator('#message').click();
      const message = await answerDialog(page, 'Not Now');
      assert.ok(message.includes('rename notes\\u202Etxt.exe'), `the message shown escaped: ${message}`);
      assert.ok(!message.includes('\u202E'), 'no raw right-to-left override in the prompt');
      await expectText(app, '#answer', /^message: \{"isError":true\}$/, 'the declined message answered isError');
      // The app calls erase_notes, which its server marks destructive: asked first, naming the tool and its arguments.
      await app.locator('#erase').click();
      const erase = await answerDialog(page, 'Not Now');
      assert.match(erase, /The app of show_panel \(MCP server "apps"\) wants to call the tool erase_notes/);
      assert.match(erase, /"what": "all"/);
      await expectText(
        app,
        '#answer',
        /^erase 1: error The person declined this call of erase_notes\.$/,
        'the declined call answered with an error result',
      );
      await app.locator('#erase').click();
      await answerDialog(page, 'Allow Call');
      await expectText(app, '#answer', /^erase 2: erased: all$/, 'the allowed call ran');
      // History lists the app's calls as the app's (the Servers pane folded for room, then unfolded).
      const serversHeader = servers.locator('.pane-header').first();
      await clickUncovered(page, serversHeader);
      const erased = await historyDescriptions(page, 'erase_notes', 2);
      assert.ok(
        erased.some((text) => /declined \(via the app of show_panel\)/.test(text)) &&
          erased.some((text) => /succeeded \(via the app of show_panel\)/.test(text)),
        `History shows the declined and the allowed call, each via the app: ${JSON.stringify(erased)}`,
      );
      const appOnly = await historyDescriptions(page, 'app_only', 1);
      assert.match(appOnly[0] ?? '', /succeeded \(via the app of show_panel\)/);
      await clickUncovered(page, pane(page, 'History').locator('.pane-header').first());
      await clickUncovered(page, serversHeader);
      await visibleRow(page, servers, 'show_panel');
      // A theme switch reaches the app.
      await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
      await expectText(app, '#theme', /^theme: light$/, 'the theme change reached the app');
      // Open App in Editor gives the app a tab of its own; asking again reveals that tab instead of a second copy.
      const APP_TAB = 'show_panel (app)';
      const inlinePage = await webviewFrame(page, 'the inline app page', 'button[data-action="openInEditor"]');
      await inlinePage.locator('button[data-action="openInEditor"]').click();
      const opened = await waitUntil('the app in an editor tab of its own, shown', async () => {
        const tabs = await tabsTitled(page, APP_TAB);
        return tabs.length === 2 && tabs.some((tab) => tab.shown) ? tabs : undefined;
      });
      const copyIndex = opened.findIndex((tab) => tab.shown);
      const appTabs = page.locator('.tabs-container .tab', { hasText: APP_TAB });
      await appTabs.nth(1 - copyIndex).click();
      await waitUntil('the inline app shown again', async () =>
        (await tabsTitled(page, APP_TAB))[1 - copyIndex]?.shown ? true : undefined,
      );
      await inlinePage.locator('button[data-action="openInEditor"]').click();
      // Two tabs with the editor copy shown: with a second copy there would be three, the new one shown.
      await waitUntil('the editor copy revealed, not drawn again', async () => {
        const tabs = await tabsTitled(page, APP_TAB);
        return tabs.length === 2 && tabs[copyIndex]?.shown ? true : undefined;
      });
      // Its tab's X: the webview is gone, so the app cannot be told; the host side ends and says so in the log.
      // The tab's own Close action: its icon is codicon-close in VS Code 1.100, codicon-close-small in 1.139.
      await appTabs
        .nth(copyIndex)
        .locator('.tab-actions .action-label:is(.codicon-close, .codicon-close-small)')
        .click();
      await waitUntil('the log to say the closed tab ended the app', () =>
        /app of show_panel: its tab was closed, so the app was not told \(its frame is gone\); 0 request\(s\) in flight cancelled/.test(
          session?.extensionLog('MCP Workbench apps') ?? '',
        )
          ? true
          : undefined,
      );
      assert.equal((await tabsTitled(page, APP_TAB)).length, 1, 'the inline app stays');

      // Close App tears it down: the app answers ui/resource-teardown, and its page goes away.
      const page$ = await webviewFrame(page, 'the app page', 'button[data-action="close"]');
      await page$.locator('button[data-action="close"]').click();
      await waitUntil(
        'the app page to close',
        async () =>
          (await page$
            .locator('#app-holder')
            .count()
            .catch(() => 0)) === 0
            ? true
            : undefined,
        30_000,
      );
      // The log says which way the teardown ended (answered or timed out), so the line is awaited, not its absence.
      await waitUntil('the log to say the app answered its teardown', () =>
        /app of show_panel answered ui\/resource-teardown; closed/.test(
          session?.extensionLog('MCP Workbench apps') ?? '',
        )
          ? true
          : undefined,
      );
      assert.doesNotMatch(session.extensionLog('MCP Workbench apps') ?? '', /did not answer ui\/resource-teardown/);

      // flat_key's panel switches itself to fullscreen at once, with no click in it: its tab is shown without the
      // focus, which stays with the form the person used.
      await callFromForm(page, 'flat_key', 'An app named by the older flat key');
      const pushy = await webviewFrame(page, 'the flat_key panel', '#mode');
      await expectText(pushy, '#mode', /^mode: fullscreen$/, 'the panel switched itself to fullscreen', page, '#mode');
      const pushyTabs = await tabsTitled(page, 'flat_key (app)');
      assert.equal(pushyTabs.length, 1);
      assert.equal(pushyTabs[0]!.shown, false, "the app's own switch did not take the focus");
      const shownTitle = await page.evaluate(
        () => document.querySelector('.editor-group-container.active .tabs-container .tab.active')?.textContent ?? '',
      );
      assert.doesNotMatch(shownTitle, /\(app\)/, `the focused editor is not the app's (${shownTitle})`);
      const pushyPage = await webviewFrame(page, 'the flat_key app page', 'button[data-action="close"]');
      await pushyPage.locator('button[data-action="close"]').click();
      await waitUntil('the flat_key app to close', async () =>
        (await tabsTitled(page, 'flat_key (app)')).length === 0 ? true : undefined,
      );

      // The hostile app: contained, and its flood stops it with a note.
      await callFromForm(page, 'show_hostile', 'Shows the hostile app');
      const hostile = await webviewFrame(page, 'the hostile app', '#probe-parent-api');
      for (const probe of ['parent-api', 'own-api', 'parent-dom', 'top-dom']) {
        await expectText(hostile, `#probe-${probe}`, /: blocked$/, `the hostile probe ${probe}`);
      }
      await expectText(hostile, '#probe-fetch', /: blocked$/, 'fetch to an undeclared origin');
      await expectText(hostile, '#probe-model-only-call', /: refused$/, 'the model-only tool refused to the app');
      await hostile.locator('#flood').click();
      const hostPage = await webviewFrame(page, 'the hostile app page', '#app-note:not([hidden])');
      assert.match(await textOf(hostPage, '#app-note'), /too many messages/);
      await screenshot(page, 'apps-02-hostile');

      // The WebRTC app: each of its documents reports "blocked" (a peer connection that took its offer says "reached"
      // and sends STUN requests), and nothing reached the socket.
      await callFromForm(page, 'show_webrtc', 'Shows the WebRTC app');
      const webrtc = await webviewFrame(page, 'the WebRTC app', '#probes');
      for (const probe of ['app', 'srcdoc', 'inner-html', 'markup', 'popup']) {
        await expectText(webrtc, `#probe-${probe}`, /: (blocked|reached)$/, `the WebRTC probe ${probe} to report`);
      }
      const outcomes = await webrtc.locator('#probes li').allTextContents();
      assert.deepEqual(
        datagrams,
        [],
        `no STUN packet reached 127.0.0.1:${stun.address().port} (${outcomes.join(', ')})`,
      );
      assert.deepEqual(
        outcomes.filter((outcome) => !outcome.endsWith(': blocked')),
        [],
        'every document of the app is without WebRTC',
      );
      const webrtcPage = await webviewFrame(page, 'the WebRTC app page', '.app-notes');
      assert.match(await textOf(webrtcPage, '.app-notes'), /WebRTC: blocked/);

      // The published basic example draws.
      await clickUncovered(page, await visibleRow(page, servers, 'basic'));
      await answerDialog(page, 'Allow and Start');
      await callFromForm(page, 'get-time', 'Returns the current server time');
      const basic = await webviewFrame(page, 'the basic-vanillajs app', '#get-time-btn');
      await expectText(
        basic,
        '#server-time',
        /^\d{4}-\d{2}-\d{2}T/,
        'the basic app shows the tool result (the server time)',
      );
      await screenshot(page, 'apps-03-basic');
    } finally {
      await session?.dispose();
      stun.close();
    }
  },
);
