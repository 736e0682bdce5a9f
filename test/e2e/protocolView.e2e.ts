/**
 * End-to-end Show Protocol in a real VS Code (code-server) driven from Chromium: server-everything is started from
 * the Servers view, Show Protocol is opened from the command palette, get-sum is called from its form, and the
 * Protocol page fills with the tools/call request and its paired response (with a duration); typing "tools/call"
 * in the method filter narrows the list to those rows; the detail pane shows the pretty JSON. Screenshot:
 * test-results/e2e/protocol-view.png. The page itself (media/protocol/protocol.js) is also loaded alone in Chromium
 * with 100,000 events: only the rows on screen are in the DOM, wherever it is scrolled, and a filter narrows them.
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
import { chromium, type Frame } from 'playwright-core';
import { processesMatching } from '../integration/support';
import {
  answerDialog,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  clickUncovered,
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
  picture,
} from './harness';

const execFileAsync = promisify(execFile);
const SERVER = 'everything';

async function rowMethods(frame: Frame): Promise<string[]> {
  return frame
    .locator('#list .row')
    .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.method ?? ''));
}

test(
  'Show Protocol in real VS Code: the view fills while a tool is called, and the method filter narrows it',
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
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-protocol-'));
    const workspace = path.join(tmp, 'workspace');
    const extensionsDir = path.join(tmp, 'extensions');
    const userDataDir = path.join(tmp, 'user-data');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
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
      settings: { 'workbench.colorTheme': 'Default Dark Modern' },
    });
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
      assert.equal(
        Number(await protocol.locator('#list').getAttribute('data-total')),
        0,
        'nothing yet: the server is stopped',
      );

      await clickUncovered(page, await visibleRow(page, servers, SERVER));
      await answerDialog(page, 'Allow and Start');
      await visibleRow(page, servers, 'get-sum');
      const handshake = await webviewFrame(
        page,
        'the handshake in the Protocol view',
        '#list .row[data-method="initialize"]',
      );
      const before = Number(await handshake.locator('#list').getAttribute('data-total'));
      // The initialize request is labelled with the revision its payload asks for (era auto probed with 2026-07-28 first).
      const initializeRow = handshake.locator('#list .row[data-method="initialize"]').first();
      await initializeRow.click();
      const asked = JSON.parse((await handshake.locator('#detail pre.json').textContent({ timeout: 15_000 })) ?? '{}')
        .params?.protocolVersion;
      assert.equal(typeof asked, 'string', 'the initialize request asks for a revision');
      assert.equal(
        await initializeRow.locator('.cell.era').textContent(),
        asked,
        'its row says the revision it asks for',
      );
      assert.match((await handshake.locator('#detail strong').textContent()) ?? '', new RegExp(`${asked}$`));

      await inlineAction(page, await visibleRow(page, servers, 'get-sum'), 'Call Tool');
      const form = await webviewFrame(page, 'the Call Tool form for get-sum', 'form input');
      await form.getByLabel(/^a\b/).fill('2');
      await form.getByLabel(/^b\b/).fill('3');
      await form.getByLabel(/^b\b/).press('Control+Enter');
      await webviewFrame(page, 'the result view with the sum', 'text=The sum of 2 and 3 is 5.');

      // The Protocol tab is behind the form now: bring it back and read it.
      await page
        .locator('.tab', { hasText: `Protocol: ${SERVER}` })
        .first()
        .click();
      const view = await webviewFrame(
        page,
        'the Protocol view with the tools/call rows',
        '#list .row[data-method="tools/call"]',
      );
      const total = await waitUntil(
        'the call and its answer in the Protocol view',
        async () => {
          const count = Number(await view.locator('#list').getAttribute('data-total'));
          const calls = (await rowMethods(view)).filter((method) => method === 'tools/call').length;
          return count > before && calls >= 2 ? count : undefined;
        },
        30_000,
      );
      const durations = await view.locator('#list .row[data-method="tools/call"] .cell.duration').allTextContents();
      assert.ok(
        durations.some((text) => /^\d+ ms$/.test(text)),
        `the response shows the request's duration: ${JSON.stringify(durations)}`,
      );

      // A filter that shrinks a list scrolled to its end draws its rows at once, in the same turn: with the view only
      // a few rows high, the rows drawn before stand far past the new list's end (they once made it draw nothing
      // until a scroll event came).
      const drawnAtOnce = await view.locator('#list').evaluate((list) => {
        const viewport = list as HTMLElement;
        viewport.style.height = '66px';
        viewport.scrollTop = viewport.scrollHeight;
        viewport.dispatchEvent(new Event('scroll'));
        const input = document.getElementById('filter-method') as HTMLInputElement;
        input.value = 'tools/call';
        input.dispatchEvent(new Event('input'));
        const drawn = viewport.querySelectorAll('.row').length;
        viewport.style.height = '';
        return { shown: Number(viewport.dataset.shown), drawn, total: Number(viewport.dataset.total) };
      });
      assert.ok(drawnAtOnce.total > 16, `enough rows to scroll past the overscan: ${JSON.stringify(drawnAtOnce)}`);
      assert.equal(
        drawnAtOnce.drawn,
        drawnAtOnce.shown,
        `the filtered rows are drawn at once: ${JSON.stringify(drawnAtOnce)}`,
      );
      await view.locator('#filter-method').fill('tools/call');
      const narrowed = await waitUntil(
        'the filter narrows the list',
        async () => {
          const shown = Number(await view.locator('#list').getAttribute('data-shown'));
          return shown > 0 && shown < total ? shown : undefined;
        },
        15_000,
      );
      const methods = await rowMethods(view);
      assert.equal(methods.length, narrowed, 'only the rows that pass are drawn');
      assert.ok(
        methods.every((method) => method === 'tools/call'),
        `every row shown is tools/call: ${JSON.stringify(methods)}`,
      );

      await view.locator('#list .row[data-method="tools/call"]').last().click();
      await view.locator('#detail pre.json', { hasText: '"result"' }).waitFor({ state: 'visible', timeout: 15_000 });
      // The answer names its request by JSON-RPC id and by row, never one number for both.
      const head = (await view.locator('#detail strong').textContent()) ?? '';
      const [, id, row] = /answers request id (\d+) \(row (\d+)\)/.exec(head) ?? [];
      assert.ok(id !== undefined && row !== undefined, `the detail says which request it answers: ${head}`);
      assert.match(head, new RegExp(`\\bid ${id}\\b`), 'the answer has the id of its request');
      await view.locator('#go-to-related').click();
      await view.locator('#detail strong', { hasText: `Row ${row} ` }).waitFor({ state: 'visible', timeout: 15_000 });
      await page.mouse.move(0, 0);
      await screenshot(page, 'protocol-view');
      await picture(page, 'protocol-view');

      // Replay (issue 40): the request is sent again to the same server, with a fresh id, and its rows are marked.
      await view.locator('#replay').click();
      const replayed = view.locator('#list .row[data-method="tools/call"]', { hasText: `replay of row ${row}` });
      await waitUntil(
        'the replayed request and its answer in the Protocol view',
        async () => ((await replayed.count()) >= 2 ? true : undefined),
        30_000,
      );
      await replayed.first().click();
      const replayHead = (await view.locator('#detail strong').textContent()) ?? '';
      const [, newId] = /→ Sent\s+request\s+tools\/call\s+id (\d+)/.exec(replayHead) ?? [];
      assert.ok(newId !== undefined && newId !== id, `the replay has a fresh id (${id} before): ${replayHead}`);
      assert.match(replayHead, new RegExp(`replay of row ${row}\\b`));
      assert.match((await view.locator('#detail pre.json').textContent()) ?? '', /"get-sum"/);
    } finally {
      await workbench?.close();
      await server.stop();
      const left = await waitUntil(
        'server-everything processes to end',
        () => (processesMatching(EVERYTHING_SERVER_JS, workspace).length === 0 ? [] : undefined),
        15_000,
      ).catch(() => processesMatching(EVERYTHING_SERVER_JS, workspace));
      fs.rmSync(tmp, { recursive: true, force: true });
      assert.deepEqual(left, [], 'server-everything processes from this test are still running');
    }
  },
);

test(
  'the Protocol page keeps only the rows on screen in its DOM with 100,000 events, scrolled anywhere and filtered',
  { timeout: 120_000 },
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.setContent(
        '<!DOCTYPE html><html><body><div id="app"></div><script type="application/json" id="initial-state">{"strings":{}}</script></body></html>',
      );
      // Plain script text: functions passed from this file would carry the TypeScript loader's helpers into the page.
      await page.addScriptTag({
        content:
          'window.posted = []; window.acquireVsCodeApi = function () { return { postMessage: function (m) { window.posted.push(m); }, getState: function () {}, setState: function (s) { return s; } }; };',
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.addStyleTag({ path: path.join(REPO_ROOT, 'media', 'protocol', 'protocol.css') });
      await page.addScriptTag({ path: path.join(REPO_ROOT, 'media', 'protocol', 'protocol.js') });
      assert.deepEqual(pageErrors, [], 'the page script runs without errors');
      await page.waitForFunction(() =>
        (window as unknown as { posted: { type: string }[] }).posted.some((message) => message.type === 'ready'),
      );
      await page.addScriptTag({
        content: `(function () {
        var events = [];
        for (var index = 0; index < 100000; index++) {
          var response = index % 2 === 1;
          var id = Math.floor(index / 2);
          var event = { kind: 'message', seq: index + 1, time: 1700000000000 + index, direction: response ? 'receive' : 'send', messageKind: response ? 'result' : 'request',
            method: id % 10 === 0 ? 'tools/list' : 'tools/call', id: id, size: 64, truncated: false,
            text: JSON.stringify(response ? { jsonrpc: '2.0', id: id, result: { n: index } } : { jsonrpc: '2.0', id: id, method: 'tools/call', params: { n: index } }) };
          if (response) { event.relatedSeq = index; event.durationMs = 2; }
          events.push(event);
        }
        window.postMessage({ type: 'reset', json: new TextEncoder().encode(JSON.stringify({ events: events, dropped: 0 })) }, '*');
      })();`,
      });
      await page
        .waitForFunction(() => document.getElementById('list')?.dataset.total === '100000', undefined, {
          timeout: 60_000,
        })
        .catch(async (error: unknown) => {
          throw new Error(
            `${String(error)}; page errors: ${pageErrors.join('; ')}; total: ${await page.locator('#list').getAttribute('data-total')}`,
          );
        });
      const drawn = () => page.locator('#list .row').count();
      const atEnd = await drawn();
      assert.ok(atEnd > 0 && atEnd < 200, `rows in the DOM at the end: ${atEnd}`);
      const lastSeq = await page
        .locator('#list .row')
        .evaluateAll((rows) => Math.max(...rows.map((row) => Number((row as HTMLElement).dataset.seq))));
      assert.equal(lastSeq, 100_000, 'following the log, the newest row is drawn');

      await page.evaluate(() => {
        const list = document.getElementById('list')!;
        list.scrollTop = list.scrollHeight / 2;
        list.dispatchEvent(new Event('scroll'));
      });
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('#list .row')).some(
          (row) => Math.abs(Number((row as HTMLElement).dataset.seq) - 50_000) < 100,
        ),
      );
      const inMiddle = await drawn();
      assert.ok(inMiddle < 200, `rows in the DOM in the middle: ${inMiddle}`);

      await page.locator('#filter-method').fill('tools/list');
      await page.waitForFunction(() => document.getElementById('list')?.dataset.shown === '10000');
      const methods = await page
        .locator('#list .row')
        .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.method));
      assert.ok(
        methods.length > 0 && methods.length < 200 && methods.every((method) => method === 'tools/list'),
        `filtered rows: ${methods.length}`,
      );

      await page.locator('#filter-method').fill('');
      await page.locator('#filter-direction').selectOption('receive');
      await page.waitForFunction(() => document.getElementById('list')?.dataset.shown === '50000');
      await page.locator('#list .row').last().click();
      await page.locator('#detail pre.json', { hasText: '"result"' }).waitFor({ state: 'visible' });
    } finally {
      await browser.close();
    }
  },
);

test(
  'the Protocol page: Replay, Edit and Send (with the refusal shown), Pin above the list and Compare, by keyboard',
  { timeout: 120_000 },
  async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      await page.setContent(
        '<!DOCTYPE html><html><body><div id="app"></div><script type="application/json" id="initial-state">{"strings":{}}</script></body></html>',
      );
      await page.addScriptTag({
        content:
          'window.posted = []; window.acquireVsCodeApi = function () { return { postMessage: function (m) { window.posted.push(m); }, getState: function () {}, setState: function (s) { return s; } }; };',
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.addStyleTag({ path: path.join(REPO_ROOT, 'media', 'protocol', 'protocol.css') });
      await page.addScriptTag({ path: path.join(REPO_ROOT, 'media', 'protocol', 'protocol.js') });
      const posted = () =>
        page.evaluate(() => (window as unknown as { posted: Record<string, unknown>[] }).posted.slice());
      await page.addScriptTag({
        content: `(function () {
        var request = { kind: 'message', seq: 1, time: 1700000000000, direction: 'send', messageKind: 'request', method: 'tools/call', id: 4, size: 64, truncated: false,
          text: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }) };
        var answer = { kind: 'message', seq: 2, time: 1700000000005, direction: 'receive', messageKind: 'result', method: 'tools/call', id: 4, size: 64, truncated: false,
          relatedSeq: 1, relatedId: 4, durationMs: 5, text: JSON.stringify({ jsonrpc: '2.0', id: 4, result: { content: [] } }) };
        window.postMessage({ type: 'reset', json: new TextEncoder().encode(JSON.stringify({ events: [request, answer], dropped: 0 })) }, '*');
      })();`,
      });
      await page.locator('#list .row[data-seq="1"]').waitFor({ state: 'visible' });
      // Keyboard only: the list takes the focus, arrows select, Tab reaches the detail's buttons.
      await page.locator('#list').focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await page.locator('#detail strong', { hasText: 'rowNumber' }).waitFor({ state: 'visible' });
      await page.locator('#replay').focus();
      await page.keyboard.press('Enter');
      assert.deepEqual((await posted()).at(-1), { type: 'replay', seq: 1 });

      await page.locator('#edit-send').focus();
      await page.keyboard.press('Enter');
      const editor = page.locator('#edit-text');
      assert.equal(await editor.evaluate((node) => node === document.activeElement), true, 'the editor has the focus');
      assert.match(await editor.inputValue(), /"message": "hi"/, 'it opens with the request as pretty JSON');
      await editor.fill('{"jsonrpc":"2.0","id":9,"method":"initialize"}');
      await page.keyboard.press('Control+Enter');
      assert.deepEqual((await posted()).at(-1), {
        type: 'send',
        seq: 1,
        text: '{"jsonrpc":"2.0","id":9,"method":"initialize"}',
      });
      await page.evaluate(() =>
        window.postMessage({ type: 'sendResult', seq: 1, outcome: { kind: 'refused', reason: 'the reason' } }, '*'),
      );
      await page.locator('#send-note', { hasText: 'the reason' }).waitFor({ state: 'visible' });
      assert.equal(await editor.inputValue(), '{"jsonrpc":"2.0","id":9,"method":"initialize"}', 'the edit is kept');

      await page.locator('#pin').click();
      assert.deepEqual((await posted()).at(-1), { type: 'pin', seq: 1 });
      // The extension answers with the pinned rows; they stay when the log is cleared (a reset with no events).
      await page.addScriptTag({
        content: `(function () {
        var request = { kind: 'message', seq: 1, time: 1700000000000, direction: 'send', messageKind: 'request', method: 'tools/call', id: 4, size: 64, truncated: false, text: '{}' };
        window.postMessage({ type: 'pins', json: new TextEncoder().encode(JSON.stringify({ events: [request], dropped: 0 })) }, '*');
        window.postMessage({ type: 'reset', json: new TextEncoder().encode(JSON.stringify({ events: [], dropped: 0 })) }, '*');
      })();`,
      });
      const pinned = page.locator('#pinned .row[data-seq="1"]');
      await pinned.waitFor({ state: 'visible' });
      assert.equal(await page.locator('#list .row').count(), 0, 'the list was cleared');
      await pinned.focus();
      await page.keyboard.press('Enter');
      await page.locator('#pin', { hasText: 'unpin' }).waitFor({ state: 'visible' });

      // Compare: choose one row, then the other.
      await page.locator('#compare').click();
      await page.locator('#compare', { hasText: 'compareChosen' }).waitFor({ state: 'visible' });
      await page.evaluate(() => {
        const answer = {
          kind: 'message',
          seq: 3,
          time: 1700000000009,
          direction: 'receive',
          messageKind: 'result',
          id: 4,
          size: 9,
          truncated: false,
          text: '{"result":{}}',
        };
        window.postMessage(
          {
            type: 'append',
            json: new TextEncoder().encode(JSON.stringify({ events: [answer], dropped: 0 })),
          },
          '*',
        );
      });
      await page.locator('#list .row[data-seq="3"]').click();
      await page.locator('#compare', { hasText: 'compareWith' }).click();
      assert.deepEqual((await posted()).at(-1), { type: 'compare', left: 1, right: 3 });
      assert.deepEqual(pageErrors, [], 'the page script runs without errors');
    } finally {
      await browser.close();
    }
  },
);
