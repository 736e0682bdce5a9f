/**
 * End-to-end cancellation of a tool call in a real VS Code (code-server 4.100.3) driven from Chromium, as a person
 * would: server-everything's trigger-long-running-operation is called from its form with a duration far longer
 * than any wait here (so only a cancel can end it in time), "Calling…" and the progress line appear under the form
 * (the call's one progress UI: no progress notification beside it), and the call is cancelled twice with the form's
 * "Cancel Call" button. Each time the result area says the call was cancelled, the form can call again, and the
 * server's log channel shows notifications/cancelled sent for that call's request id (the protocol trace is on).
 * The History view records both calls as cancelled. server-everything's tool ignores the cancel (it keeps sending
 * progress, which the client drops), so a second test proves the server side: the official v2 SDK fixture's `slow`
 * tool (test/fixtures/modern/server.mjs) counts the abort signals it got, and after two cancels its
 * `cancelled_count` tool, called from its form, answers 2.
 * Screenshots: test-results/e2e/cancel-01-calling.png, cancel-02-cancelled.png, cancel-03-history.png.
 *
 * Run: node --import tsx --test test/e2e/cancel.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import * as path from 'node:path';
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { VsCodeFixture, everythingStdio } from './fixture';
import {
  answerDialog,
  clickUncovered,
  hideNotificationsCenter,
  inlineAction,
  openViewContainer,
  pane,
  paneRows,
  REPO_ROOT,
  screenshot,
  visibleRow,
  waitFor,
  waitForNotificationGone,
  waitUntil,
  webviewFrame,
} from './harness';

const SERVER = 'everything';
const TOOL = 'trigger-long-running-operation';
// The Output channel "MCP Workbench: everything"; VS Code names its log file without the colon.
const LOG_CHANNEL = `MCP Workbench ${SERVER}`;
/** Far longer than every wait below: the call can only end within them by being cancelled. */
const DURATION_SECONDS = 600;
/** One progress notification every two seconds. */
const STEPS = 300;
const LONG_RUNNING: CallUnderTest = {
  tool: TOOL,
  server: SERVER,
  progress: new RegExp(`^\\d+/${STEPS}$`),
  completed: 'Long running operation completed',
};

/** The message a progress notification of a running call of `tool` would have (the form's calls show none). */
function progressMessage(tool: string, server: string): string {
  return `Calling ${tool} on ${server}`;
}

interface CallUnderTest {
  tool: string;
  server: string;
  /** The progress line the call shows once the server reported progress. */
  progress: RegExp;
  /** Text only a call that ran to its end shows. */
  completed: string;
}

