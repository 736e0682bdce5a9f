/**
 * End-to-end cancellation of a tool call in a real VS Code (code-server 4.100.3) driven from Chromium, as a person
 * would: server-everything's trigger-long-running-operation is called from its form with a duration far longer
 * than any wait here (so only a cancel can end it in time), "Calling…" and the progress line appear under the form,
 * and the call is cancelled twice: once with the form's "Cancel Call" button, once with the Cancel button of VS Code's
 * progress notification. Each time the result area says the call was cancelled, the form can call again, the
 * progress notification goes away, and the server's log channel shows notifications/cancelled sent for that call's
 * request id (the protocol trace is on). The History view records both calls as cancelled.
 * Screenshots: test-results/e2e/cancel-01-calling.png, cancel-02-cancelled.png, cancel-03-history.png.
 *
 * Run: node --import tsx --test test/e2e/cancel.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { VsCodeFixture, everythingStdio } from './fixture';
import { answerDialog, openViewContainer, screenshot, waitFor, waitUntil, webviewFrame } from './harness';

const SERVER = 'everything';
const TOOL = 'trigger-long-running-operation';
// The Output channel "MCP Workbench: everything"; VS Code names its log file without the colon.
const LOG_CHANNEL = `MCP Workbench ${SERVER}`;
/** Far longer than every wait below: the call can only end within them by being cancelled. */
const DURATION_SECONDS = 600;
/** One progress notification every two seconds. */
const STEPS = 300;
const CALLING = `Calling ${TOOL}…`;
const CANCELLED = `The call of ${TOOL} was cancelled.`;
const COMPLETED = 'Long running operation completed';
const NOTIFICATION_TITLE = `Calling ${TOOL} on ${SERVER}`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The side bar pane (Servers or History) whose header says `title`. */
function pane(page: Page, title: string): Locator {
  return page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'i') }) }).first();
}

/** The rows of a pane whose label is exactly `label`. */
function rows(container: Locator, label: string): Locator {
  return container.locator('.monaco-list-row').filter({ has: container.page().locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });
}

async function visibleRow(page: Page, container: Locator, label: string, timeoutMs = 60_000): Promise<Locator> {
  const target = rows(container, label).first();
  await waitFor(page, `the row "${label}"`, () => target.waitFor({ state: 'visible', timeout: timeoutMs }));
  return target;
}

async function inlineAction(page: Page, target: Locator, action: string): Promise<void> {
  await waitFor(page, `the inline action "${action}"`, async () => {
    await target.hover();
    const button = target.locator(`.actions .action-label[aria-label^="${action}"]`).first();
    await button.waitFor({ state: 'visible', timeout: 10_000 });
    await button.click();
  });
}

/** The progress notification of the running call. */
function progressToast(page: Page): Locator {
  return page.locator('.notification-toast').filter({ hasText: NOTIFICATION_TITLE });
}

/** Submits the form and waits for "Calling…", a progress line under the form, and the progress notification. */
async function startCall(page: Page, form: Frame): Promise<void> {
  await form.getByLabel(/^steps\b/).press('Control+Enter');
  await waitFor(page, `"${CALLING}" under the form`, () => form.getByText(CALLING).first().waitFor({ state: 'visible', timeout: 60_000 }));
  const progressLine = form.locator('#call-progress');
  await waitUntil(`a progress line under the form (now ${JSON.stringify(await progressLine.textContent().catch(() => null))})`, async () => {
    const text = (await progressLine.textContent().catch(() => null)) ?? '';
    return new RegExp(`^\\d+/${STEPS}$`).test(text.trim()) ? text : undefined;
  }, 60_000);
  await waitFor(page, 'the progress notification of the call', () => progressToast(page).first().waitFor({ state: 'visible', timeout: 60_000 }));
  assert.equal(await form.locator('#submit').isDisabled(), true, 'the Call button is disabled while the call runs');
}

