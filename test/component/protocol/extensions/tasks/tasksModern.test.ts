/**
 * The 2026-07-28 tasks extension against test/fixtures/tasks/modern-task-server.mjs (a raw stdio server): a call
 * answered with `resultType: "task"` is polled to its result, input is answered once per key with tasks/update,
 * cancel, failure, and the bad cases (unknown status, tasks/get errors, another task's id, a ttl that ran out, a
 * result over the cap, a server that stops while a task is polled).
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import type { ClientHost } from '../../../../../src/protocol/host';
import { MAX_KEPT_ARGUMENT_CHARS, type ArgumentKeeper } from '../../../../../src/protocol/extensions/tasks';
import { maskSecrets } from '../../../../../src/workbench/secrets';
import { taskResultCall } from '../../../../../src/workbench/tasks/taskResult';
import {
  MAX_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  TaskFailedError,
  enableTasks,
  nextPollDelayMs,
  tasksExtension,
  type TaskReceiverOptions,
  type TasksApi,
} from '../../../../../src/protocol/extensions/tasks';
import type { Tool } from '../../../../../src/protocol/types';
import { REPO_ROOT, assertProcessGone, textOf, trackedStdio, waitFor } from '../../../../support/testSupport';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'modern-task-server.mjs');
let elicited = 0;
const host: ClientHost = {
  elicitation: {
    modes: ['form'],
    elicit: async () => {
      elicited++;
      return { action: 'accept', content: { name: 'Grace' } };
    },
  },
};

interface Started {
  client: McpClient;
  tasks: TasksApi;
  pid(): number | undefined;
}

async function start(
  options: {
    extension?: boolean;
    maxMessageBytes?: number;
    maxWaitMs?: number;
    receiver?: TaskReceiverOptions;
    keepArguments?: ArgumentKeeper;
  } = {},
): Promise<Started> {
  const tracked = trackedStdio({
    command: process.execPath,
    args: [FIXTURE],
    shutdownGraceMs: 1000,
    ...(options.maxMessageBytes ? { limits: { maxMessageBytes: options.maxMessageBytes } } : {}),
  });
  const enabled = enableTasks('task-fixture', {
    maxWaitMs: options.maxWaitMs,
    receiver: options.receiver,
    keepArguments: options.keepArguments,
  });
  const client = new McpClient({
    serverName: 'task-fixture',
    transport: tracked.transport,
    host,
    era: '2026-07-28',
    requestTimeoutMs: 10_000,
    extensions: options.extension === false ? [] : [enabled.extension],
  });
  await client.connect();
  return { client, tasks: client.extension(tasksExtension) as TasksApi, pid: tracked.pid };
}

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
let main: Started;

before(async () => {
  main = await start();
});

after(async () => {
  await main?.client.close();
  const id = main?.pid();
  if (id !== undefined) await assertProcessGone(id, 'task fixture');
});

describe('2026-07-28 tasks extension', () => {
  test('poll intervals are bounded below and above', () => {
    assert.equal(nextPollDelayMs(0), MIN_POLL_INTERVAL_MS);
    assert.equal(nextPollDelayMs(86_400_000), MAX_POLL_INTERVAL_MS);
    assert.equal(nextPollDelayMs(undefined), 1_000);
    assert.equal(nextPollDelayMs(2_000), 2_000);
  });

  test('the extension is declared in the per-request client capabilities', async () => {
    await main.client.callTool('sync');
    const { result } = await main.client.callTool('last_meta');
    const capabilities = JSON.parse(textOf(result.content)) as { extensions?: Record<string, unknown> };
    assert.deepEqual(capabilities.extensions?.['io.modelcontextprotocol/tasks'], {});
  });

  test('a client hosting tasks declares no core capabilities.tasks per request: the 2026-07-28 schema has no such field', async () => {
    // The hosts enable the 2025-11-25 receiver whenever they serve sampling or elicitation (serverLauncher, the CLI).
    const hosting = await start({ receiver: { sampling: true, elicitation: true } });
    try {
      await hosting.client.callTool('sync');
      const { result } = await hosting.client.callTool('last_meta');
      const capabilities = JSON.parse(textOf(result.content)) as Record<string, unknown>;
      assert.equal(capabilities.tasks, undefined);
      assert.deepEqual(
        (capabilities.extensions as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/tasks'],
        {},
      );
      assert.deepEqual(capabilities.elicitation, { form: {} });
    } finally {
      await hosting.client.close();
    }
  });

  test('a plain callTool answered with a task waits for it and returns its result', async () => {
    const { result } = await main.client.callTool('research', { topic: 'reefs' });
    assert.equal(textOf(result.content), 'research done: reefs');
  });

  test('through the API the result names its task, and the task book saw it complete', async () => {
    const outcome = await main.tasks.callTool(tool('research'), { topic: 'dunes' });
    assert.ok(outcome.kind === 'result' && outcome.taskId);
    assert.equal(main.tasks.book.get(outcome.taskId)?.snapshot.status, 'completed');
    assert.equal(main.tasks.book.get(outcome.taskId)?.toolName, 'research');
  });

  test('the book keeps the arguments of the call behind a task, masked by the host, for Open Task Result', async () => {
    // Without a keeper (the CLI) no arguments are kept.
    const plain = await main.tasks.callTool(tool('research'), { topic: 'dunes' });
    assert.ok(plain.kind === 'result' && plain.taskId);
    assert.equal(main.tasks.book.get(plain.taskId)?.arguments, undefined);
    const masked = await start({ keepArguments: (args) => maskSecrets(args, ['s3cr3t-value']) });
    try {
      const outcome = await masked.tasks.callTool(tool('research'), {
        topic: 'reefs near s3cr3t-value',
        apiKey: 'k-123456',
      });
      assert.ok(outcome.kind === 'result' && outcome.taskId);
      const tracked = masked.tasks.book.get(outcome.taskId);
      assert.deepEqual(tracked?.arguments, { kind: 'kept', value: { topic: 'reefs near ••••', apiKey: '••••' } });
      const call = taskResultCall(outcome.taskId, tracked);
      assert.equal(call.toolName, 'research');
      assert.deepEqual(call.args, { topic: 'reefs near ••••', apiKey: '••••' });
      assert.equal(call.argumentsNote, undefined);
      // Bounded: arguments longer than the cap are not kept, only their size.
      const long = 'x'.repeat(MAX_KEPT_ARGUMENT_CHARS);
      const big = await masked.tasks.callTool(tool('research'), { topic: long });
      assert.ok(big.kind === 'result' && big.taskId);
      const bigCall = taskResultCall(big.taskId, masked.tasks.book.get(big.taskId));
      assert.deepEqual(bigCall.args, {});
      assert.deepEqual(bigCall.argumentsNote, { kind: 'omitted', chars: JSON.stringify({ topic: long }).length });
      // A task this window did not start (a resumed id): no arguments, said so.
      assert.deepEqual(taskResultCall('unknown-task', undefined).argumentsNote, { kind: 'unknown' });
      assert.equal(taskResultCall('unknown-task', undefined).toolName, 'unknown-task');
    } finally {
      await masked.client.close();
    }
  });

  test('a poll interval of 0 still completes (polling is floored, not a busy loop)', async () => {
    const { result } = await main.client.callTool('zero_poll');
    assert.equal(textOf(result.content), 'research done: zero_poll');
  });

  test('input required: the elicitation is answered once and sent with tasks/update, though shown on three polls', async () => {
    const before = elicited;
    const { result } = await main.client.callTool('ask');
    assert.equal(textOf(result.content), 'hello Grace');
    assert.equal(elicited - before, 1, 'the same input key is presented once');
  });

  test('a failed task rejects with the server error, naming the server and the task', async () => {
    await assert.rejects(main.client.callTool('fail'), (error: unknown) => {
      assert.ok(error instanceof TaskFailedError);
      assert.equal(error.code, -32000);
      assert.match(error.message, /task-fixture: task task-\d+-fail failed \(error -32000\): the build broke/);
      return true;
    });
  });

  test('a live task is named in the subscription filter, and its notifications/tasks updates the book without a poll', async () => {
    const own = await start();
    try {
      const outcome = await own.tasks.callTool(tool('notified'), {}, { wait: false });
      assert.ok(outcome.kind === 'task');
      const taskId = outcome.task.taskId;
      // The fixture completes the task and says so on the stream as soon as a listen names it; its poll interval is
      // a minute, and nothing here polls.
      await waitFor(
        () => own.tasks.book.get(taskId)?.snapshot.status === 'completed',
        'the notification to complete the task',
      );
      const completed = own.tasks.book.get(taskId)?.snapshot;
      assert.ok(completed?.status === 'completed');
      assert.equal(textOf((completed.result as { content: unknown[] } | undefined)?.content ?? []), 'told: done');
      const counts = JSON.parse(textOf((await own.client.callTool('counts')).result.content)) as Record<string, number>;
      assert.equal(counts['tasks/get'], undefined, `no tasks/get was needed: ${JSON.stringify(counts)}`);
      const listens = JSON.parse(textOf((await own.client.callTool('listens')).result.content)) as {
        taskIds?: string[];
      }[];
      assert.deepEqual(listens[0], { taskIds: [taskId] }, 'the stream was opened for the live task alone');
      assert.ok(
        !listens.slice(1).some((filter) => filter.taskIds?.includes(taskId)),
        `an ended task is not listened for again: ${JSON.stringify(listens)}`,
      );
    } finally {
      await own.client.close();
    }
  });

  test('--no-wait returns the task; cancel ends a waiting call with "cancelled"', async () => {
    const outcome = await main.tasks.callTool(tool('forever'), {}, { wait: false });
    assert.ok(outcome.kind === 'task');
    const taskId = outcome.task.taskId;
    // Its rejection is awaited from the start: the wait can settle while cancel still reads the status once (after
    // the poll interval), and a rejection nobody holds yet is an unhandled one.
    const waiting = assert.rejects(main.tasks.wait(taskId), /task-fixture: task .* was cancelled/);
    await main.tasks.cancel(taskId);
    await waiting;
    assert.equal(main.tasks.book.get(taskId)?.snapshot.status, 'cancelled');
  });

  test("a never-ending task is bounded by the call's own cancellation", async () => {
    const controller = new AbortController();
    const call = main.tasks.callTool(tool('forever'), {}, { signal: controller.signal });
    await waitFor(
      () => main.tasks.book.all().some((t) => t.snapshot.status === 'working' && t.toolName === 'forever'),
      'the forever task',
    );
    controller.abort();
    await assert.rejects(call, /stopped waiting for task|cancelled/);
  });

  test('an unknown status is a clear error', async () => {
    await assert.rejects(
      main.client.callTool('weird_status'),
      /task-fixture: the tasks\/get result for task .* has status "paused"/,
    );
  });

  test('a tasks/get error surfaces with the server name', async () => {
    await assert.rejects(main.client.callTool('get_error'), /task-fixture: the task store is offline/);
  });

  test("an answer for another task's id is refused", async () => {
    await assert.rejects(
      main.client.callTool('other_id'),
      /asked for task .*, the tasks\/get answer is for task task-of-someone-else/,
    );
  });

  test('a task still working after its ttl is given up on', async () => {
    await assert.rejects(main.client.callTool('short_ttl'), /still working after its time to live \(100 ms\) ended/);
  });

  test('a task id of another server is an error from this server', async () => {
    await assert.rejects(main.tasks.get('task-from-elsewhere'), /task-fixture: unknown task task-from-elsewhere/);
  });

  test('without the extension the client is told the capability is missing (it never declares what is not enabled)', async () => {
    const plain = await start({ extension: false });
    try {
      await assert.rejects(plain.client.callTool('research', { topic: 'x' }), /Missing required client capability/);
      const { result } = await plain.client.callTool('last_meta');
      assert.equal((JSON.parse(textOf(result.content)) as { extensions?: unknown }).extensions, undefined);
    } finally {
      await plain.client.close();
    }
  });

  test('a result over the message cap is refused with the cap named', async () => {
    const capped = await start({ maxMessageBytes: 64 * 1024 });
    try {
      await assert.rejects(capped.client.callTool('huge', { bytes: 200 * 1024 }), /maxMessageBytes|too large|exceeds/i);
    } finally {
      await capped.client.close();
    }
  });

  test('when the server stops while a task is polled, the call settles and no timer is left behind', async () => {
    const doomed = await start();
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();
    // A 20 s poll interval: a pause timer left behind would outlive the bounded wait below.
    const call = doomed.tasks.callTool(tool('slow_poll'), {});
    await waitFor(
      () => doomed.tasks.book.all().some((t) => t.toolName === 'slow_poll') && timers() > timersBefore,
      'the task to be polled (its pause timer set)',
    );
    const settled = assert.rejects(call, /task-fixture: (the connection closed while waiting for task|.*closed)/);
    await doomed.client.close();
    await settled;
    const id = doomed.pid();
    if (id !== undefined) await assertProcessGone(id, 'task fixture');
    await waitFor(() => timers() <= timersBefore, 'the poll timer to be cleared', 3_000);
  });
});
