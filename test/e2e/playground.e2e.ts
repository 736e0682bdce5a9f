/**
 * End-to-end test of Try with a Model in a real VS Code (code-server) driven from Chromium: a fake OpenAI-compatible
 * model server on 127.0.0.1 is configured as the sampling endpoint; Try with a Model on server-everything's row, the
 * model picked, a request sent from the panel; the model's tool call (echo) shows with its arguments and waits for the
 * person's Allow; after Allow the tool runs on the server, its result shows in the panel and goes back to the model,
 * whose streamed answer and the steps' token counts show. Save as Eval… then appends the request, with the echo call
 * as its expected call, to the workspace's eval file, whose own text (a comment, the first request) stays as it was.
 * A second window: a prompt attached goes to the model as the prompt's messages; a tool whose agent rule is Review
 * Result has its result shown in a modal before the model reads it, and Withhold gives the model the fixed refusal
 * instead; the panel's own Export Conversation… button writes the conversation to the file picked in the save dialog.
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
  answerDialog,
  chooseMenuItem,
  clickUncovered,
  openViewContainer,
  pane,
  quickPick,
  screenshot,
  visibleRow,
  waitFor,
  waitForQuickInput,
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

/** What the model reads of a withheld result (workbench/evals/toolLoop.ts, WITHHELD). */
const WITHHELD = 'The person withheld the result of this tool call.';
const PLANTED = 'planted-instructions-for-the-model';

