/**
 * The workbench's servers in VS Code's own MCP list, through the gateway (src/extension/features/gateway), in a real
 * VS Code driven from Chromium. A user-level server (mcpWorkbench.servers: VS Code does not read it itself) is:
 * - on VS Code 1.139 (code-server 4.139.1, MCP_E2E_VSCODE=newest): listed by **MCP: List Servers** from the
 *   provider "MCP Workbench"; starting it there starts the workbench's server and its gateway, VS Code's own client
 *   connects through the gateway (the Servers view lists the agent under the server, the server's log names it) and
 *   VS Code discovers its tools;
 * - on VS Code 1.100 (code-server 4.100.3, the default): the provider is absent (that VS Code refuses it), the
 *   extension works as before, and the chat-route command is not offered.
 *
 * Run: MCP_E2E_VSIX=dist/mcp-workbench-0.1.0.vsix [MCP_E2E_VSCODE=newest] \
 *      node --import tsx --test test/e2e/gateway.e2e.ts
 */
import * as fs from 'node:fs';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  chooseMenuItem,
  clickUncovered,
  openViewContainer,
  pane,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  visibleRow,
  waitForQuickInput,
  vscodeVersion,
  waitUntil,
  webviewFrame,
  windowLogFiles,
} from './harness';

const SERVER = 'everything';

