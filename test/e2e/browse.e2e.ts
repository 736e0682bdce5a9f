/**
 * End-to-end browsing in a real VS Code (code-server 4.100.3) driven from Chromium, as a person would: a workspace
 * `.vscode/mcp.json` runs server-everything over stdio; expanding it asks for consent ("Allow and Start"); the
 * tool row's inline "Call Tool…" action opens the form, a=2 and b=3 are typed and Ctrl+Enter submits, and the result
 * view shows the sum; a resource from the Resources group opens in an editor; "Get Prompt…" on simple-prompt opens
 * the messages as Markdown, and on completable-prompt typing "E" highlights the server's "Engineering", which Enter
 * takes. Screenshots: test-results/e2e/browse-*.png in the light theme, and the form and result
 * again in the dark theme (browse-dark-*.png), to check that the webviews follow the editor theme.
 *
 * Run: node --import tsx --test test/e2e/browse.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  answerDialog,
  clickUncovered,
  EVERYTHING_SERVER_JS,
  openViewContainer,
  quickPick,
  screenshot,
  typeInQuickInput,
  waitFor,
  waitUntil,
  webviewFrame,
} from './harness';

const EVERYTHING = EVERYTHING_SERVER_JS;
const SERVER = 'everything';
const SUM = 'The sum of 2 and 3 is 5.';

/** The visible row of the Servers view whose label is exactly `label`. */
function row(page: Page, label: string): Locator {
  return page
    .locator('.part.sidebar .monaco-list-row')
    .filter({
      has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    })
    .first();
}

async function waitForRow(page: Page, label: string, timeoutMs = 60_000): Promise<Locator> {
  const target = row(page, label);
  await waitFor(page, `the tree row "${label}"`, () => target.waitFor({ state: 'visible', timeout: timeoutMs }));
  return target;
}

/** Hovers the row and clicks its inline action whose title starts with `action` (the icon button at the row's end). */
async function inlineAction(page: Page, label: string, action: string): Promise<void> {
  const target = await waitForRow(page, label);
  await waitFor(page, `the inline action "${action}" on "${label}"`, async () => {
    // The hover of the row clicked before (the pointer still rests there) can cover this one.
    await page.mouse.move(0, 0);
    await page
      .locator('.context-view .hover-contents')
      .first()
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => undefined);
    await target.hover();
    const button = target.locator(`.actions .action-label[aria-label^="${action}"]`).first();
    await button.waitFor({ state: 'visible', timeout: 10_000 });
    await button.click();
  });
}

/** Text of the active editor, as rendered (Monaco uses non-breaking spaces). */
async function activeEditorText(page: Page): Promise<string> {
  const lines = page.locator('.editor-group-container.active .editor-instance .monaco-editor .view-lines').first();
  return ((await lines.textContent().catch(() => '')) ?? '').replace(/\u00a0/g, ' ');
}

async function waitForEditorText(page: Page, what: string, expected: string): Promise<string> {
  let last = '';
  return waitFor(page, what, () =>
    waitUntil(`${what} (editor text: ${JSON.stringify(last.slice(0, 200))})`, async () => {
      last = await activeEditorText(page);
      return last.includes(expected) ? last : undefined;
    }),
  );
}

async function fillForm(form: Frame): Promise<void> {
  await form.getByLabel(/^a\b/).fill('2');
  await form.getByLabel(/^b\b/).fill('3');
}

function openSession(name: string, settings: Record<string, unknown>): Promise<VsCodeFixture> {
  return VsCodeFixture.open({
    name,
    mcpJson: {
      kind: 'servers',
      comment: 'server-everything over stdio, for browse.e2e.ts',
      servers: { [SERVER]: everythingStdio() },
    },
    settings,
  });
}

/** Opens the MCP view, expands the server (its first start asks for consent) and waits for its tools. */
async function startFromTree(page: Page): Promise<void> {
  await openViewContainer(page, 'MCP Workbench');
  const serverRow = await waitForRow(page, SERVER);
  await clickUncovered(page, serverRow);
  const consent = await answerDialog(page, 'Allow and Start');
  assert.ok(consent.includes(EVERYTHING), `the confirmation shows the command line: ${consent}`);
  await waitForRow(page, 'get-sum');
}