test(
  'Try with a Model: a prompt attached reaches the model, Review Result withholds a result, Export writes the chat',
  { timeout: 600_000 },
  async () => {
    const model = await startOpenAiServer();
    // The echo call for the request that asks for it, until a tool result came back; otherwise a short answer.
    model.respond = (body: ChatBody) => {
      const last = body.messages.at(-1);
      if (last?.role === 'tool') return { kind: 'text', text: 'I read the tool result.' };
      return /echo/i.test(String(last?.content))
        ? { kind: 'tool-call', name: 'echo', arguments: { message: PLANTED }, id: 'call_review' }
        : { kind: 'text', text: 'I read the prompt.' };
    };
    let vscode: VsCodeFixture | undefined;
    try {
      vscode = await VsCodeFixture.prepare({
        name: 'playground-review',
        mcpJson: { kind: 'servers', servers: { [SERVER]: everythingStdio() } },
      });
      const page = await vscode.start({
        settings: {
          'mcpWorkbench.sampling.endpoints': [{ name: ENDPOINT, baseUrl: model.baseUrl, model: 'e2e-model' }],
          'mcpWorkbench.confirmWorkspaceServers': false,
        },
      });
      await openViewContainer(page, 'MCP Workbench');
      const servers = pane(page, 'Servers');
      const row = await visibleRow(page, servers, SERVER);
      await clickUncovered(page, row, { button: 'right' });
      await chooseMenuItem(
        page,
        page.locator('.monaco-menu .action-item', { hasText: /^Try with a Model$/ }).last(),
        'Try with a Model',
      );
      await quickPick(page, 'e2e-model');
      const panel = await webviewFrame(page, 'the playground panel', '#request');

      // Attach… a prompt (simple-prompt: no arguments): its messages go with the next request, marked as a prompt.
      await panel.locator('#attach').click();
      await quickPick(page, /Simple Prompt/);
      const chip = panel.locator('#attachments .chip');
      await waitFor(page, 'the prompt chip', () => chip.waitFor({ state: 'visible', timeout: 60_000 }));
      assert.match((await chip.textContent()) ?? '', /Prompt simple-prompt from everything/);
      await panel.locator('#request').fill('Follow the attached prompt');
      await panel.locator('#send').click();
      const first = await waitUntil('the request with the prompt at the model', async () => model.requests[0]);
      assert.equal(
        String(first.messages.filter((message) => message.role === 'user').at(-1)?.content),
        'Follow the attached prompt\n\n--- Attached prompt simple-prompt (server everything) ---\n' +
          'user: This is a simple prompt without arguments.\n--- End of attachment ---',
      );
      await waitUntil('Send enabled again', async () =>
        (await panel.locator('#send').isEnabled()) ? true : undefined,
      );

      // echo's agent rule: Review Result (the tool row's Agent Policy submenu), set while the panel is open: the
      // panel reads the rule at each call.
      const echoRow = await visibleRow(page, servers, 'echo');
      await clickUncovered(page, echoRow, { button: 'right' });
      await chooseMenuItem(
        page,
        page.locator('.monaco-menu .action-item', { hasText: /^Agent Policy/ }).last(),
        'Agent Policy',
        { opens: 'submenu' },
      );
      await chooseMenuItem(
        page,
        page.locator('.monaco-menu .action-item', { hasText: /^Review Result$/ }).last(),
        'Review Result',
      );

      // The model calls echo; the person allows the call; its result is shown before the model reads it.
      const asked = model.requests.length;
      await panel.locator('#request').fill('Please echo something');
      await panel.locator('#send').click();
      const allow = panel.locator('.entry.call button.allow');
      await waitFor(page, 'the approval of the echo call', () => allow.waitFor({ state: 'visible', timeout: 60_000 }));
      await allow.click();
      const dialog = page.locator('.monaco-dialog-box').first();
      await waitFor(page, 'the Review Result question', () => dialog.waitFor({ state: 'visible', timeout: 60_000 }));
      assert.equal(model.requests.length, asked + 1, 'the model has not read the result while the person reviews it');
      await screenshot(page, 'playground-04-review-result');
      const question = await answerDialog(page, 'Withhold');
      assert.ok(
        question.includes('Tool "echo" of MCP server "everything" answered') &&
          question.includes(`Result: Echo: ${PLANTED}`),
        `the question names the tool and shows its result:\n${question}`,
      );
      const withheld = await waitUntil('the model request after Withhold', async () => model.requests[asked + 1]);
      const toolMessages = withheld.messages.filter((message) => message.role === 'tool');
      assert.equal(toolMessages.length, 1, JSON.stringify(withheld.messages));
      assert.ok(String(toolMessages[0]?.content).includes(WITHHELD), JSON.stringify(toolMessages[0]));
      assert.ok(!JSON.stringify(withheld.messages).includes(`Echo: ${PLANTED}`), 'the model read the withheld result');
      // The call's card says the model did not read the result it shows.
      const echoCard = panel.locator('.entry.call').first();
      const mark = echoCard.locator('.withheld');
      await waitUntil('the card marked withheld', async () =>
        (await mark.count()) > 0 && /Withheld: the model read a refusal instead/.test((await mark.textContent()) ?? '')
          ? true
          : undefined,
      );
      await waitUntil('Send enabled again', async () =>
        (await panel.locator('#send').isEnabled()) ? true : undefined,
      );

      // Export Conversation… from the panel's own button: the save dialog, then the conversation as JSON.
      const exported = path.join(vscode.workspace, 'exported-conversation.json');
      const exportButton = panel.locator('#export');
      await waitUntil('Export enabled', async () => ((await exportButton.isEnabled()) ? true : undefined));
      await exportButton.click();
      // The save dialog (VS Code's own, a quick input): once it shows its own proposal (the workspace's folder listed,
      // the default name in the box; it sets that box after it opens, over anything put there sooner), the path is put
      // in whole, in one input event, then OK. Typed key by key, the dialog completes each folder name as it is typed.
      await waitForQuickInput(page);
      const pathBox = page.locator('.quick-input-widget .quick-input-box input').first();
      await waitUntil("the save dialog's proposal", async () =>
        /\/conversation-[^/]*\.md$/.test(await pathBox.inputValue()) &&
        (await page.locator('.quick-input-widget .monaco-list-row', { hasText: '.vscode' }).count()) > 0
          ? true
          : undefined,
      );
      let typed = '';
      await waitUntil('the path in the save dialog', async () => {
        await pathBox.fill(exported);
        return (typed = await pathBox.inputValue()) === exported ? true : undefined;
      }).catch((error: unknown) => {
        throw new Error(`${String(error)}: the box holds ${JSON.stringify(typed)}, not ${JSON.stringify(exported)}`);
      });
      await screenshot(page, 'playground-05-export-dialog');
      await page.locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ }).first().click();
      const record = await waitUntil('the exported conversation', async () => {
        try {
          return JSON.parse(fs.readFileSync(exported, 'utf8')) as {
            model: { name: string };
            servers: string[];
            turns: {
              request: string;
              attachments: { kind: string; label: string }[];
              calls: { tool: string; arguments: unknown; withheld?: boolean }[];
              answer?: string;
            }[];
          };
        } catch {
          return undefined; // not written yet, or written halfway
        }
      });
      assert.deepEqual(record.servers, [SERVER]);
      assert.deepEqual(
        record.turns.map((turn) => [
          turn.request,
          turn.attachments.map((item) => `${item.kind} ${item.label}`),
          turn.calls.map((call) => [call.tool, call.arguments, call.withheld ?? false]),
          turn.answer,
        ]),
        [
          ['Follow the attached prompt', ['prompt simple-prompt'], [], 'I read the prompt.'],
          ['Please echo something', [], [['echo', { message: PLANTED }, true]], 'I read the tool result.'],
        ],
      );
    } finally {
      try {
        await vscode?.dispose();
      } finally {
        await model.close();
      }
    }
  },
);
