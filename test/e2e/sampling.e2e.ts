/**
 * End-to-end test of sampling review in a real VS Code (code-server 4.100.3) driven from Chromium: a real
 * OpenAI-compatible model server on 127.0.0.1 is configured in the user settings, its API key is entered with
 * "MCP Workbench: Set Model API Key…", server-everything's trigger-sampling-request is called from the palette, and the
 * review panel is clicked through: edit the prompt, Approve, see the streamed answer, Approve, see the result. On the
 * way it checks that the panel took no focus and that a bare Enter before any interaction approves nothing.
 *
 * Run: MCP_E2E_VSIX=dist/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/sampling.e2e.ts
 * Screenshots: test-results/e2e/sampling-*.png
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { startOpenAiServer } from '../fixtures/openai/openaiServer';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  openViewContainer,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  waitFor,
  waitUntil,
} from './harness';

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

test(
  'sampling review in the browser: edit, approve, see the answer, approve, see the tool result',
  { timeout: 600_000 },
  async () => {
    const model = await startOpenAiServer([{ kind: 'text', text: MODEL_ANSWER, model: 'e2e-model' }]);
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'sampling',
        mcpJson: { kind: 'servers', servers: { [SERVER]: everythingStdio() } },
      });
      const page = await vscode.start({
        settings: {
          'mcpWorkbench.sampling.endpoints': [{ name: ENDPOINT, baseUrl: model.baseUrl, model: 'e2e-model' }],
          // The first-start confirmation of workspace servers is not what this test is about.
          'mcpWorkbench.confirmWorkspaceServers': false,
        },
      });
      // The extension is up once its Servers view lists the workspace's server.
      await openViewContainer(page, 'MCP Workbench');
      await waitFor(page, `the "${SERVER}" row in the Servers view`, () =>
        page
          .locator('.part.sidebar .monaco-list-row')
          .filter({ hasText: SERVER })
          .first()
          .waitFor({ state: 'visible', timeout: 60_000 }),
      );

      // The API key goes to SecretStorage through the command's password box.
      await runPickerCommand(page, 'MCP Workbench: Set Model API Key…');
      await quickPick(page, ENDPOINT);
      await typeInQuickInput(page, 'sk-e2e-secret');
      // The password box closes once the key is taken; the next command's picker must not find it still open.
      await waitFor(page, 'the API key box to close', () =>
        page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 30_000 }),
      );

      // Call trigger-sampling-request from the palette (JSON arguments, so the test does not depend on the tool form).
      await runPickerCommand(page, 'MCP Workbench: Call Tool with JSON Arguments…');
      await quickPick(page, SERVER);
      // The tool list is long and virtualised: filter it first.
      await page.locator(`${QUICK_INPUT} .quick-input-box input`).first().fill('trigger-sampling-request');
      await quickPick(page, 'trigger-sampling-request');
      await typeInQuickInput(page, '{"prompt":"Tell me a joke","maxTokens":60}');

      // The review panel shows the request.
      const review = await frameWith(page, '#system-prompt', 'the sampling review panel');
      const prompt = review.locator('#message-0-0');
      await waitFor(page, 'the prompt in the review panel', () =>
        prompt.waitFor({ state: 'visible', timeout: 30_000 }),
      );
      assert.match(await prompt.inputValue(), /Tell me a joke/);
      assert.match((await review.locator('h1').first().textContent()) ?? '', new RegExp(SERVER));
      await screenshot(page, 'sampling-01-review-request');
      // The action bar sits under the title, above the form (first-hour report 2.20): VS Code's notifications (the
      // "Calling…" progress of this very call) are at the bottom right and covered Reject there.
      const [approveBox, rejectBox, promptBox] = await Promise.all([
        review.locator('#primary').boundingBox(),
        review.locator('#reject').boundingBox(),
        prompt.boundingBox(),
      ]);
      assert.ok(approveBox && rejectBox && promptBox, "the review panel's buttons or prompt have no box");
      assert.ok(
        rejectBox.y + rejectBox.height <= promptBox.y && approveBox.y + approveBox.height <= promptBox.y,
        `the buttons are not above the form: ${JSON.stringify({ approveBox, rejectBox, promptBox })}`,
      );
      const buttonBoxes: { x: number; y: number; width: number; height: number }[] = [approveBox, rejectBox];
      for (const toast of await page.locator('.notification-toast').all()) {
        const box = await toast.boundingBox();
        if (!box) continue;
        for (const button of buttonBoxes) {
          const overlaps: boolean =
            button.x < box.x + box.width &&
            box.x < button.x + button.width &&
            button.y < box.y + box.height &&
            box.y < button.y + button.height;
          assert.equal(
            overlaps,
            false,
            `a notification covers a button of the review panel: ${JSON.stringify({ button, toast: box })}`,
          );
        }
      }
      // The server opened the panel, not the person: it took no keyboard focus and focused no control of its own.
      assert.equal(await review.evaluate(() => document.hasFocus()), false, 'the review webview took keyboard focus');
      assert.equal(
        await review.evaluate(() => document.activeElement?.tagName ?? 'BODY'),
        'BODY',
        'a control of the review panel is focused',
      );
      // A bare Enter that reaches the panel before the person clicked or typed in it approves nothing: the edit and
      // the click below must still find the request (an approval would have replaced it with the streamed answer,
      // and the model would have received the unedited prompt).
      // Focus it the way a person switching to it does, through its tab (no click lands inside the page).
      await page.locator('.tabs-container .tab').filter({ hasText: 'MCP Review' }).first().click();
      await waitFor(page, 'keyboard focus in the review webview', () =>
        waitUntil(
          'keyboard focus in the review webview',
          async () => ((await review.evaluate(() => document.hasFocus())) ? true : undefined),
          15_000,
        ),
      );
      await page.keyboard.press('Enter');
      await prompt.fill('Edited in the browser: tell me a joke about tokens');
      await screenshot(page, 'sampling-02-edited');
      await review.locator('#primary').click();

      // The answer arrives (streamed) and waits for approval.
      const answer = review.locator('#answer');
      await waitFor(page, 'the model answer in the review panel', () =>
        answer.waitFor({ state: 'visible', timeout: 60_000 }),
      );
      assert.equal(await answer.inputValue(), MODEL_ANSWER);
      await screenshot(page, 'sampling-03-answer');
      await review.locator('#primary').click();

      // The tool result (shown by Call Tool) contains the model's answer.
      const result = await frameWith(
        page,
        `text=${MODEL_ANSWER.slice(0, 30)}`,
        'the tool result with the model answer',
      );
      assert.ok(result, 'no tool result frame');
      await screenshot(page, 'sampling-04-tool-result');

      // What the model received: the edited prompt, with the key from SecretStorage.
      assert.equal(model.requests.length, 1, 'requests the model received');
      const sent = JSON.stringify(model.requests[0]?.messages);
      assert.match(sent, /Edited in the browser: tell me a joke about tokens/);
      assert.doesNotMatch(sent, /Tell me a joke"/);
      assert.equal(model.authorizations[0], 'Bearer sk-e2e-secret');
    } finally {
      try {
        await vscode?.dispose();
      } finally {
        await model.close();
      }
    }
  },
);
