/**
 * Smoke test of the e2e harness: a throwaway extension, made and packaged at test time, installed
 * into a real VS Code (code-server 4.100.3) and driven from Chromium.
 *
 * Run: bash scripts/prepare-code-server.sh && node --import tsx --test test/e2e/*.e2e.ts
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { VsCodeFixture } from './fixture';
import {
  REPO_ROOT,
  openViewContainer,
  pressNotificationButton,
  processesInGroup,
  runCommand,
  screenshot,
  treeRows,
  waitForNotification,
} from './harness';

const execFileAsync = promisify(execFile);

const HELLO = 'Hello from the e2e smoke extension';
const PROGRESS = 'Smoke progress: waiting for Cancel';
const CANCELLED = 'Smoke progress cancelled';

function writeSmokeExtension(dir: string): void {
  fs.mkdirSync(path.join(dir, 'media'), { recursive: true });
  const manifest = {
    name: 'e2e-smoke',
    displayName: 'E2E Smoke',
    description: 'Throwaway extension used by the e2e harness smoke test.',
    version: '0.0.1',
    publisher: 'mcp-workbench-e2e',
    license: 'MIT',
    repository: { type: 'git', url: 'https://example.invalid/e2e-smoke.git' },
    engines: { vscode: '^1.100.0' },
    main: './extension.js',
    // Commands and views activate the extension implicitly (onCommand / onView).
    activationEvents: [],
    contributes: {
      commands: [
        { command: 'e2eSmoke.hello', title: 'Say Hello', category: 'E2E Smoke' },
        { command: 'e2eSmoke.crowd', title: 'Crowd the Notifications', category: 'E2E Smoke' },
      ],
      viewsContainers: {
        activitybar: [{ id: 'e2eSmoke', title: 'Smoke', icon: 'media/smoke.svg' }],
      },
      views: {
        e2eSmoke: [{ id: 'e2eSmoke.items', name: 'Smoke Items' }],
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(
    path.join(dir, 'extension.js'),
    `'use strict';
const vscode = require('vscode');
exports.activate = function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('e2eSmoke.hello', () =>
      vscode.window.showInformationMessage(${JSON.stringify(HELLO)})),
    // Four notices that stay (each has an action) and then a cancellable progress: more than VS Code's three toasts.
    vscode.commands.registerCommand('e2eSmoke.crowd', () => {
      for (let i = 1; i <= 4; i++) vscode.window.showWarningMessage('Crowding notice ' + i, 'Keep');
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: ${JSON.stringify(PROGRESS)}, cancellable: true },
        (_progress, token) => new Promise((resolve) => token.onCancellationRequested(() => {
          resolve(undefined);
          vscode.window.showInformationMessage(${JSON.stringify(CANCELLED)});
        })),
      );
    }),
    vscode.window.registerTreeDataProvider('e2eSmoke.items', {
      getChildren: (element) => (element ? [] : ['Alpha item', 'Beta item']),
      getTreeItem: (label) => new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None),
    }),
  );
};
exports.deactivate = function deactivate() {};
`,
  );
  fs.writeFileSync(
    path.join(dir, 'media', 'smoke.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">' +
      '<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="2"/></svg>\n',
  );
  fs.writeFileSync(path.join(dir, 'README.md'), '# E2E Smoke\n\nThrowaway extension for the e2e harness smoke test.\n');
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT License\n\nCopyright (c) e2e\n');
  fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), '# Changelog\n\n## 0.0.1\n\n- First.\n');
}

async function packageSmokeExtension(dir: string, out: string): Promise<void> {
  // Use the repository's own vsce: `npx vsce` run from a temp folder would look for it on the registry.
  const vsce = path.join(REPO_ROOT, 'node_modules', '.bin', 'vsce');
  assert.ok(fs.existsSync(vsce), `vsce not found at ${vsce}; run npm ci in ${REPO_ROOT}`);
  try {
    await execFileAsync(
      vsce,
      ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
      { cwd: dir, timeout: 120_000, env: { ...process.env, CI: 'true' } },
    );
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`vsce package failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
  assert.ok(fs.existsSync(out), `vsce did not produce ${out}`);
}

test(
  'e2e harness smoke: command, notifications (one hidden behind others) and tree view in real VS Code',
  { timeout: 300_000 },
  async () => {
    const build = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-smoke-ext-'));
    let vscode: VsCodeFixture | undefined;
    let pgid: number | undefined;
    try {
      const extDir = path.join(build, 'ext');
      const vsix = path.join(build, 'smoke.vsix');
      writeSmokeExtension(extDir);
      await packageSmokeExtension(extDir, vsix);
      vscode = await VsCodeFixture.prepare({ name: 'smoke', extensions: [vsix], files: { 'hello.txt': 'smoke\n' } });
      const { extensionsDir } = vscode;
      const installed = fs.readdirSync(extensionsDir).filter((name) => name.startsWith('mcp-workbench-e2e.e2e-smoke'));
      assert.equal(
        installed.length,
        1,
        `extension folder not found in ${extensionsDir}: ${fs.readdirSync(extensionsDir).join(', ')}`,
      );

      const page = await vscode.start();
      pgid = vscode.server.pid;
      assert.ok(processesInGroup(pgid).length >= 1, 'code-server process group should be alive');
      await screenshot(page, 'smoke-01-workbench');

      await runCommand(page, 'E2E Smoke: Say Hello');
      const message = await waitForNotification(page, /Hello from the e2e smoke extension/);
      assert.equal(message, HELLO);
      await screenshot(page, 'smoke-02-notification');

      // A progress notification behind four others is found and cancelled, as a toast or in the Notifications center.
      await runCommand(page, 'E2E Smoke: Crowd the Notifications');
      await screenshot(page, 'smoke-02b-crowded');
      await pressNotificationButton(page, PROGRESS, 'Cancel');
      assert.equal(await waitForNotification(page, CANCELLED), CANCELLED);
      assert.equal(
        await page.locator('.notifications-center').first().isVisible(),
        false,
        'the Notifications center is closed again',
      );

      await openViewContainer(page, 'Smoke');
      const rows = await treeRows(page, 'Smoke Items', { minRows: 2 });
      assert.deepEqual(rows, ['Alpha item', 'Beta item']);
      await screenshot(page, 'smoke-03-tree-view');
    } finally {
      try {
        await vscode?.dispose();
        if (pgid != null) {
          assert.deepEqual(processesInGroup(pgid), [], `code-server processes left in group ${pgid}`);
          assert.throws(
            () => process.kill(pgid as number, 0),
            /ESRCH/,
            `code-server main process ${pgid} is still alive`,
          );
        }
      } finally {
        fs.rmSync(build, { recursive: true, force: true });
      }
    }
  },
);