/** get-sum through its row's inline action, the form, Ctrl+Enter, and the result view. */
async function callGetSum(page: Page, shot: string): Promise<void> {
  await inlineAction(page, 'get-sum', 'Call Tool');
  const form = await webviewFrame(page, 'the Call Tool form for get-sum', 'form input');
  await fillForm(form);
  await page.mouse.move(0, 0); // no hover highlight in the screenshot
  await screenshot(page, `${shot}-form`);
  await form.getByLabel(/^b\b/).press('Control+Enter');
  const result = await webviewFrame(page, 'the result view with the sum', `text=${SUM}`);
  assert.ok(await result.getByText(SUM).first().isVisible(), 'the sum is visible in the result view');
  await screenshot(page, `${shot}-result`);
}

test(
  'browsing in real VS Code: call get-sum from the tree, read a resource, get a prompt (light theme)',
  { timeout: 600_000 },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await openSession('browse', { 'workbench.colorTheme': 'Default Light Modern' });
      const { page } = session;
      await startFromTree(page);
      await screenshot(page, 'browse-01-tree');

      // Call Tool from the tool row's inline action; a=2, b=3, Ctrl+Enter.
      await callGetSum(page, 'browse-02-get-sum');

      // The Tools group is expanded by default; fold it so the other groups are in view.
      await clickUncovered(page, await waitForRow(page, 'Tools'));
      await waitUntil('the tools to fold away', async () =>
        (await row(page, 'get-sum').isVisible()) ? undefined : true,
      );

      // Resources: expand the group, click a document; it opens in a read-only mcp-workbench-resource: editor.
      await clickUncovered(page, await waitForRow(page, 'Resources'));
      await clickUncovered(page, await waitForRow(page, 'architecture.md'));
      const text = await waitForEditorText(page, 'the resource in an editor', 'Everything Server');
      assert.match(text, /Architecture/);
      const tab = page.locator('.tabs-container .tab.active').first();
      assert.match((await tab.getAttribute('aria-label')) ?? '', /architecture\.md/);
      await screenshot(page, 'browse-03-resource');

      // Get Prompt from the prompt row's inline action: simple-prompt has no arguments, its messages open as Markdown.
      await clickUncovered(page, await waitForRow(page, 'Resources'));
      await clickUncovered(page, await waitForRow(page, 'Prompts'));
      await inlineAction(page, 'simple-prompt', 'Get Prompt');
      const markdown = await waitForEditorText(
        page,
        'the prompt as Markdown',
        'This is a simple prompt without arguments.',
      );
      assert.match(markdown, /simple-prompt/);
      await page.mouse.move(0, 0);
      await screenshot(page, 'browse-04-prompt');

      // completable-prompt: typing "E" highlights the server's "Engineering" (VS Code's own sort draws the typed "E"
      // above it), and Enter takes it; the second argument's suggestions then come from that department (trial 2.17).
      await inlineAction(page, 'completable-prompt', 'Get Prompt');
      await typeInQuickInput(page, 'E', { submit: false });
      const highlighted = page
        .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused')
        .filter({ has: page.locator('.label-name', { hasText: /^Engineering$/ }) });
      await waitFor(page, 'the suggestion "Engineering" highlighted after typing "E"', () =>
        highlighted.first().waitFor({ state: 'visible', timeout: 30_000 }),
      );
      await screenshot(page, 'browse-05-completion');
      await page.keyboard.press('Enter');
      await quickPick(page, 'Alice');
      const promoted = await waitForEditorText(
        page,
        'the completed prompt as Markdown',
        'Please promote Alice to the head of the Engineering team.',
      );
      assert.match(promoted, /completable-prompt/);
    } finally {
      await session?.dispose();
    }
  },
);

test('browsing in real VS Code: the form and the result view follow the dark theme', { timeout: 600_000 }, async () => {
  let session: VsCodeFixture | undefined;
  try {
    session = await openSession('browse-dark', { 'workbench.colorTheme': 'Default Dark Modern' });
    const { page } = session;
    await startFromTree(page);
    await callGetSum(page, 'browse-dark-get-sum');
    const form = await webviewFrame(page, 'the Call Tool form', 'form input');
    // The webview gets the theme's colours as CSS variables; the form must use them, not a fixed light palette.
    const background = await form.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    assert.ok(
      r !== undefined && g !== undefined && b !== undefined && r + g + b < 200,
      `dark theme form background: ${background}`,
    );
    // Native control parts (the number spinners) too: a light spinner box on a dark input was the bug.
    const scheme = await form.evaluate(
      () => getComputedStyle(document.querySelector('input[type=number]') ?? document.body).colorScheme,
    );
    assert.equal(scheme, 'dark', 'color-scheme of the form controls in the dark theme');
  } finally {
    await session?.dispose();
  }
});
