/**
 * The published ext-apps debug example (@modelcontextprotocol/server-debug, the app that exercises the bridge) in a
 * real VS Code (code-server) driven from Chromium, offline. The debug app reports every event it sees by calling
 * its own app-only tool `debug-log`, which the server appends to a file (`--log-file`): reading that file shows
 * what the app received and that its server tool calls went through the host to the server and back.
 *   - debug-tool is in the tree; its app-only tools (debug-refresh, debug-log) are not;
 *   - calling debug-tool draws its app, which gets the tool input and result (its ontoolinput/ontoolresult reach the
 *     server's file through debug-log);
 *   - the app calls its server's debug-refresh and gets the server's answer;
 *   - its log reaches the server's log in VS Code;
 *   - its model context update is shown by the host with the result;
 *   - a link asks first (the URL shown is the app's), and declining answers the app with isError;
 *   - its size request resizes its frame (auto-resize off, 400x300: the frame, and the app's window, are 300 px high).
 * Screenshot: test-results/e2e/apps-debug-01.png.
 *
 * Run: node --import tsx --test test/e2e/appsDebug.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  clickUncovered,
  inlineAction,
  openViewContainer,
  pane,
  paneRows,
  REPO_ROOT,
  screenshot,
  visibleRow,
  waitUntil,
  webviewFrame,
} from './harness';

const DEBUG_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-debug', 'dist', 'index.js');
const EVENTS_FILE = 'debug-app-events.jsonl';

interface AppEvent {
  type: string;
  payload: unknown;
}

/**
 * The events the debug app reported through its debug-log tool, as the server wrote them: one JSON line each, appended
 * (appendFileSync). Only the lines that end in their newline are read: the last one may be read while it is being
 * appended, cut short, and a JSON.parse of it would throw out of the wait.
 */
function appEvents(workspace: string): AppEvent[] {
  const file = path.join(workspace, EVENTS_FILE);
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AppEvent);
}

function waitForEvent(workspace: string, what: string, matches: (event: AppEvent) => boolean): Promise<AppEvent> {
  return waitUntil(what, () => appEvents(workspace).find(matches), 60_000).catch((error: unknown) => {
    throw new Error(
      `${String(error)}; the app reported: ${appEvents(workspace)
        .map((event) => event.type)
        .join(', ')}`,
    );
  });
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

test(
  'the ext-apps debug app in real VS Code: drawn, calling its server, logging, model context, link consent, size',
  {
    timeout: 600_000,
  },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'apps-debug',
        mcpJson: {
          kind: 'servers',
          comment: 'the ext-apps debug example, for appsDebug.e2e.ts',
          servers: {
            debug: {
              type: 'stdio',
              command: process.execPath,
              args: [DEBUG_SERVER, '--stdio', `--log-file=\${workspaceFolder}/${EVENTS_FILE}`],
            },
          },
        },
        settings: { 'workbench.colorTheme': 'Default Dark Modern' },
      });
      const { page, workspace } = session;
      await openViewContainer(page, 'MCP Workbench');
      const servers = pane(page, 'Servers');
      await clickUncovered(page, await visibleRow(page, servers, 'debug'));
      await answerDialog(page, 'Allow and Start');
      const toolRow = await visibleRow(page, servers, 'debug-tool');
      assert.equal(
        await paneRows(servers, 'debug-refresh').count(),
        0,
        'the app-only debug-refresh is not in the tree',
      );
      assert.equal(await paneRows(servers, 'debug-log').count(), 0, 'the app-only debug-log is not in the tree');

      // The call draws the app; it hears the input and the result, and says so through its server tool debug-log.
      await inlineAction(page, toolRow, 'Call Tool');
      const form = await webviewFrame(page, 'the Call Tool form for debug-tool', 'text=Comprehensive debug tool');
      await form.locator('#submit').click();
      const app = await webviewFrame(page, 'the debug app', '#call-debug-refresh-btn');
      await waitForEvent(workspace, 'the app to report the tool input', (event) => event.type === 'ontoolinput');
      const result = await waitForEvent(
        workspace,
        'the app to report the tool result',
        (event) => event.type === 'ontoolresult',
      );
      assert.match(JSON.stringify(result.payload), /Debug text content/, "the app got debug-tool's result");

      // Calling a server tool from the app: debug-refresh's answer comes back from the server.
      await app.locator('#call-debug-refresh-btn').click();
      const refreshed = await waitForEvent(
        workspace,
        'debug-refresh to answer the app',
        (event) =>
          event.type === 'server-tool-result' && /Server timestamp: \d{4}-/.test(JSON.stringify(event.payload)),
      );
      assert.doesNotMatch(JSON.stringify(refreshed.payload), /"isError":true/);

      // Logging: the app's log reaches the server's log in VS Code.
      await app.locator('#log-data').fill('log line from the debug app');
      await app.locator('#log-warning-btn').click();
      await waitUntil("the app's log in the server's log", () =>
        /app of debug-tool: log line from the debug app/.test(session?.extensionLog('MCP Workbench debug') ?? '')
          ? true
          : undefined,
      );

      // Model context: the host keeps it and shows it with the app.
      await app.locator('#context-text').fill('the user picked row 3');
      await app.locator('#update-context-text-btn').click();
      await waitForEvent(
        workspace,
        'the model context update to be answered',
        (event) => event.type === 'update-context',
      );
      const hostPage = await webviewFrame(page, "the debug app's page", '#app-context');
      await waitUntil('the model context shown by the host', async () =>
        (await textOf(hostPage, '#app-context')) === 'the user picked row 3' ? true : undefined,
      );

      // A link asks first, naming the server and showing the app's URL; declined, the app hears isError.
      await app.locator('#open-link-btn').click();
      const dialog = await answerDialog(page, 'Cancel');
      assert.match(dialog, /The app of MCP server "debug" wants to open a link\./);
      assert.match(dialog, /https:\/\/modelcontextprotocol\.io\//);
      const declined = await waitForEvent(
        workspace,
        'the declined link to be answered',
        (event) => event.type === 'open-link-result',
      );
      assert.match(JSON.stringify(declined.payload), /"isError":true/);
      await screenshot(page, 'apps-debug-01');

      // Size: with auto-resize off, the app asks for 400x300; the host makes its frame, so the app's window, 300 px high.
      await app.locator('#auto-resize-toggle').uncheck();
      await waitForEvent(workspace, 'auto-resize to be off', (event) => event.type === 'auto-resize-toggle');
      await app.locator('#resize-400x300-btn').click();
      await waitUntil('the frame 300 px high', async () =>
        (await hostPage
          .locator('#app-frame')
          .evaluate((frame: HTMLElement) => frame.style.height)
          .catch(() => '')) === '300px'
          ? true
          : undefined,
      );
      await waitUntil("the app's window 300 px high", async () =>
        (await app.evaluate(() => window.innerHeight).catch(() => 0)) === 300 ? true : undefined,
      );
    } finally {
      await session?.dispose();
    }
  },
);