/** Submits the form and waits for "Calling…" and a progress line under the form, with no progress notification beside them. */
async function startCall(page: Page, form: Frame, call: CallUnderTest): Promise<void> {
  const calling = `Calling ${call.tool}…`;
  await form.locator('#submit').click();
  await waitFor(page, `"${calling}" under the form`, () =>
    form.getByText(calling).first().waitFor({ state: 'visible', timeout: 60_000 }),
  );
  const progressLine = form.locator('#call-progress');
  let last = '';
  await waitUntil(
    `the progress line ${call.progress} under the form`,
    async () => {
      last = ((await progressLine.textContent().catch(() => null)) ?? '').trim();
      return call.progress.test(last) ? last : undefined;
    },
    60_000,
  ).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)} (the line says ${JSON.stringify(last)})`,
    );
  });
  await waitForNotificationGone(page, progressMessage(call.tool, call.server));
  await hideNotificationsCenter(page);
  assert.equal(await form.locator('#submit').isDisabled(), true, 'the Call button is disabled while the call runs');
}

/** After a cancel: the result area says so and the form can call again. */
async function expectCancelled(page: Page, form: Frame, call: CallUnderTest, how: string): Promise<void> {
  const cancelled = `The call of ${call.tool} was cancelled.`;
  await waitFor(page, `"${cancelled}" under the form after ${how}`, () =>
    form.getByText(cancelled).first().waitFor({ state: 'visible', timeout: 60_000 }),
  );
  assert.equal(await form.getByText(`Calling ${call.tool}…`).count(), 0, `"Calling…" is gone after ${how}`);
  assert.equal(await form.getByText(call.completed).count(), 0, `the call did not complete (${how})`);
  await waitUntil(
    `the Call button to be enabled again after ${how}`,
    async () => ((await form.locator('#submit').isEnabled()) ? true : undefined),
    30_000,
  );
}

/** Opens the MCP Workbench view, expands `server` (its first start asks for consent) and opens the form of `tool`. */
async function openForm(page: Page, server: string, tool: string, formSelector: string): Promise<Frame> {
  await openViewContainer(page, 'MCP Workbench');
  const servers = pane(page, 'Servers');
  await clickUncovered(page, await visibleRow(page, servers, server));
  await answerDialog(page, 'Allow and Start');
  await inlineAction(page, await visibleRow(page, servers, tool), 'Call Tool');
  return webviewFrame(page, `the Call Tool form for ${tool}`, formSelector);
}

/**
 * The request ids of the tools/call requests for TOOL and the request ids named by notifications/cancelled, read from
 * the verbose protocol trace (each traced message is a "[trace] → …" line followed by its JSON body).
 */
function tracedCallsAndCancels(log: string): { calls: number[]; cancelled: number[] } {
  const calls: number[] = [];
  const cancelled: number[] = [];
  const entries = log.split(/\n(?=\S.*\[trace\] )/);
  for (const entry of entries) {
    const call = /\[trace\] → request tools\/call #(\d+)/.exec(entry);
    if (call && entry.includes(`"name": "${TOOL}"`)) calls.push(Number(call[1]));
    if (/\[trace\] → notification notifications\/cancelled/.test(entry)) {
      const id = /"requestId": "?(\d+)"?/.exec(entry);
      if (id) cancelled.push(Number(id[1]));
    }
  }
  return { calls, cancelled };
}

/** How many times the log says a call of TOOL was cancelled by the user. */
function userCancels(log: string): number {
  return log.split(`Call of ${TOOL} cancelled by the user`).length - 1;
}

/**
 * Waits until the log channel's file shows `count` calls of TOOL, each followed by notifications/cancelled for its id,
 * and `count` lines saying a call was cancelled by the user. That line is logged after the cancel went out, and the
 * file is written behind the logging (spdlog's own thread): the trace being there says nothing of it yet.
 */
async function expectCancelNotifications(session: VsCodeFixture, count: number): Promise<void> {
  let seen: { calls: number[]; cancelled: number[] } = { calls: [], cancelled: [] };
  let log = '';
  try {
    log = await waitUntil(
      `${count} call(s) of ${TOOL} each cancelled on the wire, and said so in the log`,
      () => {
        const text = session.extensionLog(LOG_CHANNEL) ?? '';
        seen = tracedCallsAndCancels(text);
        return seen.calls.length === count &&
          seen.calls.every((id) => seen.cancelled.includes(id)) &&
          userCancels(text) >= count
          ? text
          : undefined;
      },
      30_000,
    );
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; traced calls ${JSON.stringify(seen.calls)}, cancelled ${JSON.stringify(seen.cancelled)}; log:\n${session.extensionLog(LOG_CHANNEL) ?? '(no log file)'}`,
    );
  }
  assert.equal(userCancels(log), count, `the log says ${count} call(s) were cancelled by the user`);
}

