/**
 * End-to-end evals in a real VS Code (code-server) driven from Chromium: a workspace with server-everything in its
 * mcp.json and an eval file (`checks.mcpeval.json`, two requests on its echo tool), and a fake OpenAI-compatible model
 * on 127.0.0.1 as the sampling endpoint, which calls echo with the text the request asks for. The eval shows in the
 * Testing view; Run All Tests asks for the server and the model, runs both requests through the model and the server;
 * the first passes, the second fails (the model echoes "actual words", the file expects "expected words") and the
 * failure's peek shows the expected call against the call the model made.
 *
 * Run: MCP_E2E_VSIX=dist/test-build/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/evals.e2e.ts
 * Screenshots: test-results/e2e/evals-*.png
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startOpenAiServer, type ChatBody } from '../fixtures/openai/openaiServer';
import { VsCodeFixture, everythingStdio } from './fixture';
import { openViewContainer, quickPick, runPickerCommand, screenshot, waitFor, waitUntil } from './harness';

const SERVER = 'everything';
const EVAL_FILE = 'checks.mcpeval.json';

const evalFile = {
  $schema: 'https://mcp-workbench.dev/schemas/mcpeval.schema.json',
  mcpeval: 1,
  models: ['e2e-model'],
  requests: [
    {
      name: 'echoes hello',
      request: 'Echo the words: hello',
      expect: { calls: [{ tool: 'echo', args: { message: 'hello' } }] },
    },
    {
      name: 'echoes the expected words',
      request: 'Echo the words: actual words',
      expect: { calls: [{ tool: 'echo', args: { message: 'expected words' } }] },
    },
  ],
};

/** The person's request of the conversation the model is sent (the first user message). */
function requestOf(body: ChatBody): string {
  const content = body.messages.find((message) => message.role === 'user')?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The Testing view's rows whose accessible label starts with `label`, e.g. "checks (Failed)". */
async function waitForRowState(page: Page, label: string, state: 'Passed' | 'Failed'): Promise<string> {
  return waitUntil(
    `the test item "${label}" to be ${state}`,
    async () => {
      const labels = await page
        .locator('.part.sidebar .monaco-list-row')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
      return labels.find((text) => text.startsWith(label) && text.includes(state));
    },
    120_000,
  );
}

test(
  'Evals in the Test Explorer: a passing and a failing request, the failure showing the expected and the actual call',
  { timeout: 600_000 },
  async () => {
    const model = await startOpenAiServer();
    // Calls echo with the words after "Echo the words: ", then answers once the tool's result came back.
    model.respond = (body: ChatBody) => {
      if (body.messages.some((message) => message.role === 'tool')) return { kind: 'text', text: 'Done.' };
      const words = /Echo the words: (.*)$/.exec(requestOf(body))?.[1] ?? '';
      return { kind: 'tool-call', name: 'echo', arguments: { message: words }, id: `call_${words.length}` };
    };
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'evals',
        mcpJson: { kind: 'servers', servers: { [SERVER]: everythingStdio() } },
        files: { [EVAL_FILE]: `${JSON.stringify(evalFile, null, 2)}\n` },
      });
      const page = await vscode.start({
        settings: {
          'mcpWorkbench.sampling.endpoints': [{ name: 'e2e-endpoint', baseUrl: model.baseUrl, model: 'e2e-model' }],
          'mcpWorkbench.confirmWorkspaceServers': false,
          'testing.automaticallyOpenPeekView': 'failureAnywhere',
        },
      });

      // The eval file is an item of the Testing view.
      await openViewContainer(page, 'Testing');
      const fileRow = page.locator('.part.sidebar .monaco-list-row[aria-label^="checks"]').first();
      await waitFor(page, 'the eval file in the Testing view', () =>
        fileRow.waitFor({ state: 'visible', timeout: 90_000 }),
      );
      assert.equal(model.requests.length, 0, 'listing the eval sends nothing to the model');

      // Run it: the server and the model are asked for (an eval file names neither), then both requests run.
      await runPickerCommand(page, 'Test: Run All Tests');
      await quickPick(page, SERVER);
      await quickPick(page, 'e2e-model');
      await waitForRowState(page, 'checks', 'Failed');
      assert.equal(model.requests.length, 4, 'two model calls per request: the tool call, then the answer');

      // The failure's peek: the expected call on the diff's original side, the model's call on its modified side.
      const diff = page.locator('.monaco-diff-editor').first();
      await waitFor(page, 'the failure peek with the diff', () => diff.waitFor({ state: 'visible', timeout: 60_000 }));
      // The editor draws spaces as no-break spaces.
      const sideText = async (side: 'original' | 'modified') =>
        ((await diff.locator(`.editor.${side}`).first().textContent()) ?? '').replace(/\u00a0/g, ' ');
      const sides = await waitUntil('both calls in the diff', async () => {
        const [expected, actual] = [await sideText('original'), await sideText('modified')];
        return expected.includes('expected words') && actual.includes('actual words')
          ? { expected, actual }
          : undefined;
      });
      assert.match(sides.expected, /"tool": "echo"/);
      assert.match(sides.actual, /"tool": "echo"/);
      assert.ok(!sides.expected.includes('actual words'), `the expected side shows the actual call: ${sides.expected}`);
      await screenshot(page, 'evals-failed');

      // Each request's own verdict (its row under the file's): the first passed, the second failed with its pass rate.
      await waitForRowState(page, '1. echoes hello', 'Passed');
      await waitForRowState(page, '2. echoes the expected words', 'Failed');
      const peekTitle = page.locator('.peekview-widget .peekview-title').first();
      assert.match((await peekTitle.textContent()) ?? '', /0\/1 runs passed/);
    } finally {
      try {
        await vscode?.dispose();
      } finally {
        await model.close();
      }
    }
  },
);