/** After a cancel: the result area says so, the form can call again, and the progress notification is gone. */
async function expectCancelled(page: Page, form: Frame, how: string): Promise<void> {
  await waitFor(page, `"${CANCELLED}" under the form after ${how}`, () => form.getByText(CANCELLED).first().waitFor({ state: 'visible', timeout: 60_000 }));
  assert.equal(await form.getByText(CALLING).count(), 0, `"${CALLING}" is gone after ${how}`);
  assert.equal(await form.getByText(COMPLETED).count(), 0, `the call did not complete (${how})`);
  await waitUntil(`the Call button to be enabled again after ${how}`, async () => ((await form.locator('#submit').isEnabled()) ? true : undefined), 30_000);
  await waitUntil(`the progress notification to close after ${how}`, async () => ((await progressToast(page).count()) === 0 ? true : undefined), 30_000);
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

/** Waits until the log channel's file shows `count` calls of TOOL, each followed by notifications/cancelled for its id. */
async function expectCancelNotifications(session: VsCodeFixture, count: number): Promise<void> {
  let seen: { calls: number[]; cancelled: number[] } = { calls: [], cancelled: [] };
  try {
    await waitUntil(`${count} call(s) of ${TOOL} each cancelled on the wire`, () => {
      seen = tracedCallsAndCancels(session.extensionLog(LOG_CHANNEL) ?? '');
      return seen.calls.length === count && seen.calls.every((id) => seen.cancelled.includes(id)) ? true : undefined;
    }, 30_000);
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; traced calls ${JSON.stringify(seen.calls)}, cancelled ${JSON.stringify(seen.cancelled)}; log:\n${session.extensionLog(LOG_CHANNEL) ?? '(no log file)'}`);
  }
  const log = session.extensionLog(LOG_CHANNEL) ?? '';
  assert.equal(log.split(`Call of ${TOOL} cancelled by the user`).length - 1, count, `the log says ${count} call(s) were cancelled by the user`);
}

test('cancelling a tool call in real VS Code: the form\'s Cancel Call and the progress notification\'s Cancel', { timeout: 600_000 }, async () => {
  let session: VsCodeFixture | undefined;
  try {
    session = await VsCodeFixture.open({
      name: 'cancel',
      mcpJson: { kind: 'servers', comment: 'server-everything over stdio, for cancel.e2e.ts', servers: { [SERVER]: everythingStdio() } },
      // The verbose protocol trace shows what went to the server: the call's id and the cancel naming it.
      settings: { 'workbench.colorTheme': 'Default Light Modern', 'mcpWorkbench.trace.server': 'verbose' },
    });
    const { page } = session;
    await openViewContainer(page, 'MCP Workbench');
    const servers = pane(page, 'Servers');
    await (await visibleRow(page, servers, SERVER)).click();
    await answerDialog(page, 'Allow and Start');
    await inlineAction(page, await visibleRow(page, servers, TOOL), 'Call Tool');
    const form = await webviewFrame(page, `the Call Tool form for ${TOOL}`, 'form input');
    await form.getByLabel(/^duration\b/).fill(String(DURATION_SECONDS));
    await form.getByLabel(/^steps\b/).fill(String(STEPS));

    // 1. The form's own Cancel Call button.
    await startCall(page, form);
    await page.mouse.move(0, 0);
    await screenshot(page, 'cancel-01-calling');
    await form.locator('button[data-action="cancelCall"]').click();
    await expectCancelled(page, form, 'Cancel Call in the form');
    await expectCancelNotifications(session, 1);
    await screenshot(page, 'cancel-02-cancelled');

    // 2. The progress notification's Cancel button.
    await startCall(page, form);
    await waitFor(page, 'the Cancel button of the progress notification', () =>
      progressToast(page).locator('.monaco-button', { hasText: /^Cancel$/ }).first().click({ timeout: 30_000 }),
    );
    await expectCancelled(page, form, 'Cancel in the progress notification');
    await expectCancelNotifications(session, 2);

    // The History view records both calls as cancelled. Fold the tools so the History pane has room.
    await (await visibleRow(page, servers, 'Tools')).click();
    const history = pane(page, 'History');
    const header = history.locator('.pane-header').first();
    await waitFor(page, 'the History pane header', () => header.waitFor({ state: 'visible', timeout: 30_000 }));
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    await visibleRow(page, history, SERVER);
    let descriptions: string[] = [];
    await waitUntil(`two ${TOOL} entries recorded as cancelled in the History view (descriptions: ${JSON.stringify(descriptions)})`, async () => {
      descriptions = await rows(history, TOOL).locator('.label-description').allTextContents();
      return descriptions.length === 2 && descriptions.every((text) => /\d+ ms · cancelled$/.test(text.trim())) ? true : undefined;
    }, 60_000).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; History descriptions: ${JSON.stringify(descriptions)}`);
    });
    await page.mouse.move(0, 0);
    await screenshot(page, 'cancel-03-history');
  } finally {
    await session?.dispose();
  }
});
