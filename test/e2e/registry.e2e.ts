/**
 * End-to-end test of the MCP Registry in a real VS Code (code-server) driven from Chromium: "MCP Workbench: Browse
 * MCP Registry…" lists the fixture registry (mcpWorkbench.registry.url), searches as the person types, and shows the
 * chosen server's details. An entry whose runtime arguments would run something else than its label (a privileged
 * container with the host's disk and a shell) lists them in its detail, and Add refuses it naming each one. The
 * Counter bundle (MCPB, downloaded and checked against its fileSha256) is unpacked on this computer, so Add to
 * Workspace asks to put it into the user settings instead, leaving the shared .vscode/mcp.json as it was; the server
 * then starts and its tools are listed.
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
  answerDialog,
  clickUncovered,
  closeModalEditor,
  openViewContainer,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  vscodeVersion,
  waitFor,
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

      // A hostile entry: its detail names what is refused, and Add refuses it with the argument and why.
      await runPickerCommand(page, 'MCP Workbench: Browse MCP Registry…');
      await typeInQuickInput(page, 'whole host', { submit: false });
      const fixture = registry;
      await waitUntil('the search to reach the registry', () =>
        fixture.requests.some((url) => url.includes('search=whole')) ? true : undefined,
      );
      await quickPick(page, /io\.github\.example\/privileged/);
      const detail = await waitUntil('the refused arguments in the detail', async () => {
        const text = (await page.locator('.quick-input-widget').textContent()) ?? '';
        return text.includes('--privileged') ? text : undefined;
      });
      for (const expected of [
        'Refused runtime argument: --privileged',
        'gives the container privileges over the host',
        'Refused runtime argument: -v /:/host',
        'Refused runtime argument: --entrypoint /bin/sh',
      ])
        assert.ok(detail.includes(expected), `the detail does not show "${expected}":\n${detail}`);
      await screenshot(page, 'registry-00-refused-detail');
      await quickPick(page, /Add to Workspace/);
      const refusal = await answerDialog(page, 'OK');
      assert.ok(
        refusal.includes('io.github.example/privileged is not added') &&
          refusal.includes('runtime argument "--privileged": gives the container privileges over the host') &&
          refusal.includes('runtime argument "-v /:/host": mounts a folder or file of the host into the container'),
        `the refusal does not name the arguments: ${refusal}`,
      );
      assert.ok(!(wholeJsoncText(configFile) ?? '').includes('privileged'), 'nothing was written');

      await runPickerCommand(page, 'MCP Workbench: Browse MCP Registry…');
      await typeInQuickInput(page, 'counter', { submit: false });
      await waitUntil('the search to reach the registry', () =>
        fixture.requests.some((url) => url.includes('search=counter')) ? true : undefined,
      );
      await screenshot(page, 'registry-01-search');
      await quickPick(page, /Counter bundle/);
      await screenshot(page, 'registry-02-details');
      await quickPick(page, /Add to Workspace/);
      const moved = await answerDialog(page, 'Add to User Settings');
      assert.ok(
        moved.includes('MCPB bundle unpacked on this computer') && moved.includes('they do not have the bundle'),
        `the bundle's move to the user settings is not explained: ${moved}`,
      );

      const settingsFile = path.join(vscode.userDataDir, 'User', 'settings.json');
      const written = await waitUntil(
        'the registry entry in the user settings',
        () => {
          const text = wholeJsoncText(settingsFile);
          return text?.includes('"bundle"') ? text : undefined;
        },
        60_000,
      );
      const bundleScript = path.join(
        configHome,
        'mcp-workbench',
        'mcpb',
        'io.github.example_bundle@1.0.0',
        'server',
        'index.mjs',
      );
      assert.ok(
        written.includes(JSON.stringify(bundleScript).slice(1, -1)),
        `the entry does not run the unpacked bundle ${bundleScript}:\n${written}`,
      );
      assert.ok(fs.existsSync(bundleScript), 'the verified bundle was unpacked');
      const shared = wholeJsoncText(configFile) ?? '';
      assert.ok(
        shared.includes(COMMENT) && !shared.includes('bundle') && !shared.includes(configHome),
        `the shared mcp.json changed:\n${shared}`,
      );

      // The entry is shown in the user settings it was written to: in VS Code 1.139 in a modal editor over the side bar,
      // which is closed before the side bar is clicked.
      if (vscodeVersion().minor > 100) {
        await waitFor(page, 'settings.json in a modal editor', () =>
          page.locator('.modal-editor-part', { hasText: 'settings.json' }).first().waitFor({ state: 'visible' }),
        );
        await closeModalEditor(page);
      }
      await waitUntil('"bundle" in the Servers view', async () =>
        (await sidebarRows(page)).some((row) => row.includes('bundle')) ? true : undefined,
      );
      // The person's own server: it starts when they ask, without the workspace's first-start consent.
      await waitFor(page, 'the row of "bundle" to click', () =>
        clickUncovered(page, page.locator('.part.sidebar .monaco-list-row').filter({ hasText: 'bundle' }).first()),
      );
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
