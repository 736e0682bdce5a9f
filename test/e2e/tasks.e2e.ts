/**
 * Tasks end to end in a real VS Code (code-server) driven from Chromium, as a person would:
 *   - server-everything's simulate-research-query (`execution.taskSupport: "required"`): its form shows "Run as task"
 *     checked and disabled; called from the form it runs as a task, its result is drawn under the form, and the
 *     Tasks view shows the task with its tool and the status "completed"; Open Task Result draws that result in
 *     the tool's result tab, as a call's result is drawn;
 *   - the optional-task fixture's steep (`taskSupport: "optional"`, test/fixtures/tasks/optional-task-server.mjs, on the
 *     SDK's tasks): with `mcpWorkbench.tasks.runOptionalAsTask` on, "Run as task" is checked and can be changed;
 *     called, it shows in the Tasks view as working with its status message (so the call was task-augmented: called
 *     plainly, the SDK would keep the task to itself); Cancel Task cancels it there and under the form.
 *   - an ambiguous research query asks for a clarification: the elicitation form's title names the task and its tool.
 *   - the fixture's muse samples inside its task (its sampling/createMessage carries the related-task tag): the sampling
 *     review's title names the task and its tool; approved twice, the answer of a real OpenAI-compatible model server
 *     on 127.0.0.1 (test/fixtures/openai/openaiServer.ts, configured in mcpWorkbench.sampling.endpoints) ends the task.
 * Open Task Result's tab shows the arguments the call was made with (the task book keeps them).
 * Screenshots: test-results/e2e/tasks-01-tasks.png, tasks-02-cancelled.png, tasks-03-elicitation.png, tasks-04-sampling.png.
 *
 * Run: node --import tsx --test test/e2e/tasks.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { startOpenAiServer } from '../fixtures/openai/openaiServer';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  answerDialog,
  clickUncovered,
  inlineAction,
  notificationTexts,
  openViewContainer,
  pane,
  paneRows,
  REPO_ROOT,
  screenshot,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
} from './harness';

const OPTIONAL_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'optional-task-server.mjs');
const RESEARCH = 'simulate-research-query';
const MODEL_ANSWER = 'Tides keep the time the moon sets.';

/** Expands the server's row (its first start asks for consent) and opens the form of `tool`, found by `formText`. */
async function openForm(page: Page, server: string, tool: string, formText: string): Promise<Frame> {
  const servers = pane(page, 'Servers');
  await clickUncovered(page, await visibleRow(page, servers, server));
  await answerDialog(page, 'Allow and Start');
  await inlineAction(page, await visibleRow(page, servers, tool), 'Call Tool');
  return webviewFrame(page, `the Call Tool form for ${tool}`, `text=${formText}`);
}

/** The description of the Tasks view's row for `tool` once it matches `pattern` (it reads "status · message · age"). */
async function taskRowSays(tasks: Locator, tool: string, pattern: RegExp): Promise<string> {
  let description = '';
  await waitUntil(
    `the Tasks view's row for ${tool} to match ${pattern}`,
    async () => {
      description = (
        (await paneRows(tasks, tool)
          .first()
          .locator('.label-description')
          .textContent({ timeout: 2_000 })
          .catch(() => null)) ?? ''
      ).trim();
      return pattern.test(description) ? description : undefined;
    },
    60_000,
  ).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; the row says ${JSON.stringify(description)}`,
    );
  });
  return description;
}

/** The text under a form once it matches `pattern`. */
async function resultSays(form: Frame, pattern: RegExp, what: string): Promise<void> {
  let shown = '';
  await waitUntil(
    what,
    async () => {
      shown = (
        (await form
          .locator('#result')
          .first()
          .textContent({ timeout: 2_000 })
          .catch(() => null)) ?? ''
      ).trim();
      return pattern.test(shown) ? true : undefined;
    },
    60_000,
  ).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; the result area says ${JSON.stringify(shown.slice(0, 500))}`,
    );
  });
}

