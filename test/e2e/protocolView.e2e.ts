/**
 * End-to-end Show Protocol in a real VS Code (code-server) driven from Chromium: server-everything is started from
 * the Servers view, Show Protocol is opened from the command palette, get-sum is called from its form, and the
 * Protocol page fills with the tools/call request and its paired response (with a duration); typing "tools/call"
 * in the method filter narrows the list to those rows; the detail pane shows the pretty JSON. Screenshot:
 * test-results/e2e/protocol-view.png.
 *
 * Run: node --import tsx --test test/e2e/protocolView.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import type { Frame } from 'playwright-core';
import { processesMatching } from '../integration/support';
import {
  answerDialog,
  EVERYTHING_SERVER_JS,
  inlineAction,
  installVsix,
  openViewContainer,
  openWorkbench,
  pane,
  prepareCodeServer,
  PRODUCT_VSIX,
  REPO_ROOT,
  quickPick,
  runPickerCommand,
  screenshot,
  startCodeServer,
  visibleRow,
  waitUntil,
  webviewFrame,
} from './harness';

const execFileAsync = promisify(execFile);
const SERVER = 'everything';

async function rowMethods(frame: Frame): Promise<string[]> {
  return frame.locator('#list .row').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.method ?? ''));
}

test('Show Protocol in real VS Code: the view fills while a tool is called, and the method filter narrows it', { timeout: 600_000 }, async () => {
  await prepareCodeServer();
  if (!process.env.MCP_E2E_VSIX) await execFileAsync('npm', ['run', 'package'], { cwd: REPO_ROOT, timeout: 180_000, env: { ...process.env, CI: 'true' } });
  assert.ok(fs.existsSync(PRODUCT_VSIX), `the VSIX ${PRODUCT_VSIX} is missing (npm run package writes it)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-protocol-'));
  const workspace = path.join(tmp, 'workspace');
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { [SERVER]: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER_JS, 'stdio', '${workspaceFolder}'] } } }, null, 2),
  );
  await installVsix(PRODUCT_VSIX, extensionsDir, userDataDir);
  const server = await startCodeServer({ workspace, extensionsDir, userDataDir, settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
  let workbench: Awaited<ReturnType<typeof openWorkbench>> | undefined;
  try {
    workbench = await openWorkbench(server.url, workspace);
    const { page } = workbench;
    await openViewContainer(page, 'MCP');
    const servers = pane(page, 'Servers');
    await visibleRow(page, servers, SERVER);
    // Opened before the server starts, the view shows the session from its first message.
    await runPickerCommand(page, 'MCP Workbench: Show Protocol');
    await quickPick(page, SERVER);
    const protocol = await webviewFrame(page, 'the Protocol view', '#list');
    assert.equal(Number(await protocol.locator('#list').getAttribute('data-total')), 0, 'nothing yet: the server is stopped');

    await (await visibleRow(page, servers, SERVER)).click();
    await answerDialog(page, 'Allow and Start');
    await visibleRow(page, servers, 'get-sum');
    const handshake = await webviewFrame(page, 'the handshake in the Protocol view', '#list .row[data-method="initialize"]');
    const before = Number(await handshake.locator('#list').getAttribute('data-total'));

    await inlineAction(page, await visibleRow(page, servers, 'get-sum'), 'Call Tool');
    const form = await webviewFrame(page, 'the Call Tool form for get-sum', 'form input');
    await form.getByLabel(/^a\b/).fill('2');
    await form.getByLabel(/^b\b/).fill('3');
    await form.getByLabel(/^b\b/).press('Control+Enter');
    await webviewFrame(page, 'the result view with the sum', 'text=The sum of 2 and 3 is 5.');

    // The Protocol tab is behind the form now: bring it back and read it.
    await page.locator('.tab', { hasText: `Protocol: ${SERVER}` }).first().click();
    const view = await webviewFrame(page, 'the Protocol view with the tools/call rows', '#list .row[data-method="tools/call"]');
    const total = await waitUntil('the call and its answer in the Protocol view', async () => {
      const count = Number(await view.locator('#list').getAttribute('data-total'));
      const calls = (await rowMethods(view)).filter((method) => method === 'tools/call').length;
      return count > before && calls >= 2 ? count : undefined;
    }, 30_000);
    const durations = await view.locator('#list .row[data-method="tools/call"] .cell.duration').allTextContents();
    assert.ok(durations.some((text) => /^\d+ ms$/.test(text)), `the response shows the request's duration: ${JSON.stringify(durations)}`);

    await view.locator('#filter-method').fill('tools/call');
    const narrowed = await waitUntil('the filter narrows the list', async () => {
      const shown = Number(await view.locator('#list').getAttribute('data-shown'));
      return shown > 0 && shown < total ? shown : undefined;
    }, 15_000);
    const methods = await rowMethods(view);
    assert.equal(methods.length, narrowed, 'only the rows that pass are drawn');
    assert.ok(methods.every((method) => method === 'tools/call'), `every row shown is tools/call: ${JSON.stringify(methods)}`);

    await view.locator('#list .row[data-method="tools/call"]').last().click();
    await view.locator('#detail pre.json', { hasText: '"result"' }).waitFor({ state: 'visible', timeout: 15_000 });
    await page.mouse.move(0, 0);
    await screenshot(page, 'protocol-view');
  } finally {
    await workbench?.close();
    await server.stop();
    const left = await waitUntil('server-everything processes to end', () => (processesMatching(EVERYTHING_SERVER_JS, workspace).length === 0 ? [] : undefined), 15_000).catch(
      () => processesMatching(EVERYTHING_SERVER_JS, workspace),
    );
    fs.rmSync(tmp, { recursive: true, force: true });
    assert.deepEqual(left, [], 'server-everything processes from this test are still running');
  }
});
