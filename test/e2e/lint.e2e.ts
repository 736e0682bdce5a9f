/**
 * Issue 40, lint in a real VS Code driven from Chromium as a person would: a server whose tools break the rules
 * (test/fixtures/lint/broken-server.mjs) is started from the Servers view; the row of its broken tool `portability`
 * ends with its badge ("[lint: 1 error(s), N warning(s)]") and a clean tool's with "[lint: fine]"; the Problems panel
 * has one entry for the server with the tool's boolean-schema error, and a click on that problem opens the server's
 * lint document with the cursor on the tool's heading line.
 * Screenshots: test-results/e2e/lint-01-badges.png, lint-02-problems.png, lint-03-document.png.
 *
 * Run: npm run package:test, then
 * MCP_E2E_VSIX=dist/test-build/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/lint.e2e.ts
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  clickUncovered,
  openViewContainer,
  pane,
  REPO_ROOT,
  runCommand,
  screenshot,
  visibleRow,
  waitFor,
  waitUntil,
} from './harness';

const SERVER = 'lint-broken';
const BROKEN_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'lint', 'broken-server.mjs');

/** The whole text of the Servers view's row labelled exactly `label` (label and description), '' when not on screen. */
async function rowText(page: Page, label: string): Promise<string> {
  const servers = pane(page, 'Servers');
  const row = servers
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  return ((await row.textContent({ timeout: 1_000 }).catch(() => null)) ?? '').replace(/\s+/g, ' ').trim();
}

/** The text of the line the cursor is on in the active editor (its active line number's row). */
async function activeLineText(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-group-container.active .monaco-editor');
    const number = editor?.querySelector('.margin-view-overlays .active-line-number')?.parentElement;
    if (!editor || !number) return undefined;
    const top = number.style.top;
    const line = Array.from(editor.querySelectorAll<HTMLElement>('.view-lines .view-line')).find(
      (candidate) => candidate.style.top === top,
    );
    return line?.textContent?.replace(/\u00a0/g, ' ');
  });
}

test(
  'lint: the badge on a broken tool row, its Problems entry, and a click that opens the tool',
  { timeout: 600_000 },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'lint',
        mcpJson: {
          kind: 'servers',
          comment: 'for lint.e2e.ts: a server whose tools break the lint rules',
          // The trailing ${workspaceFolder} is ignored by the fixture and marks its process as this test's.
          servers: {
            [SERVER]: { type: 'stdio', command: process.execPath, args: [BROKEN_SERVER, '${workspaceFolder}'] },
          },
        },
        settings: { 'workbench.colorTheme': 'Default Dark Modern' },
      });
      const { page } = session;
      await openViewContainer(page, 'MCP Workbench');
      const servers = pane(page, 'Servers');
      await clickUncovered(page, await visibleRow(page, servers, SERVER));
      await answerDialog(page, 'Allow and Start');
      await visibleRow(page, servers, 'portability');

      // 1. The badges: the broken tool's errors and warnings, a clean tool fine.
      let broken = '';
      await waitUntil(
        'the lint badge on the row of "portability"',
        async () => {
          broken = await rowText(page, 'portability');
          return broken.includes('[lint:') ? true : undefined;
        },
        30_000,
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; the row says ${JSON.stringify(broken)}`,
        );
      });
      assert.match(broken, /\[lint: 1 error\(s\), \d+ warning\(s\)\]/, broken);
      await visibleRow(page, servers, 'filler_0');
      assert.match(await rowText(page, 'filler_0'), /\[lint: fine\]/);
      await screenshot(page, 'lint-01-badges');

      // 2. Problems: one entry for the server (its lint document), with the tool's boolean-schema error.
      await runCommand(page, 'View: Focus Problems (Errors, Warnings, Infos)');
      const markers = page.locator('.markers-panel');
      const resource = markers.locator('.monaco-list-row', { hasText: `${SERVER}.lint.jsonc` });
      await waitFor(page, 'the server’s entry in Problems', () =>
        resource.first().waitFor({ state: 'visible', timeout: 30_000 }),
      );
      assert.equal(await resource.count(), 1, 'one Problems entry for the server');
      const problem = markers
        .locator('.monaco-list-row', { hasText: 'tool:portability inputSchema.properties.anything' })
        .filter({ hasText: 'schema/boolean-schema' })
        .first();
      await waitFor(page, 'the boolean-schema problem of portability', () =>
        problem.waitFor({ state: 'visible', timeout: 30_000 }),
      );
      await screenshot(page, 'lint-02-problems');

      // 3. A click on the problem opens the lint document at the tool.
      await problem.click();
      await waitFor(page, 'the lint document tab', () =>
        page
          .locator('.tab', { hasText: `${SERVER}.lint.jsonc` })
          .first()
          .waitFor({ state: 'visible', timeout: 30_000 }),
      );
      let line: string | undefined;
      await waitUntil(
        'the cursor on the heading of "portability"',
        async () => {
          line = await activeLineText(page);
          return line === '// "tool:portability"' ? true : undefined;
        },
        30_000,
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; the cursor's line: ${JSON.stringify(line)}`,
        );
      });
      await screenshot(page, 'lint-03-document');
    } finally {
      await session?.dispose();
    }
  },
);