test(
  'tasks in real VS Code: run from the form, followed in the Tasks view, cancelled, their result opened',
  { timeout: 600_000 },
  async () => {
    const model = await startOpenAiServer([{ kind: 'text', text: MODEL_ANSWER, model: 'e2e-model' }]);
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'tasks',
        mcpJson: {
          kind: 'servers',
          comment: 'server-everything and the optional-task fixture over stdio, for tasks.e2e.ts',
          servers: {
            everything: everythingStdio(),
            brewery: { type: 'stdio', command: process.execPath, args: [OPTIONAL_FIXTURE] },
          },
        },
        settings: {
          'workbench.colorTheme': 'Default Dark Modern',
          'mcpWorkbench.tasks.runOptionalAsTask': true,
          // A model for the sampling muse asks for (no API key: the test server takes none).
          'mcpWorkbench.sampling.endpoints': [{ name: 'e2e-endpoint', baseUrl: model.baseUrl, model: 'e2e-model' }],
        },
      });
      const { page } = session;
      await openViewContainer(page, 'MCP Workbench');

      // 1. A tool that requires a task: "Run as task" is shown checked and cannot be unchecked.
      const research = await openForm(page, 'everything', RESEARCH, 'Simulates a deep research operation');
      const required = research.locator('#run-as-task');
      assert.equal(await required.isChecked(), true, 'required: checked');
      assert.equal(await required.isDisabled(), true, 'required: disabled');
      await research.getByLabel(/^topic\b/).fill('tides');
      await research.locator('#submit').click();
      await resultSays(research, /Research Report: tides/, 'the research report under the form');

      // Fold everything's tools so the fixture's row and the Tasks pane have room.
      await clickUncovered(page, await visibleRow(page, pane(page, 'Servers'), 'Tools'));

      // 2. An optional tool with the setting on: checked, and the person may change it.
      const steep = await openForm(page, 'brewery', 'steep', 'Steeps until cancelled');
      const optional = steep.locator('#run-as-task');
      assert.equal(await optional.isChecked(), true, 'optional with runOptionalAsTask on: checked');
      assert.equal(await optional.isDisabled(), false, 'optional: the person may uncheck it');
      await steep.locator('#submit').click();

      // The Tasks view (collapsed at first) shows both tasks with their tools and statuses: steep working with its
      // status message (so its call was task-augmented: called plainly, the SDK keeps the task to itself), the
      // research completed. Live tasks come first, so neither row moves when steep ends.
      const tasks = pane(page, 'Tasks');
      const header = tasks.locator('.pane-header').first();
      await waitFor(page, 'the Tasks pane header', () => header.waitFor({ state: 'visible', timeout: 30_000 }));
      if ((await header.getAttribute('aria-expanded')) !== 'true') await clickUncovered(page, header);
      await visibleRow(page, tasks, 'steep');
      await taskRowSays(tasks, 'steep', /^working · steeping\b/);
      await taskRowSays(tasks, RESEARCH, /^completed\b/);
      await page.mouse.move(0, 0);
      await screenshot(page, 'tasks-01-tasks');

      // Open Task Result draws the finished task's result in the tool's result tab, as a call's result is drawn.
      await inlineAction(page, await visibleRow(page, tasks, RESEARCH), 'Open Task Result');
      const resultTab = await webviewFrame(page, 'the result tab of the task', 'main#result[data-place="tab"]').catch(
        async (error: unknown) => {
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}; notifications: ${JSON.stringify(await notificationTexts(page))}`,
          );
        },
      );
      let drawn = '';
      await waitUntil(
        'the research report in the result tab',
        async () => {
          drawn = (
            (await resultTab
              .locator('main#result')
              .first()
              .textContent({ timeout: 2_000 })
              .catch(() => null)) ?? ''
          ).trim();
          return /Research Report: tides/.test(drawn) ? true : undefined;
        },
        60_000,
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; the tab says ${JSON.stringify(drawn.slice(0, 300))}`,
        );
      });
      // With the arguments the call was made with (the task book kept them; they were {} before).
      const shownArguments = ((await resultTab.locator('main#result details').first().textContent()) ?? '').trim();
      assert.match(shownArguments, /"topic":\s*"tides"/, `the arguments in the result tab: ${shownArguments}`);

      // Cancel Task: the row says cancelled, and so does the form's result area (the call ends with the task).
      await inlineAction(page, await visibleRow(page, tasks, 'steep'), 'Cancel Task');
      await taskRowSays(tasks, 'steep', /^cancelled\b/);
      await resultSays(steep, /cancelled/i, 'the form to say the call ended cancelled');
      await page.mouse.move(0, 0);
      await screenshot(page, 'tasks-02-cancelled');

      // 3. Input a task needs names the task: an ambiguous research query asks for a clarification while its
      // tasks/result waits, and the elicitation form's title names the task and its tool.
      await page
        .locator('.tabs-container .tab', { hasText: `Call ${RESEARCH}` })
        .first()
        .click();
      await research.getByLabel(/^topic\b/).fill('python');
      await research.getByLabel(/^ambiguous\b/).check();
      await research.locator('#submit').click();
      const review = await webviewFrame(
        page,
        'the elicitation form of the task',
        'h1:has-text("asks for information for task")',
      );
      const title = ((await review.locator('h1').first().textContent()) ?? '').trim();
      assert.match(
        title,
        new RegExp(`^"everything" asks for information for task \\S+ \\(${RESEARCH}\\)$`),
        `the title: ${title}`,
      );
      await page.mouse.move(0, 0);
      await screenshot(page, 'tasks-03-elicitation');
      await review.locator('#decline').click();
      await resultSays(research, /User declined/, 'the research report with the declined clarification');

      // 4. Sampling a task needs names the task too: muse asks the model while its tasks/result waits, and the
      // sampling review's title names the task and its tool.
      await inlineAction(page, await visibleRow(page, pane(page, 'Servers'), 'muse'), 'Call Tool');
      const muse = await webviewFrame(page, 'the Call Tool form for muse', "text=Asks the client's model");
      await muse.getByLabel(/^theme\b/).fill('tides');
      await muse.locator('#submit').click();
      const sampling = await webviewFrame(
        page,
        'the sampling review of the task',
        'h1:has-text("asks for a model completion for task")',
      );
      const samplingTitle = ((await sampling.locator('h1').first().textContent()) ?? '').trim();
      assert.match(
        samplingTitle,
        /^"brewery" asks for a model completion for task \S+ \(muse\)$/,
        `the title: ${samplingTitle}`,
      );
      await page.mouse.move(0, 0);
      await screenshot(page, 'tasks-04-sampling');
      await sampling.locator('#primary').click();
      const answer = sampling.locator('#answer');
      await waitFor(page, 'the model answer in the review panel', () =>
        answer.waitFor({ state: 'visible', timeout: 60_000 }),
      );
      assert.equal(await answer.inputValue(), MODEL_ANSWER);
      await sampling.locator('#primary').click();
      await resultSays(
        muse,
        new RegExp(`muse: ${MODEL_ANSWER.replace(/[.]/g, '\\.')}`),
        "the model's answer under muse's form",
      );
      assert.equal(model.requests.length, 1, 'requests the model received');
      assert.match(JSON.stringify(model.requests[0]?.messages), /Write one line about tides/);
    } finally {
      try {
        await session?.dispose();
      } finally {
        await model.close();
      }
    }
  },
);
