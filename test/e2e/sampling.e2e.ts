/**
 * End-to-end test of sampling review in a real VS Code (code-server 4.100.3) driven from Chromium: a real
 * OpenAI-compatible model server on 127.0.0.1 is configured in the user settings, its API key is entered with
 * "MCP: Set Model API Key…", server-everything's trigger-sampling-request is called from the palette, and the
 * review panel is clicked through: edit the prompt, Approve, see the streamed answer, Approve, see the result. On the
 * way it checks that the panel took no focus and that a bare Enter before any interaction approves nothing.
 *
 * Run: MCP_E2E_VSIX=dist/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/sampling.e2e.ts
 * Screenshots: test-results/e2e/sampling-*.png
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { promisify } from 'node:util';
import type { Frame, Page } from 'playwright-core';
import { startOpenAiServer } from '../fixtures/openai/openaiServer';
import {
  EVERYTHING_SERVER_JS,
  installVsix,
  openViewContainer,
  openWorkbench,
  prepareCodeServer,
  PRODUCT_VSIX,
  quickPick,
  REPO_ROOT,
  runPickerCommand,
  screenshot,
  sleep,
  startCodeServer,
  typeInQuickInput,
  waitFor,
  waitUntil,
  type CodeServerHandle,
  type Workbench,
} from './harness';

const execFileAsync = promisify(execFile);
const EVERYTHING = EVERYTHING_SERVER_JS;
const VSIX = PRODUCT_VSIX;
const SERVER = 'everything';
const ENDPOINT = 'e2e-endpoint';
const MODEL_ANSWER = 'Why did the model cross the road? To reach the other token.';
const QUICK_INPUT = '.quick-input-widget';

/** The webview frame (webviews are nested iframes) that contains `selector`. */
async function frameWith(page: Page, selector: string, what: string, timeoutMs = 60_000): Promise<Frame> {
  return waitFor(page, what, () =>
    waitUntil(
      what,
      async () => {
        for (const frame of page.frames()) {
          try {
            if ((await frame.locator(selector).count()) > 0) return frame;
          } catch {
            // A frame that navigated away while we looked.
          }
        }
        return undefined;
      },
      timeoutMs,
    ),
  );
}

test('sampling review in the browser: edit, approve, see the answer, approve, see the tool result', { timeout: 600_000 }, async () => {
  await prepareCodeServer();
  if (!process.env.MCP_E2E_VSIX) await execFileAsync('npm', ['run', 'package'], { cwd: REPO_ROOT, timeout: 180_000, env: { ...process.env, CI: 'true' } });
  assert.ok(fs.existsSync(VSIX), `the VSIX ${VSIX} is missing (npm run package writes it)`);
  const model = await startOpenAiServer([{ kind: 'text', text: MODEL_ANSWER, model: 'e2e-model' }]);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-e2e-sampling-'));
  const extensionsDir = path.join(tmp, 'extensions');
  const userDataDir = path.join(tmp, 'user-data');
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(workspace, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { [SERVER]: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio', '${workspaceFolder}'] } } }, null, 2),
  );
  await installVsix(VSIX, extensionsDir, userDataDir);

  let server: CodeServerHandle | undefined;
  let workbench: Workbench | undefined;
  try {
    server = await startCodeServer({
      workspace,
      extensionsDir,
      userDataDir,
      settings: {
        'mcpWorkbench.sampling.endpoints': [{ name: ENDPOINT, baseUrl: model.baseUrl, model: 'e2e-model' }],
        // The first-start confirmation of workspace servers is not what this test is about.
        'mcpWorkbench.confirmWorkspaceServers': false,
      },
    });
    workbench = await openWorkbench(server.url, workspace);
    const { page } = workbench;
    // The extension is up once its Servers view lists the workspace's server.
    await openViewContainer(page, 'MCP');
    await waitFor(page, `the "${SERVER}" row in the Servers view`, () =>
      page.locator('.part.sidebar .monaco-list-row').filter({ hasText: SERVER }).first().waitFor({ state: 'visible', timeout: 60_000 }),
    );

    // The API key goes to SecretStorage through the command's password box.
    await runPickerCommand(page, 'MCP: Set Model API Key…');
    await quickPick(page, ENDPOINT);
    await typeInQuickInput(page, 'sk-e2e-secret');
    await sleep(500);

    // Call trigger-sampling-request from the palette (JSON arguments, so the test does not depend on the tool form).
    await runPickerCommand(page, 'MCP: Call Tool with JSON Arguments…');
    await quickPick(page, SERVER);
    // The tool list is long and virtualised: filter it first.
    await page.locator(`${QUICK_INPUT} .quick-input-box input`).first().fill('trigger-sampling-request');
    await quickPick(page, 'trigger-sampling-request');
    await typeInQuickInput(page, '{"prompt":"Tell me a joke","maxTokens":60}');

    // The review panel shows the request.
    const review = await frameWith(page, '#system-prompt', 'the sampling review panel');
    const prompt = review.locator('#message-0-0');
    await waitFor(page, 'the prompt in the review panel', () => prompt.waitFor({ state: 'visible', timeout: 30_000 }));
    assert.match(await prompt.inputValue(), /Tell me a joke/);
    assert.match((await review.locator('h1').first().textContent()) ?? '', new RegExp(SERVER));
    await screenshot(page, 'sampling-01-review-request');
    // The server opened the panel, not the person: it took no keyboard focus and focused no control of its own.
    assert.equal(await review.evaluate(() => document.hasFocus()), false, 'the review webview took keyboard focus');
    assert.equal(await review.evaluate(() => document.activeElement?.tagName ?? 'BODY'), 'BODY', 'a control of the review panel is focused');
    // A bare Enter that reaches the panel before the person clicked or typed in it approves nothing: the edit and
    // the click below must still find the request (an approval would have replaced it with the streamed answer,
    // and the model would have received the unedited prompt).
    // Focus it the way a person switching to it does, through its tab (no click lands inside the page).
    await page.locator('.tabs-container .tab').filter({ hasText: 'MCP Review' }).first().click();
    await waitFor(page, 'keyboard focus in the review webview', () =>
      waitUntil('keyboard focus in the review webview', async () => ((await review.evaluate(() => document.hasFocus())) ? true : undefined), 15_000),
    );
    await page.keyboard.press('Enter');
    await prompt.fill('Edited in the browser: tell me a joke about tokens');
    await screenshot(page, 'sampling-02-edited');
    await review.locator('#primary').click();

    // The answer arrives (streamed) and waits for approval.
    const answer = review.locator('#answer');
    await waitFor(page, 'the model answer in the review panel', () => answer.waitFor({ state: 'visible', timeout: 60_000 }));
    assert.equal(await answer.inputValue(), MODEL_ANSWER);
    await screenshot(page, 'sampling-03-answer');
    await review.locator('#primary').click();

    // The tool result (shown by Call Tool) contains the model's answer.
    const result = await frameWith(page, `text=${MODEL_ANSWER.slice(0, 30)}`, 'the tool result with the model answer');
    assert.ok(result, 'no tool result frame');
    await sleep(500);
    await screenshot(page, 'sampling-04-tool-result');

    // What the model received: the edited prompt, with the key from SecretStorage.
    assert.equal(model.requests.length, 1, 'requests the model received');
    const sent = JSON.stringify(model.requests[0]?.messages);
    assert.match(sent, /Edited in the browser: tell me a joke about tokens/);
    assert.doesNotMatch(sent, /Tell me a joke"/);
    assert.equal(model.authorizations[0], 'Bearer sk-e2e-secret');
  } finally {
    await workbench?.close();
    await server?.stop();
    await model.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
