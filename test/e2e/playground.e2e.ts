/**
 * End-to-end test of Try with a Model in a real VS Code (code-server) driven from Chromium: a fake OpenAI-compatible
 * model server on 127.0.0.1 is configured as the sampling endpoint; Try with a Model on server-everything's row, the
 * model picked, a request sent from the panel; the model's tool call (echo) shows with its arguments and waits for the
 * person's Allow; after Allow the tool runs on the server, its result shows in the panel and goes back to the model,
 * whose streamed answer and the steps' token counts show. Save as Eval… then appends the request, with the echo call
 * as its expected call, to the workspace's eval file, whose own text (a comment, the first request) stays as it was.
 *
 * Run: MCP_E2E_VSIX=dist/test-build/mcp-workbench-0.1.0.vsix node --import tsx --test test/e2e/playground.e2e.ts
 * Screenshots: test-results/e2e/playground-*.png
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { startOpenAiServer, type ChatBody } from '../fixtures/openai/openaiServer';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  chooseMenuItem,
  clickUncovered,
  openViewContainer,
  quickPick,
  screenshot,
  waitFor,
  waitUntil,
  webviewFrame,
} from './harness';

const SERVER = 'everything';
const ENDPOINT = 'e2e-endpoint';
const MESSAGE = 'hello from the playground';
const EVAL_FILE = 'playground.mcpeval.json';
const EVAL_TEXT = `{
  // written by hand: Save as Eval appends below and leaves this as it is
  "mcpeval": 1,
  "requests": [
    { "name": "greets", "request": "Say hello", "expect": { "answer": { "contains": "hello" } } }
  ]
}
`;

test(
  'Try with a Model: the model calls a tool, the person allows it, the result reaches the model',
  { timeout: 600_000 },
  async () => {
    const model = await startOpenAiServer();
    // A tool call until a tool result came back, then an answer quoting it.
    model.respond = (body: ChatBody) => {
      const result = body.messages.find((message) => message.role === 'tool');
      return result
        ? { kind: 'text', text: `The server answered: ${String(result.content)}` }
        : { kind: 'tool-call', name: 'echo', arguments: { message: MESSAGE }, id: 'call_e2e' };
    };
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'playground',
        mcpJson: { kind: 'servers', servers: { [SERVER]: everythingStdio() } },
        files: { [EVAL_FILE]: EVAL_TEXT },
      });
      const page = await vscode.start({
        settings: {
          'mcpWorkbench.sampling.endpoints': [{ name: ENDPOINT, baseUrl: model.baseUrl, model: 'e2e-model' }],
          'mcpWorkbench.confirmWorkspaceServers': false,
        },
      });
      await openViewContainer(page, 'MCP Workbench');
      const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: SERVER }).first();
      await waitFor(page, `the "${SERVER}" row in the Servers view`, () =>
        row.waitFor({ state: 'visible', timeout: 60_000 }),
      );

      // The server row's context menu: Try with a Model, then the model (the only configured endpoint's).
      await clickUncovered(page, row, { button: 'right' });
      await chooseMenuItem(
        page,
        page.locator('.monaco-menu .action-item', { hasText: /^Try with a Model$/ }).last(),
        'Try with a Model',
      );
      await quickPick(page, 'e2e-model');
      assert.equal(model.requests.length, 0, 'nothing is sent to the model before the person sends a request');

      const panel = await webviewFrame(page, 'the playground panel', '#request');
      await panel.locator('#request').fill('Please echo a greeting');
      await panel.locator('#send').click();

      // The model's tool call shows with its arguments and waits for the person.
      const allow = panel.locator('.entry.call button.allow');
      await waitFor(page, 'the approval of the echo call', () => allow.waitFor({ state: 'visible', timeout: 60_000 }));
      const card = panel.locator('.entry.call').first();
      assert.match((await card.locator('.who').textContent()) ?? '', /echo/);
      assert.match((await card.locator('.args').textContent()) ?? '', new RegExp(MESSAGE));
      assert.ok(await panel.locator('.entry.call button.deny').isVisible(), 'Deny is offered');
      assert.ok(
        await panel.locator('.entry.call button.allow-all').isVisible(),
        'Allow all calls of this tool is offered',
      );
      assert.equal(model.requests.length, 1, 'the model waits while the call waits for approval');
      await screenshot(page, 'playground-01-approval');
      await allow.click();

      // The result (server-everything's echo) shows on the card, and the model's answer quotes it.
      await waitFor(page, "the echo call's result", () =>
        card.locator('.result').waitFor({ state: 'visible', timeout: 60_000 }),
      );
      assert.match((await card.locator('.result').textContent()) ?? '', new RegExp(`Echo: ${MESSAGE}`));
      const answer = panel.locator('.entry.model .answer').last();
      await waitUntil('the model answer in the panel', async () =>
        /The server answered: Echo: hello from the playground/.test((await answer.textContent().catch(() => '')) ?? '')
          ? true
          : undefined,
      );
      // Each step's tokens and time: the fake model reports usage (11 in, 7 out) with its streamed text, none with its
      // streamed tool call (shown as "?").
      assert.equal(await panel.locator('.step').count(), 2);
      assert.match(
        (await panel.locator('.step').first().textContent()) ?? '',
        /^Step 1: \? input tokens, \? output tokens, \d+ ms$/,
      );
      assert.match(
        (await panel.locator('.step').last().textContent()) ?? '',
        /^Step 2: 11 input tokens, 7 output tokens, \d+ ms$/,
      );
      await screenshot(page, 'playground-02-answer');

      // What the model received: the server's tool, then the tool's result.
      const offered = JSON.stringify(model.requests[0]?.tools);
      assert.match(offered, /"name":"echo"/);
      assert.match(JSON.stringify(model.requests[1]?.messages), new RegExp(`Echo: ${MESSAGE}`));
      await waitUntil('Send enabled again', async () =>
        (await panel.locator('#send').isEnabled()) ? true : undefined,
      );

      // Save as Eval…: the request with the call the model made (arguments exact) appended to the picked eval file.
      const saveEval = panel.locator('#saveEval');
      await waitUntil('Save as Eval enabled', async () => ((await saveEval.isEnabled()) ? true : undefined));
      await saveEval.click();
      await quickPick(page, EVAL_FILE);
      const evalPath = path.join(vscode.workspace, EVAL_FILE);
      const saved = await waitUntil('the request appended to the eval file', async () => {
        const text = fs.readFileSync(evalPath, 'utf8');
        return text.includes('Please echo a greeting') ? text : undefined;
      });
      assert.ok(saved.startsWith(EVAL_TEXT.slice(0, EVAL_TEXT.lastIndexOf('}\n  ]'))), saved);
      const requests = (
        JSON.parse(saved.replace(/^\s*\/\/.*$/m, '')) as {
          requests: { request: string; expect: { calls?: { tool: string; args: unknown }[] } }[];
        }
      ).requests;
      assert.deepEqual(requests[1], {
        name: 'Please echo a greeting',
        request: 'Please echo a greeting',
        expect: { calls: [{ tool: 'echo', args: { message: MESSAGE } }] },
      });

      // Attach…: one of the server's resources, shown as a removable chip, goes with the next request (its text inside
      // the user message, marked), and the chips empty once it is sent.
      await panel.locator('#attach').click();
      await quickPick(page, 'architecture.md');
      const chip = panel.locator('#attachments .chip');
      await waitFor(page, 'the attachment chip', () => chip.waitFor({ state: 'visible', timeout: 60_000 }));
      assert.match(
        (await chip.textContent()) ?? '',
        /Resource demo:\/\/resource\/static\/document\/architecture\.md from everything/,
      );
      assert.ok(await chip.locator('button.chip-remove').isVisible(), 'the chip has its Remove button');
      const before = model.requests.length;
      await panel.locator('#request').fill('Summarise the attached document');
      await panel.locator('#send').click();
      const sent = await waitUntil('the request with its attachment at the model', async () =>
        model.requests.length > before ? model.requests[before] : undefined,
      );
      const user = sent.messages.filter((message) => message.role === 'user').at(-1);
      assert.match(
        String(user?.content),
        /^Summarise the attached document\n\n--- Attached resource demo:\/\/resource\/static\/document\/architecture\.md \(server everything\) ---\n[\s\S]+\n--- End of attachment ---$/,
      );
      await waitUntil('the chips emptied', async () => ((await chip.count()) === 0 ? true : undefined));
      assert.match(
        (await panel.locator('.entry.user').last().locator('.attached').textContent()) ?? '',
        /architecture\.md from everything/,
        "the request's entry says what it carried",
      );
      await screenshot(page, 'playground-03-attachment');
    } finally {
      try {
        await vscode?.dispose();
      } finally {
        await model.close();
      }
    }
  },
);
