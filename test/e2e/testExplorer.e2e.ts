/**
 * End-to-end recorded sessions in a real VS Code (code-server) driven from Chromium, as a person would: greet is
 * called from the Servers view (test/fixtures/recordings/greeter.mjs on @modelcontextprotocol/server 2.4.0, its
 * greeting read on every call from greeting.txt in the workspace); History's call is saved with "Save as Test…" after
 * one confirmation into tests/greeter-greet.mcptest.json; the file appears in the Testing view and passes when run.
 * Then the server's answer changes (greeting.txt says "Bonjour"; the recording is not touched): the same run fails and
 * the peek shows the recorded answer against the one that came. "Re-record Step from Its Last Result" from the test's
 * context menu writes the new answer into the file, leaving the rest of its text as it was, and the run passes again.
 * Screenshots: test-results/e2e/test-explorer-failed.png, test-explorer-rerecorded.png.
 *
 * Run: node --import tsx --test test/e2e/testExplorer.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { Page } from 'playwright-core';
import { processesMatching } from '../integration/support';
import {
  acceptQuickPick,
  answerDialog,
  chooseMenuItem,
  clickUncovered,
  inlineAction,
  installVsix,
  notificationTexts,
  openViewContainer,
  openWorkbench,
  pane,
  prepareCodeServer,
  PRODUCT_VSIX,
  REPO_ROOT,
  runCommand,
  runPickerCommand,
  screenshot,
  startCodeServer,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
  wholeJsoncText,
  windowLogFiles,
  picture,
} from './harness';

const execFileAsync = promisify(execFile);
const GREETER = path.join(REPO_ROOT, 'test', 'fixtures', 'recordings', 'greeter.mjs');
const SERVER = 'greeter';

/** The server reads its greeting from this file on every call, so the test changes its answer without a restart. */
function greetingFile(workspace: string): string {
  return path.join(workspace, 'greeting.txt');
}

function writeConfig(workspace: string): void {
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify(
      {
        servers: {
          [SERVER]: {
            type: 'stdio',
            command: process.execPath,
            args: [GREETER, '${workspaceFolder}', '--greeting-file', greetingFile(workspace)],
          },
        },
      },
      null,
      2,
    ),
  );
}

/** The tail of every log of this extension under the user data (its output channels), for a failure message. */
function extensionLogs(userDataDir: string): string {
  return windowLogFiles(userDataDir)
    .map((file) => `${file}:\n${fs.readFileSync(file, 'utf8').split('\n').slice(-25).join('\n')}`)
    .join('\n');
}

/** The file's text outside the first step's answer: what a re-record of that answer must leave byte for byte. */
function textAroundFirstAnswer(text: string): { before: string; answer: unknown; after: string } {
  const node =
    findNodeAtLocation(parseTree(text) ?? assert.fail('the test file does not parse'), ['steps', 0, 'answer']) ??
    assert.fail('the first step has no answer');
  return {
    before: text.slice(0, node.offset),
    answer: JSON.parse(text.slice(node.offset, node.offset + node.length)),
    after: text.slice(node.offset + node.length),
  };
}

/** The Testing view's row of the file's test item shows its state in its accessible label, e.g. "greeter (Passed)". */
async function waitForTestState(page: Page, state: 'Passed' | 'Failed'): Promise<string> {
  return waitUntil(
    `the test item "${SERVER}" to be ${state}`,
    async () => {
      const labels = await page
        .locator('.part.sidebar .monaco-list-row')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
      return labels.find((label) => label.startsWith(SERVER) && label.includes(state));
    },
    90_000,
  );
}