test("cancelling a tool call in real VS Code: the form's Cancel Call, twice", { timeout: 600_000 }, async () => {
  let session: VsCodeFixture | undefined;
  try {
    session = await VsCodeFixture.open({
      name: 'cancel',
      mcpJson: {
        kind: 'servers',
        comment: 'server-everything over stdio, for cancel.e2e.ts',
        servers: { [SERVER]: everythingStdio() },
      },
      // The verbose protocol trace shows what went to the server: the call's id and the cancel naming it.
      settings: { 'workbench.colorTheme': 'Default Light Modern', 'mcpWorkbench.trace.server': 'verbose' },
    });
    const { page } = session;
    const form = await openForm(page, SERVER, TOOL, 'form input');
    await form.getByLabel(/^duration\b/).fill(String(DURATION_SECONDS));
    await form.getByLabel(/^steps\b/).fill(String(STEPS));

    // 1. The form's own Cancel Call button.
    await startCall(page, form, LONG_RUNNING);
    await page.mouse.move(0, 0);
    await screenshot(page, 'cancel-01-calling');
    await form.locator('button[data-action="cancelCall"]').click();
    await expectCancelled(page, form, LONG_RUNNING, 'Cancel Call in the form');
    await expectCancelNotifications(session, 1);
    await screenshot(page, 'cancel-02-cancelled');

    // 2. Again: the form calls and cancels as often as asked.
    await startCall(page, form, LONG_RUNNING);
    await form.locator('button[data-action="cancelCall"]').click();
    await expectCancelled(page, form, LONG_RUNNING, 'a second Cancel Call in the form');
    await expectCancelNotifications(session, 2);

    // The History view records both calls as cancelled. Fold the tools so the History pane has room.
    await clickUncovered(page, await visibleRow(page, pane(page, 'Servers'), 'Tools'));
    const history = pane(page, 'History');
    const header = history.locator('.pane-header').first();
    await waitFor(page, 'the History pane header', () => header.waitFor({ state: 'visible', timeout: 30_000 }));
    if ((await header.getAttribute('aria-expanded')) !== 'true') await clickUncovered(page, header);
    await visibleRow(page, history, SERVER);
    let descriptions: string[] = [];
    await waitUntil(
      `two ${TOOL} entries recorded as cancelled in the History view (descriptions: ${JSON.stringify(descriptions)})`,
      async () => {
        descriptions = await paneRows(history, TOOL).locator('.label-description').allTextContents();
        return descriptions.length === 2 && descriptions.every((text) => /\d+ ms · cancelled$/.test(text.trim()))
          ? true
          : undefined;
      },
      60_000,
    ).catch((error: unknown) => {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; History descriptions: ${JSON.stringify(descriptions)}`,
      );
    });
    await page.mouse.move(0, 0);
    await screenshot(page, 'cancel-03-history');
  } finally {
    await session?.dispose();
  }
});

const MODERN = 'modern';
const SLOW: CallUnderTest = { tool: 'slow', server: MODERN, progress: /^started$/, completed: 'finished' };

test(
  'cancelling a tool call in real VS Code: the server sees both cancels (its slow tool counts them)',
  { timeout: 600_000 },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'cancel-modern',
        mcpJson: {
          kind: 'servers',
          comment:
            'the official v2 SDK fixture, whose slow tool runs until its request is cancelled, for cancel.e2e.ts',
          servers: {
            [MODERN]: {
              type: 'stdio',
              command: process.execPath,
              args: [
                path.join(REPO_ROOT, 'test', 'fixtures', 'modern', 'server.mjs'),
                '--transport',
                'stdio',
                '--legacy',
                'reject',
              ],
              era: '2026-07-28',
            },
          },
        },
        settings: { 'workbench.colorTheme': 'Default Light Modern' },
      });
      const { page } = session;
      // slow has no arguments: its form has a Call button and no fields.
      const form = await openForm(page, MODERN, 'slow', 'text=Runs until cancelled');
      await startCall(page, form, SLOW);
      await form.locator('button[data-action="cancelCall"]').click();
      await expectCancelled(page, form, SLOW, 'Cancel Call in the form');
      await startCall(page, form, SLOW);
      await form.locator('button[data-action="cancelCall"]').click();
      await expectCancelled(page, form, SLOW, 'a second Cancel Call in the form');

      // The server's own count: its slow tool's abort signal fired once per cancel.
      await inlineAction(page, await visibleRow(page, pane(page, 'Servers'), 'cancelled_count'), 'Call Tool');
      const countForm = await webviewFrame(
        page,
        'the Call Tool form for cancelled_count',
        'text=How many slow calls were cancelled',
      );
      await countForm.locator('#submit').click();
      let shown = '';
      // The tool's one text block (the area's other lines, such as "Answered in 2 ms", hold numbers too).
      await waitUntil(
        'the server to report 2 cancelled slow calls',
        async () => {
          shown = (
            (await countForm
              .locator('#result pre.text')
              .first()
              .textContent({ timeout: 2_000 })
              .catch(() => null)) ?? ''
          ).trim();
          return shown === '2' ? true : undefined;
        },
        60_000,
      ).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}; its text block says ${JSON.stringify(shown)}`,
        );
      });
    } finally {
      await session?.dispose();
    }
  },
);
