/**
 * list_changed floods: a server that sends 50,000 `notifications/tools/list_changed` must not get 50,000 `tools/list`.
 * CoalescedRefresh keeps at most one refresh in flight per list and runs one more after it settles; the extension's
 * refresh paths (the tool list of ServerController, the catalog's resources and prompts) each own one. Here it runs
 * against a real client and a real flooding server (test/fixtures/hostile/list-changed-flood-server.mjs), which
 * counts the list requests it received.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { CoalescedRefresh } from '../../../../src/workbench/lists/coalescedRefresh';
import { REPO_ROOT, textOf, trackedStdio } from '../../../support/testSupport';

const FLOOD_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'hostile', 'list-changed-flood-server.mjs');
const FLOOD = 50_000;

test(
  `${FLOOD} list_changed of each list cause at most two list requests per list, and the last one is seen`,
  { timeout: 120_000 },
  async () => {
    const { transport } = trackedStdio({ command: process.execPath, args: [FLOOD_SERVER] });
    const client = new McpClient({ serverName: 'flood', transport });
    try {
      await client.connect();
      const counts = async () =>
        JSON.parse(textOf((await client.callTool('counts', {}, {})).result.content)) as Record<string, number>;
      const before = await counts();
      const seen = { tools: 0, resources: 0, prompts: 0 };
      let refreshesSettled = 0;
      const tools = new CoalescedRefresh(async () => {
        await client.listTools({ refresh: true });
        refreshesSettled++;
      });
      const catalog = new CoalescedRefresh(async () => {
        await Promise.all([client.listResources(), client.listResourceTemplates(), client.listPrompts()]);
        refreshesSettled++;
      });
      const lastRequests: Promise<void>[] = [];
      client.onToolsChanged(() => {
        seen.tools++;
        lastRequests[0] = tools.request();
      });
      client.onResourcesChanged(() => {
        seen.resources++;
        lastRequests[1] = catalog.request();
      });
      client.onPromptsChanged(() => {
        seen.prompts++;
        lastRequests[2] = catalog.request();
      });
      await client.callTool('flood', { count: FLOOD }, {});
      // The answer comes after every notification on the same stream, so all of them were handled by now.
      assert.deepEqual(
        seen,
        { tools: FLOOD, resources: FLOOD, prompts: FLOOD },
        'the flood reached the client (positive control)',
      );
      // The promise of the last request settles only after a refresh that started after it.
      await Promise.all(lastRequests);
      const after = await counts();
      const made = Object.fromEntries(Object.keys(after).map((method) => [method, after[method] - before[method]]));
      assert.ok(refreshesSettled >= 2, `refreshes ran: ${refreshesSettled}`);
      for (const [method, count] of Object.entries(made)) {
        assert.ok(
          count >= 1 && count <= 2,
          `${method}: ${count} requests for ${FLOOD} notifications (at most one in flight, one after)`,
        );
      }
      assert.equal(tools.inFlight || catalog.inFlight, false, 'nothing left in flight');
    } finally {
      await client.close();
    }
  },
);

test('a refresh asked for while one runs starts after it settles; callers meanwhile share it; dispose releases them', async () => {
  const started: number[] = [];
  const releases: (() => void)[] = [];
  const refresh = new CoalescedRefresh(
    () =>
      new Promise<void>((resolve) => {
        started.push(started.length);
        releases.push(resolve);
      }),
  );
  const first = refresh.request();
  const second = refresh.request();
  const third = refresh.request();
  assert.equal(second, third, 'callers during a run share the next refresh');
  assert.deepEqual(started, [0], 'one in flight');
  releases[0]();
  await first;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(started, [0, 1], 'the next one started after the first settled');
  const fourth = refresh.request();
  refresh.dispose();
  await fourth; // released by dispose, though the run in flight has not ended
  releases[1]();
  await second;
  assert.deepEqual(started, [0, 1], 'nothing starts after dispose');
});

test('a refresh that fails ends its run; the next request runs again', async () => {
  let runs = 0;
  const refresh = new CoalescedRefresh(async () => {
    runs++;
    if (runs === 1) throw new Error('the server failed');
  });
  await refresh.request();
  await refresh.request();
  assert.equal(runs, 2);
});
