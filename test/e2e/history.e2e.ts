/**
 * End-to-end History view in a real VS Code (code-server 4.100.3) driven from Chromium, as a person would: get-sum is
 * called from the Servers view's tool row (a=2, b=3, Ctrl+Enter); the call appears in the History view under its
 * server; the row's inline "Re-run" opens the Call form prefilled with a=2 and b=3; after Reload Window the entry is
 * still there (History is kept in the workspace's storage). Screenshots of the History view:
 * test-results/e2e/history-light.png, history-dark.png and history-dark-after-reload.png.
 *
 * Run: node --import tsx --test test/e2e/history.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import type { Locator, Page } from 'playwright-core';
import { processesMatching } from '../integration/support';
import {
  answerDialog,
  clickUncovered,
  EVERYTHING_SERVER_JS,
  inlineAction,
  installVsix,
  openViewContainer,
  openWorkbench,
  pane,
  prepareCodeServer,
  runCommand,
  PRODUCT_VSIX,
  REPO_ROOT,
  screenshot,
  startCodeServer,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
  type CodeServerHandle,
  type Workbench,
  picture,
} from './harness';

const execFileAsync = promisify(execFile);
const SERVER = 'everything';
const SUM = 'The sum of 2 and 3 is 5.';

interface Session {
  tmp: string;
  workspace: string;
  server: CodeServerHandle;
  workbench: Workbench;
}

async function openSession(name: string, theme: string): Promise<Session> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-e2e-${name}-`));
  const workspace = path.join(tmp, 'workspace');
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  // The trailing workspace path is ignored by the server and lets the test find its process.
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          [SERVER]: {
            type: 'stdio',
            command: process.execPath,
            args: [EVERYTHING_SERVER_JS, 'stdio', '${workspaceFolder}'],
          },
        },
      },
      null,
      2,
    ),
  );
  await installVsix(PRODUCT_VSIX, extensionsDir, userDataDir);
  const server = await startCodeServer({
    workspace,
    extensionsDir,
    userDataDir,
    settings: { 'workbench.colorTheme': theme },
  });
  try {
    const workbench = await openWorkbench(server.url, workspace);
    return { tmp, workspace, server, workbench };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function closeSession(session: Session | undefined): Promise<void> {
  if (!session) return;
  await session.workbench.close();
  await session.server.stop();
  const left = await waitUntil(
    'server-everything processes to end',
    () => (processesMatching(EVERYTHING_SERVER_JS, session.workspace).length === 0 ? [] : undefined),
    15_000,
  ).catch(() => processesMatching(EVERYTHING_SERVER_JS, session.workspace));
  fs.rmSync(session.tmp, { recursive: true, force: true });
  assert.deepEqual(left, [], 'server-everything processes from this test are still running');
}

/** Expands the History pane if it is collapsed. */
async function openHistoryPane(page: Page): Promise<Locator> {
  const history = pane(page, 'History');
  const header = history.locator('.pane-header').first();
  await waitFor(page, 'the History pane header', () => header.waitFor({ state: 'visible', timeout: 30_000 }));
  if ((await header.getAttribute('aria-expanded')) !== 'true') await clickUncovered(page, header);
  return history;
}

/** Starts server-everything from the tree and calls get-sum with a=2, b=3 through the form. */
async function callGetSum(page: Page): Promise<void> {
  await openViewContainer(page, 'MCP');
  const servers = pane(page, 'Servers');
  await clickUncovered(page, await visibleRow(page, servers, SERVER));
  await answerDialog(page, 'Allow and Start');
  await inlineAction(page, await visibleRow(page, servers, 'get-sum'), 'Call Tool');
  const form = await webviewFrame(page, 'the Call Tool form for get-sum', 'form input');
  await form.getByLabel(/^a\b/).fill('2');
  await form.getByLabel(/^b\b/).fill('3');
  await form.getByLabel(/^b\b/).press('Control+Enter');
  await webviewFrame(page, 'the result view with the sum', `text=${SUM}`);
  // Fold the Servers view's tools so the History view has room.
  await clickUncovered(page, await visibleRow(page, servers, 'Tools'));
}