test(
  'VS Code lists the workbench server in MCP: List Servers and reaches it through the gateway (1.139); 1.100 works without it',
  { timeout: 600_000 },
  async () => {
    // The chat provider API is stable from VS Code 1.101 (1.100 has an earlier form that refuses our contribution).
    const newest = vscodeVersion().minor >= 101;
    const vscode = await VsCodeFixture.prepare({ name: 'gateway' });
    try {
      const page = await vscode.start({
        settings: {
          'workbench.colorTheme': 'Default Dark Modern',
          'mcpWorkbench.servers': { servers: { [SERVER]: everythingStdio() } },
        },
      });
      await openViewContainer(page, 'MCP');
      const servers = pane(page, 'Servers');
      await visibleRow(page, servers, SERVER);
      // The walkthrough's webview holds the focus after the first activation: a click on the view's empty space gives
      // it back to the workbench, so F1 reaches the command palette (a click on the server's row would start it).
      await servers.click({ position: { x: 150, y: 220 } });

      if (!newest) {
        // 1.100: no provider; the extension says so in its own log, and the chat-route command is not in the palette.
        await waitUntil(
          "the extension's log line about chat's provider",
          () =>
            windowLogFiles(vscode.userDataDir)
              .map((file) => fs.readFileSync(file, 'utf8'))
              .some((text) => text.includes("VS Code's chat does not take MCP servers from extensions here"))
              ? true
              : undefined,
          60_000,
        );
        // The walkthrough's webview holds the focus after the first activation: F1 must reach the workbench.
        await page.keyboard.press('F1');
        const input = await waitForQuickInput(page);
        await typeInQuickInput(page, '>MCP Workbench: C', { submit: false });
        // Connect Another Client is offered on every version: once it shows, the palette has filtered.
        const rows = await waitUntil(
          'the palette filtered',
          async () => {
            const texts = await input.locator('.monaco-list-row').allTextContents();
            return texts.some((text) => text.includes('Connect Another Client')) ? texts : undefined;
          },
          15_000,
        );
        assert.ok(!rows.some((text) => text.includes('Choose How Chat')), `palette rows: ${JSON.stringify(rows)}`);
        await page.keyboard.press('Escape');
        await screenshot(page, 'gateway-1.100');
        return;
      }

      // 1.139: VS Code's own list shows the server from the provider "MCP Workbench".
      await runPickerCommand(page, 'MCP: List Servers');
      await quickPick(page, new RegExp(`^${SERVER}\\b`));
      await quickPick(page, /Start Server/);
      // The workbench started the server and its gateway; VS Code's own client connected through it, and the
      // server's log names it as the agent.
      await waitUntil(
        "the agent in the server's log",
        () =>
          windowLogFiles(vscode.userDataDir)
            .map((file) => fs.readFileSync(file, 'utf8'))
            .some((text) => /Gateway: agent connected: (code-server|Visual Studio Code) 1\.139/.test(text))
            ? true
            : undefined,
        120_000,
      );
      // The Servers view lists it under the server (expanded: the server runs, so this starts nothing).
      // A click toggles the row (it may have been expanded already): ArrowRight expands it only while it is not.
      const serverRow = await visibleRow(page, servers, SERVER);
      await clickUncovered(page, serverRow);
      await waitUntil('the server row expanded', async () => {
        const expanded = await serverRow.getAttribute('aria-expanded');
        if (expanded === 'true') return true;
        // Only a row drawn collapsed: on any other row (the focus moved on) ArrowRight would walk the tree.
        if (expanded === 'false') await page.keyboard.press('ArrowRight');
        return undefined;
      });
      await visibleRow(page, servers, 'Agents');
      await visibleRow(page, servers, 'code-server 1.139.1');
      // VS Code's own output for the server (shown when it started it) counts the tools it found through the gateway.
      await waitUntil(
        "VS Code's MCP output: the tools discovered",
        async () =>
          /Discovered\s+[1-9]\d*\s+tools/.test((await page.locator('.part.panel').allTextContents()).join('\n'))
            ? true
            : undefined,
        60_000,
      );
      // Per-tool disable hides a tool from VS Code: Disable for Agents on echo's row (the person's own list keeps it)
      // is a tools/list_changed for VS Code's client, which lists the tools again and finds one fewer.
      const panelText = async () => (await page.locator('.part.panel').allTextContents()).join('\n');
      const discovered = () =>
        panelText().then((text) => [...text.matchAll(/Discovered\s+(\d+)\s+tools/g)].map((m) => Number(m[1])));
      const before = (await discovered()).at(-1) ?? 0;
      // The Protocol view open meanwhile (it keeps the wire while it is open): VS Code's requests show in it, labelled
      // with VS Code's client as the agent. The focus to the workbench first, so F1 reaches the palette.
      await page.locator('.part.panel').first().click();
      await runPickerCommand(page, 'MCP Workbench: Show Protocol');
      await quickPick(page, new RegExp(`^${SERVER}\\b`));
      await webviewFrame(page, 'the Protocol view', '#list');
      const echoRow = await visibleRow(page, servers, 'echo');
      await clickUncovered(page, echoRow, { button: 'right' });
      const disable = page.locator('.monaco-menu .action-item', { hasText: /^Disable for Agents$/ }).last();
      await chooseMenuItem(page, disable, 'Disable for Agents');
      await waitUntil(
        `VS Code's MCP output: ${before - 1} tools after echo was disabled for agents`,
        async () => ((await discovered()).at(-1) === before - 1 ? true : undefined),
        60_000,
      );
      const protocol = await webviewFrame(
        page,
        "VS Code's tools/list in the Protocol view",
        '#list .row[data-method="tools/list"]',
      );
      await waitUntil("VS Code's tools/list labelled with its agent in the Protocol view", async () => {
        const summaries = await protocol
          .locator('#list .row[data-method="tools/list"] .cell.summary')
          .allTextContents();
        return summaries.some((text) => /from agent (code-server|Visual Studio Code) 1\.139/.test(text))
          ? true
          : undefined;
      });
      // The row says so; the person can still call it from here.
      await visibleRow(page, servers, 'echo');
      assert.match((await echoRow.textContent()) ?? '', /off for agents/);
      await screenshot(page, 'gateway-tool-disabled');

      // VS Code's own list says the server runs.
      // The focus to the workbench (the output panel) so F1 reaches the palette; the tree's rows are tools by now.
      await page.locator('.part.panel').first().click();
      await runPickerCommand(page, 'MCP: List Servers');
      const vscodeRows = await page.locator('.quick-input-widget .monaco-list-row').allTextContents();
      await page.keyboard.press('Escape');
      assert.ok(
        vscodeRows.some((row) => row.startsWith(SERVER) && /Running/.test(row) && row.includes('MCP Workbench')),
        `MCP: List Servers rows: ${JSON.stringify(vscodeRows)}`,
      );
      await screenshot(page, 'gateway-1.139');
      const ours = windowLogFiles(vscode.userDataDir).map((file) => fs.readFileSync(file, 'utf8'));
      assert.ok(ours.some((text) => /Gateway: serving other MCP clients on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(text)));
      assert.ok(!ours.some((text) => /Bearer [0-9a-f]{64}/.test(text)), "the secret is never in the workbench's logs");
    } finally {
      await vscode.dispose();
    }
  },
);