test(
  "Test Explorer in real VS Code: a test saved from History passes, fails with the diff after the server's answer changed, and passes again once re-recorded from its context menu",
  { timeout: 900_000 },
  async () => {
    await prepareCodeServer();
    if (!process.env.MCP_E2E_VSIX)
      await execFileAsync('npm', ['run', 'package'], {
        cwd: REPO_ROOT,
        timeout: 300_000,
        env: { ...process.env, CI: 'true' },
      });
    assert.ok(fs.existsSync(PRODUCT_VSIX), `the VSIX ${PRODUCT_VSIX} is missing (npm run package writes it)`);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-tests-'));
    const workspace = path.join(tmp, 'workspace');
    const extensionsDir = path.join(tmp, 'extensions');
    const userDataDir = path.join(tmp, 'user-data');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(greetingFile(workspace), 'Hello\n');
    writeConfig(workspace);
    await installVsix(PRODUCT_VSIX, extensionsDir, userDataDir);
    // The failure's peek (with the diff) opens wherever the failing step is, as soon as the run fails.
    // The file watcher ignores tests/ (as when the workspace's watcher is excluded there or stopped by Linux's inotify
    // limit): the saved test must reach the Test Explorer because Save as Test hands it over itself.
    const server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir,
      settings: {
        'workbench.colorTheme': 'Default Dark Modern',
        'testing.automaticallyOpenPeekView': 'failureAnywhere',
        'files.watcherExclude': { '**/tests/**': true },
      },
    });
    const relativeTestFile = `tests/${SERVER}-greet.mcptest.json`;
    const testFile = path.join(workspace, ...relativeTestFile.split('/'));
    try {
      const workbench = await openWorkbench(server.url, workspace);
      const { page } = workbench;
      try {
        // Call greet {name: "Ada"} from the Servers view.
        await openViewContainer(page, 'MCP');
        const servers = pane(page, 'Servers');
        await clickUncovered(page, await visibleRow(page, servers, SERVER));
        await answerDialog(page, 'Allow and Start');
        await inlineAction(page, await visibleRow(page, servers, 'greet'), 'Call Tool');
        const form = await webviewFrame(page, 'the Call Tool form for greet', 'form input');
        await form.getByLabel(/^name\b/).fill('Ada');
        await form.getByLabel(/^name\b/).press('Control+Enter');
        await webviewFrame(page, 'the result view with the greeting', 'text=Hello, Ada!');

        // History → Save as Test…: every entry is picked; one confirmation names tests/<server>-<tool>.mcptest.json.
        await runPickerCommand(page, 'MCP Workbench: Save as Test…');
        await waitFor(page, 'the entries pick', () =>
          page
            .locator('.quick-input-widget .quick-input-list .monaco-list-row')
            .first()
            .waitFor({ state: 'visible', timeout: 30_000 }),
        );
        await acceptQuickPick(page, 'the entries pick');
        const confirmation = await answerDialog(page, 'Save');
        assert.ok(confirmation.includes(relativeTestFile), `the confirmation names the file: ${confirmation}`);
        assert.ok(
          confirmation.includes('Choose Another Location'),
          `the confirmation offers another location: ${confirmation}`,
        );
        // The file exists from the moment the write opens it, empty until the write ends (CI once read it then): wait
        // for a whole recording, not for the name.
        const saved = await waitUntil(
          'the saved test file, whole',
          () => {
            const text = wholeJsoncText(testFile);
            return text === undefined
              ? undefined
              : (JSON.parse(text) as { server: unknown; steps: { request: { method: string } }[] });
          },
          30_000,
        );
        assert.deepEqual(saved.server, { kind: 'config', config: '../.vscode/mcp.json', server: SERVER });
        assert.deepEqual(
          saved.steps.map((step) => step.request.method),
          ['tools/call'],
        );

        // The file is in the Testing view; running it passes.
        await openViewContainer(page, 'Testing');
        await runCommand(page, 'Test: Run All Tests');
        await waitForTestState(page, 'Passed');

        // The server's answer changes; the recording stays as it was saved. The same run fails, and its peek shows the
        // recorded answer (the diff's original side) against the one that came (its modified side).
        const recorded = fs.readFileSync(testFile, 'utf8');
        fs.writeFileSync(greetingFile(workspace), 'Bonjour\n');
        await runCommand(page, 'Test: Run All Tests');
        await waitForTestState(page, 'Failed');
        const diff = page.locator('.monaco-diff-editor').first();
        await waitFor(page, 'the failure peek with the diff', () =>
          diff.waitFor({ state: 'visible', timeout: 60_000 }),
        );
        // The editor draws spaces as no-break spaces.
        const sideText = async (side: 'original' | 'modified') =>
          ((await diff.locator(`.editor.${side}`).first().textContent()) ?? '').replace(/\u00a0/g, ' ');
        const sides = await waitUntil('both answers in the diff', async () => {
          const [expected, actual] = [await sideText('original'), await sideText('modified')];
          return expected.includes('Hello, Ada!') && actual.includes('Bonjour, Ada!')
            ? { expected, actual }
            : undefined;
        });
        assert.ok(!sides.expected.includes('Bonjour'), `the recorded side shows the new answer: ${sides.expected}`);
        assert.equal(fs.readFileSync(testFile, 'utf8'), recorded, 'the run wrote into the recording');
        await screenshot(page, 'test-explorer-failed');
        await picture(page, 'recorded-test');

        // Re-record from the test's context menu in the Testing view: the file now holds the answer that came, and only
        // that member of it changed.
        const fileRow = page.locator(`.part.sidebar .monaco-list-row[aria-label^="${SERVER}"]`).first();
        await clickUncovered(page, fileRow, { button: 'right' });
        const rerecord = page
          .locator('.monaco-menu .action-item', { hasText: /^Re-record Step from Its Last Result$/ })
          .last();
        await chooseMenuItem(page, rerecord, 'Re-record Step from Its Last Result');
        const rerecorded = await waitUntil(
          'the re-recorded test file, whole',
          () => {
            const text = wholeJsoncText(testFile);
            return text !== undefined && text !== recorded ? text : undefined;
          },
          60_000,
        ).catch(async (error: Error) => {
          // What the window said (a "Run the test first" notice, an error) and what the extension logged.
          const shot = await screenshot(page, 'test-explorer-rerecord-failed').catch(() => 'none');
          throw new Error(
            `${error.message}. Notifications: ${JSON.stringify(await notificationTexts(page).catch(() => []))}. Screenshot: ${shot}.\n${extensionLogs(userDataDir)}`,
          );
        });
        const [was, now] = [textAroundFirstAnswer(recorded), textAroundFirstAnswer(rerecorded)];
        assert.equal(now.before, was.before, 'the text before the re-recorded answer changed');
        assert.equal(now.after, was.after, 'the text after the re-recorded answer changed');
        assert.ok(
          JSON.stringify(now.answer).includes('Bonjour, Ada!') && !JSON.stringify(now.answer).includes('Hello'),
          `the re-recorded answer: ${JSON.stringify(now.answer)}`,
        );

        // The run passes against the server as it now answers.
        await runCommand(page, 'Test: Run All Tests');
        await waitForTestState(page, 'Passed');
        await screenshot(page, 'test-explorer-rerecorded');
      } finally {
        await workbench.close();
      }
    } finally {
      await server.stop();
      const left = await waitUntil(
        'greeter processes to end',
        () => (processesMatching(GREETER, workspace).length === 0 ? [] : undefined),
        15_000,
      ).catch(() => processesMatching(GREETER, workspace));
      fs.rmSync(tmp, { recursive: true, force: true });
      assert.deepEqual(left, [], 'greeter processes from this test are still running');
    }
  },
);
