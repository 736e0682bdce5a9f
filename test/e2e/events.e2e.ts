/**
 * Events (issue 43) end to end in a real VS Code (code-server) driven from Chromium: the events fixture
 * (test/fixtures/events/eventsServer.mjs, 2026-07-28, all three delivery modes) runs from the workspace. Its Events
 * group lists "ticks" and "flood"; Subscribe… on "ticks" asks for the arguments and the delivery mode, and with push
 * its live feed opens and shows the ticks as they arrive (eventId, payload, the schema verdict); Unsubscribe on the
 * subscription's row ends it, and the server's count of open streams is 0 again; with
 * mcpWorkbench.events.recordInHistory on, History has one entry for the subscription. The Protocol view, open meanwhile,
 * shows the events/stream request and the notifications pushed on it. By webhook, ticks arrive through the loopback
 * listener, and Unsubscribe reaches the server as events/unsubscribe. "flood" (500 events at once) counts what the rate
 * bound dropped, and Stop Server ends that subscription, its feed marking the gap "flood". Screenshots: test-results/e2e/events-*.png.
 *
 * Run: node --import tsx --test test/e2e/events.e2e.ts (MCP_E2E_VSIX=<vsix> to skip packaging)
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { VsCodeFixture } from './fixture';
import {
  answerDialog,
  clickUncovered,
  inlineAction,
  openViewContainer,
  pane,
  paneRows,
  quickPick,
  runPickerCommand,
  screenshot,
  typeInQuickInput,
  visibleRow,
  waitFor,
  waitUntil,
  webviewFrame,
} from './harness';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const EVENTS_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'events', 'eventsServer.mjs');
const STATS = 'events-stats.json';

interface FixtureStats {
  streams: number;
  webhookPosts: number;
  unsubscribes: number;
  open: number;
  cancelled: number;
}

test(
  'events in real VS Code: subscribe by push, see ticks arrive in the live feed, unsubscribe',
  { timeout: 600_000 },
  async () => {
    let session: VsCodeFixture | undefined;
    try {
      session = await VsCodeFixture.open({
        name: 'events',
        // One History entry per subscription, when the person chooses it.
        settings: { 'mcpWorkbench.events.recordInHistory': true },
        mcpJson: {
          kind: 'servers',
          comment: 'the events fixture for events.e2e.ts',
          servers: {
            events: {
              type: 'stdio',
              command: process.execPath,
              // --stats: the server writes what it saw (streams opened, open now) into the workspace, for the test.
              args: [EVENTS_SERVER, '--tick-ms', '300', '--stats', `\${workspaceFolder}/${STATS}`],
            },
          },
        },
      });
      const { page } = session;
      const statsFile = path.join(session.workspace, STATS);
      const stats = (): FixtureStats | undefined => {
        try {
          return JSON.parse(fs.readFileSync(statsFile, 'utf8')) as FixtureStats;
        } catch {
          return undefined; // not written yet, or being written
        }
      };
      await openViewContainer(page, 'MCP Workbench');

      const servers = pane(page, 'Servers');
      await clickUncovered(page, await visibleRow(page, servers, 'events'));
      await answerDialog(page, 'Allow and Start');
      // The Protocol view, open while the subscription runs, shows the push stream's notifications.
      await runPickerCommand(page, 'MCP Workbench: Show Protocol');
      await quickPick(page, 'events');
      await webviewFrame(page, 'the Protocol view', '#list');
      await clickUncovered(page, await visibleRow(page, servers, 'Events'));
      const ticks = await visibleRow(page, servers, 'ticks');
      await visibleRow(page, servers, 'flood');
      await screenshot(page, 'events-01-types');

      // Subscribe…: the arguments (ticks declares `every`), then the mode among those the server offers.
      await inlineAction(page, ticks, 'Subscribe…');
      await typeInQuickInput(page, '{}');
      await quickPick(page, 'push');

      // The feed opens beside and the ticks arrive: a row with an eventId e-<k>, its payload and a valid verdict.
      const feed = await webviewFrame(page, 'the live feed', '#rows tr.row-event', 60_000);
      const first = feed.locator('#rows tr.row-event').first();
      assert.match((await first.locator('td.id').textContent()) ?? '', /^e-\d+$/);
      assert.match((await first.locator('pre').textContent()) ?? '', /"n": \d+/);
      assert.equal(((await first.locator('td').nth(3).textContent()) ?? '').trim(), 'valid');
      const delivered = await waitUntil('a second tick in the feed', async () =>
        (await feed.locator('#rows tr.row-event').count()) >= 2 ? true : undefined,
      );
      assert.ok(delivered);
      assert.match((await feed.locator('#stats').textContent()) ?? '', /\d+ delivered/);
      assert.equal(stats()?.open, 1, 'one events/stream is open on the server');
      const protocol = await webviewFrame(
        page,
        'the pushed events in the Protocol view',
        '#list .row[data-method="notifications/events/event"]',
      );
      assert.ok((await protocol.locator('#list .row[data-method="events/stream"]').count()) >= 1);
      await screenshot(page, 'events-02-feed');

      // Unsubscribe on the subscription's row (push #1): the stream is cancelled and the server holds none open.
      const subscription = await visibleRow(page, servers, 'push #1');
      await inlineAction(page, subscription, 'Unsubscribe');
      await waitFor(page, "the server's open streams back to 0", () =>
        waitUntil('open streams 0', async () => (stats()?.open === 0 ? true : undefined)),
      );
      assert.equal(stats()?.open, 0);
      assert.ok((stats()?.cancelled ?? 0) >= 1, 'the stream was cancelled by the client');
      await waitFor(page, 'the feed to say the subscription ended', () =>
        feed.locator('#status', { hasText: 'Ended' }).waitFor({ state: 'visible', timeout: 30_000 }),
      );
      await screenshot(page, 'events-03-unsubscribed');

      // History: the subscription is one entry, ended by the stop.
      const history = pane(page, 'History');
      const header = history.locator('.pane-header').first();
      if ((await header.getAttribute('aria-expanded')) !== 'true') await clickUncovered(page, header);
      const entry = await visibleRow(page, history, 'Events: ticks by push');
      await waitFor(page, 'the History entry to say the subscription stopped', () =>
        entry.locator('.label-description', { hasText: /stopped/ }).waitFor({ state: 'visible', timeout: 30_000 }),
      );
      await screenshot(page, 'events-04-history');

      // Webhook: the server posts each tick to a loopback listener of the extension host, signed; Unsubscribe sends
      // events/unsubscribe.
      await inlineAction(page, await visibleRow(page, servers, 'ticks'), 'Subscribe…');
      await typeInQuickInput(page, '{}');
      await quickPick(page, 'webhook');
      const webhookFeed = await webviewFrame(page, 'the webhook feed', 'p.muted:has-text("subscription #2")');
      await waitFor(page, 'a tick delivered by webhook', () =>
        webhookFeed.locator('#rows tr.row-event').first().waitFor({ state: 'visible', timeout: 30_000 }),
      );
      assert.ok((stats()?.webhookPosts ?? 0) >= 1);
      await inlineAction(page, await visibleRow(page, servers, 'webhook #2'), 'Unsubscribe');
      await waitFor(page, 'events/unsubscribe on the server', () =>
        waitUntil('one unsubscribe', async () => (stats()?.unsubscribes === 1 ? true : undefined)),
      );

      // flood: push only and no arguments, so Subscribe… asks nothing. 500 events at once: past the rate bound the
      // rest are dropped and counted at once, and marked in the feed as a gap when the window closes (here: the stop).
      await inlineAction(page, await visibleRow(page, servers, 'flood'), 'Subscribe…');
      const floodFeed = await webviewFrame(page, 'the flood feed', 'h1:text-is("flood")');
      await waitFor(page, 'the flood feed to count what the rate bound dropped', () =>
        floodFeed
          .locator('#stats', { hasText: /[1-9]\d* dropped by the flood bound/ })
          .waitFor({ state: 'visible', timeout: 30_000 }),
      );
      await visibleRow(page, servers, 'push #3');
      await screenshot(page, 'events-05-flood');

      // Stopping the server ends its subscriptions: the feed marks the flood's gap and says it ended; the row is gone.
      await runPickerCommand(page, 'MCP Workbench: Stop Server');
      await quickPick(page, 'events');
      await waitFor(page, 'the flood feed to say the subscription ended', () =>
        floodFeed.locator('#status', { hasText: 'Ended' }).waitFor({ state: 'visible', timeout: 30_000 }),
      );
      assert.match((await floodFeed.locator('#rows tr.row-gap').first().textContent()) ?? '', /flood/);
      await waitFor(page, 'the subscription row to go', () =>
        paneRows(servers, 'push #3').first().waitFor({ state: 'detached', timeout: 30_000 }),
      );
      await screenshot(page, 'events-06-stopped');
    } finally {
      await session?.dispose();
    }
  },
);