test(
  'History in real VS Code: a call appears under its server, and Re-run opens the form prefilled (light theme)',
  { timeout: 600_000 },
  async () => {
    await prepareCodeServer();
    if (!process.env.MCP_E2E_VSIX)
      await execFileAsync('npm', ['run', 'package'], {
        cwd: REPO_ROOT,
        timeout: 180_000,
        env: { ...process.env, CI: 'true' },
      });
    assert.ok(fs.existsSync(PRODUCT_VSIX), `the VSIX ${PRODUCT_VSIX} is missing (npm run package writes it)`);
    let session: Session | undefined;
    try {
      session = await openSession('history', 'Default Light Modern');
      const { page } = session.workbench;
      await callGetSum(page);
      const history = await openHistoryPane(page);
      await visibleRow(page, history, SERVER);
      const entry = await visibleRow(page, history, 'get-sum');
      const description = (await entry.locator('.label-description').first().textContent()) ?? '';
      assert.match(description, /\d+ ms · succeeded/, `History row description: ${description}`);
      await page.mouse.move(0, 0);
      await screenshot(page, 'history-light');
      await picture(page, 'history');

      // The open get-sum form is replaced by one prefilled with the entry's arguments.
      // The form still open from the call shows other values now, so only a form prefilled from the entry has a=2.
      const openForm = await webviewFrame(page, 'the Call Tool form still open', 'form input');
      await openForm.getByLabel(/^a\b/).fill('9');
      await inlineAction(page, entry, 'Re-run');
      // The frame of the form shown before may still be found while its page is being replaced: look again each time,
      // and a frame detached meanwhile is simply not the prefilled form yet.
      await waitUntil(
        'the form prefilled with a=2, b=3',
        async () => {
          const form = await webviewFrame(page, 'the prefilled Call Tool form', 'form input');
          const a = await form
            .getByLabel(/^a\b/)
            .inputValue({ timeout: 2_000 })
            .catch(() => undefined);
          const b = await form
            .getByLabel(/^b\b/)
            .inputValue({ timeout: 2_000 })
            .catch(() => undefined);
          return a === '2' && b === '3' ? true : undefined;
        },
        20_000,
      );
      await screenshot(page, 'history-light-rerun-form');
    } finally {
      await closeSession(session);
    }
  },
);

test('History in real VS Code: the view follows the dark theme', { timeout: 600_000 }, async () => {
  await prepareCodeServer();
  assert.ok(fs.existsSync(PRODUCT_VSIX), `the VSIX ${PRODUCT_VSIX} is missing (npm run package writes it)`);
  let session: Session | undefined;
  try {
    session = await openSession('history-dark', 'Default Dark Modern');
    const { page } = session.workbench;
    await callGetSum(page);
    const history = await openHistoryPane(page);
    await visibleRow(page, history, 'get-sum');
    const background = await page
      .locator('.part.sidebar')
      .first()
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    assert.ok(
      r !== undefined && g !== undefined && b !== undefined && r + g + b < 200,
      `dark side bar background: ${background}`,
    );
    await page.mouse.move(0, 0);
    await screenshot(page, 'history-dark');

    // Reload Window (as adding a second folder does): the entry is still in History. A mark on the old page tells
    // the reloaded one apart.
    await page.evaluate(() => ((window as unknown as { __beforeReload?: boolean }).__beforeReload = true));
    await runCommand(page, 'Developer: Reload Window');
    await waitFor(page, 'the reloaded workbench', async () => {
      await waitUntil(
        'the page to reload',
        async () =>
          (await page
            .evaluate(() => (window as unknown as { __beforeReload?: boolean }).__beforeReload)
            .catch(() => true))
            ? undefined
            : true,
        60_000,
      );
      await page.locator('.part.activitybar').first().waitFor({ state: 'visible', timeout: 60_000 });
    });
    // The reloaded window may restore the side bar, or not, while it starts: the view's own focus command opens it
    // either way (the activity bar's "checked" state can be read before the restore has settled).
    await runCommand(page, 'MCP Workbench: Focus on History View');
    const reloaded = await openHistoryPane(page);
    await visibleRow(page, reloaded, SERVER);
    const kept = await visibleRow(page, reloaded, 'get-sum');
    assert.match((await kept.locator('.label-description').first().textContent()) ?? '', /succeeded/);
    await page.mouse.move(0, 0);
    await screenshot(page, 'history-dark-after-reload');
  } finally {
    await closeSession(session);
  }
});
