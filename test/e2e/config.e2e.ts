/**
 * End-to-end test of configuration in a real VS Code (code-server 4.100.3) driven from Chromium: "MCP Workbench: Add Server…"
 * walks through stdio, the command line, the target file and the name; the entry is written into a commented
 * .vscode/mcp.json with the comment kept, the editor opens at it, and the server appears in the tree. Expanding it
 * shows the first-start confirmation with its command line; allowing it starts the server.
 *
 * Copy Server to… writes a server of mcp.json into the workspace's `.cursor/mcp.json` in the shape Cursor documents
 * (https://cursor.com/docs/context/mcp: `mcpServers`, a stdio server as `command`, `args`, `env`).
 *
 * Run: node --import tsx --test test/e2e/config.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  clickUncovered,
  EVERYTHING_SERVER_JS,
  openViewContainer,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  waitUntil,
  wholeJsoncText,
} from './harness';

const EVERYTHING = EVERYTHING_SERVER_JS;
const COMMENT = '// Kept by MCP Workbench: Add Server (config.e2e.ts)';
const NEW_SERVER = 'everything-added';

/** Labels of the visible rows of the sidebar tree, read in one browser-side pass (the tree re-renders often). */
async function sidebarRows(page: Page): Promise<string[]> {
  return page
    .locator('.part.sidebar .monaco-list-row')
    .evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').trim()));
}

test(
  'MCP Workbench: Add Server… writes a stdio server into a commented mcp.json and it starts after confirmation',
  { timeout: 600_000 },
  async () => {
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'config',
        mcpJson: { kind: 'text', text: `{\n  ${COMMENT}\n  "servers": {}\n}\n` },
      });
      const { workspace, mcpJsonPath: configFile } = vscode;
      const page = await vscode.start();
      await openViewContainer(page, 'MCP Workbench');

      await runPickerCommand(page, 'MCP Workbench: Add Server…');
      await quickPick(page, /Command \(stdio\)/);
      // Quoted words show how paths with spaces are entered; the workspace path marks this test's process.
      await typeInQuickInput(page, `"${process.execPath}" "${EVERYTHING}" stdio "${workspace}"`);
      await quickPick(page, /\.vscode\/mcp\.json/);
      await typeInQuickInput(page, NEW_SERVER);

      const written = await waitUntil('the new entry in mcp.json', () => {
        // Whole: the entry's name comes before its command line, which is asserted below.
        const text = wholeJsoncText(configFile);
        return text?.includes(`"${NEW_SERVER}"`) ? text : undefined;
      });
      assert.ok(written.includes(COMMENT), `the comment was not kept:\n${written}`);
      assert.ok(
        written.includes(EVERYTHING) && written.includes('"stdio"'),
        `the command line was not split into command and args:\n${written}`,
      );
      // The editor opens mcp.json at the new entry, comment included.
      // Monaco renders spaces as no-break spaces; \s matches both.
      await waitUntil('mcp.json in the editor', async () => {
        const texts = await page
          .locator('.part.editor .monaco-editor .view-lines')
          .evaluateAll((views) => views.map((view) => view.textContent ?? ''));
        return texts.some((text) => text.includes(NEW_SERVER) && text.replace(/\s/g, ' ').includes('Kept by MCP'))
          ? true
          : undefined;
      });
      await waitUntil(`"${NEW_SERVER}" in the Servers view`, async () =>
        (await sidebarRows(page)).some((row) => row.includes(NEW_SERVER)) ? true : undefined,
      );
      await screenshot(page, 'config-01-added');

      // First start of a workspace server: the modal shows the command line and starting waits for the answer.
      await clickUncovered(
        page,
        page.locator('.part.sidebar .monaco-list-row').filter({ hasText: NEW_SERVER }).first(),
      );
      const dialog = page.locator('.monaco-dialog-box').first();
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      const dialogText = (await dialog.textContent()) ?? '';
      assert.ok(
        dialogText.includes(NEW_SERVER) && dialogText.includes(EVERYTHING),
        `the confirmation does not show the command line: ${dialogText}`,
      );
      await screenshot(page, 'config-02-confirm');
      await dialog.locator('.monaco-button', { hasText: 'Allow and Start' }).first().click();
      await waitUntil(
        'the tools of the added server',
        async () => ((await sidebarRows(page)).some((row) => row.includes('echo')) ? true : undefined),
        90_000,
      );
      await screenshot(page, 'config-03-running');
    } finally {
      await vscode?.dispose();
    }
  },
);

/** The keys Cursor's documented `mcp.json` gives a server (stdio: command, args, env, envFile; remote: url, headers). */
const CURSOR_SERVER_KEYS = new Set(['type', 'command', 'args', 'env', 'envFile', 'url', 'headers']);

test(
  'Copy Server to… Cursor writes .cursor/mcp.json in the format Cursor documents',
  { timeout: 600_000 },
  async () => {
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'config-copy',
        mcpJson: { kind: 'servers', servers: { 'everything-copied': everythingStdio() } },
      });
      const cursorFile = path.join(vscode.workspace, '.cursor', 'mcp.json');
      const source = fs.readFileSync(vscode.mcpJsonPath, 'utf8');
      const page = await vscode.start();
      await openViewContainer(page, 'MCP Workbench');
      await runPickerCommand(page, 'MCP Workbench: Copy Server to…');
      await quickPick(page, /everything-copied/);
      await quickPick(page, /Cursor/);
      const text = await waitUntil('the copy in .cursor/mcp.json', () =>
        fs.existsSync(cursorFile) ? fs.readFileSync(cursorFile, 'utf8') : undefined,
      );
      // Cursor reads plain JSON: the file must parse without comments or trailing commas.
      const written = JSON.parse(text) as { mcpServers?: Record<string, Record<string, unknown>> };
      const entry = written.mcpServers?.['everything-copied'];
      assert.ok(entry, `the server under mcpServers:\n${text}`);
      assert.equal(entry.command, process.execPath, 'the command');
      assert.ok(
        Array.isArray(entry.args) &&
          entry.args.every((arg) => typeof arg === 'string') &&
          entry.args.includes(EVERYTHING),
        `args as a list of strings: ${JSON.stringify(entry.args)}`,
      );
      assert.deepEqual(
        Object.keys(entry).filter((key) => !CURSOR_SERVER_KEYS.has(key)),
        [],
        `only keys Cursor documents: ${JSON.stringify(entry)}`,
      );
      // Only the file the person chose is written: the server's own file stays as it was.
      assert.equal(fs.readFileSync(vscode.mcpJsonPath, 'utf8'), source, 'the source mcp.json is unchanged');
      await screenshot(page, 'config-04-copied-to-cursor');
    } finally {
      await vscode?.dispose();
    }
  },
);
