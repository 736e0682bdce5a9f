/**
 * End-to-end test of the MCP Registry in a real VS Code (code-server) driven from Chromium: "MCP Workbench: Browse
 * MCP Registry…" lists the fixture registry (mcpWorkbench.registry.url), searches as the person types, shows the
 * chosen server's details, and Add to Workspace writes the entry into the commented .vscode/mcp.json. The entry
 * is an MCPB bundle, downloaded and checked against its fileSha256; the server starts only after the first-start
 * confirmation, which shows its command line.
 *
 * Run: node --import tsx --test test/e2e/registry.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  clickUncovered,
  openViewContainer,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  waitUntil,
  wholeJsoncText,
} from './harness';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registry/registry';

const COMMENT = '// Kept by MCP Workbench: Browse MCP Registry (registry.e2e.ts)';

async function sidebarRows(page: Page): Promise<string[]> {
  return page
    .locator('.part.sidebar .monaco-list-row')
    .evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').trim()));
}

test(
  'Browse MCP Registry… finds a server, adds it to the workspace, and it starts after confirmation',
  { timeout: 600_000 },
  async () => {
    let vscode: VsCodeFixture | undefined;
    let registry: FixtureRegistry | undefined;
    const configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-registry-xdg-'));
    try {
      registry = await startFixtureRegistry({ maxPageSize: 4 });
      vscode = await VsCodeFixture.prepare({
        name: 'registry',
        mcpJson: { kind: 'text', text: `{\n  ${COMMENT}\n  "servers": {}\n}\n` },
      });
      const configFile = vscode.mcpJsonPath;
      const page = await vscode.start({
        settings: { 'mcpWorkbench.registry.url': registry.url },
        env: { XDG_CONFIG_HOME: configHome },
      });
      await openViewContainer(page, 'MCP Workbench');

      await runPickerCommand(page, 'MCP Workbench: Browse MCP Registry…');
      await typeInQuickInput(page, 'counter', { submit: false });
      const fixture = registry;
      await waitUntil('the search to reach the registry', () =>
        fixture.requests.some((url) => url.includes('search=counter')) ? true : undefined,
      );
      await screenshot(page, 'registry-01-search');
      await quickPick(page, /Counter bundle/);
      await screenshot(page, 'registry-02-details');
      await quickPick(page, /Add to Workspace/);

      const written = await waitUntil(
        'the registry entry in mcp.json',
        () => {
          // Whole: the entry's name comes before its command line, which is asserted below.
          const text = wholeJsoncText(configFile);
          return text?.includes('"bundle"') ? text : undefined;
        },
        60_000,
      );
      assert.ok(written.includes(COMMENT), `the comment was not kept:\n${written}`);
      const bundleScript = path.join(
        configHome,
        'mcp-workbench',
        'mcpb',
        'io.github.example_bundle@1.0.0',
        'server',
        'index.mjs',
      );
      assert.ok(
        written.includes(bundleScript),
        `the entry does not run the unpacked bundle ${bundleScript}:\n${written}`,
      );
      assert.ok(fs.existsSync(bundleScript), 'the verified bundle was unpacked');

      await waitUntil('"bundle" in the Servers view', async () =>
        (await sidebarRows(page)).some((row) => row.includes('bundle')) ? true : undefined,
      );
      await clickUncovered(page, page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'bundle' }).first());
      const dialog = page.locator('.monaco-dialog-box').first();
      await dialog.waitFor({ state: 'visible', timeout: 30_000 });
      const dialogText = (await dialog.textContent()) ?? '';
      assert.ok(
        dialogText.includes('bundle') && dialogText.includes('index.mjs'),
        `the confirmation does not show the command line: ${dialogText}`,
      );
      await screenshot(page, 'registry-03-confirm');
      await dialog.locator('.monaco-button', { hasText: 'Allow and Start' }).first().click();
      await waitUntil(
        'the tools of the added server',
        async () => ((await sidebarRows(page)).some((row) => row.includes('count')) ? true : undefined),
        90_000,
      );
      await screenshot(page, 'registry-04-running');
    } finally {
      await vscode?.dispose();
      await registry?.close();
    }
  },
);
