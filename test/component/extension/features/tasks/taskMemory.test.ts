/**
 * The Tasks view's memory of live 2026-07-28 tasks across a Reload Window (src/extension/features/tasks/taskMemory.ts): what it
 * writes to workspace state through the Memento interface the extension hands it, and what a new window's task book
 * shows of a task picked up again. The reload is real: the first client and its server process stop, and a second
 * one polls the same task from the fixture's durable task store.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import {
  enableTasks,
  tasksExtension,
  type ArgumentKeeper,
  type TasksApi,
} from '../../../../../src/protocol/extensions/tasks';
import { TaskBook } from '../../../../../src/protocol/extensions/tasks/taskBook';
import { readTask } from '../../../../../src/protocol/extensions/tasks/taskModel';
import type { Tool } from '../../../../../src/protocol/types';
import {
  MAX_REMEMBERED_ARGUMENT_CHARS,
  MAX_REMEMBERED_PER_SERVER,
  TaskMemory,
} from '../../../../../src/extension/features/tasks/taskMemory';
import { maskSecrets } from '../../../../../src/workbench/secrets';
import { HistoryLog } from '../../../../../src/workbench/history/historyLog';
import { PickedUpTaskHistory, taskResultCall } from '../../../../../src/workbench/tasks/taskResult';
import type { CallToolResult } from '../../../../../src/protocol/types';
import { taskRow } from '../../../../../src/workbench/tasks/taskRows';
import { REPO_ROOT, assertProcessGone, textOf, trackedStdio } from '../../../../support/testSupport';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'modern-task-server.mjs');
const SERVER = 'task-fixture';
const KEY = 'mcpWorkbench.tasks.pending';

/**
 * A Memento as VS Code's workspaceState behaves across a reload: the values are stored as JSON, and a new window reads
 * them back from that JSON (never the objects the last window handed in).
 */
function workspaceState() {
  const stored = new Map<string, string>();
  return {
    stored,
    keys: () => [...stored.keys()],
    get: <T>(key: string, fallback?: T) => (stored.has(key) ? (JSON.parse(stored.get(key)!) as T) : fallback),
    update: async (key: string, value: unknown) => void stored.set(key, JSON.stringify(value)),
  };
}

/** One window's connection to the fixture, its tasks followed by a TaskMemory the way the Tasks view follows them. */
async function openWindow(store: string, state: ReturnType<typeof workspaceState>, keepArguments?: ArgumentKeeper) {
  const tracked = trackedStdio({ command: process.execPath, args: [FIXTURE, '--store', store], shutdownGraceMs: 1000 });
  const client = new McpClient({
    serverName: SERVER,
    transport: tracked.transport,
    era: '2026-07-28',
    requestTimeoutMs: 10_000,
    extensions: [enableTasks(SERVER, { keepArguments }).extension],
  });
  await client.connect();
  const tasks = client.extension(tasksExtension) as TasksApi;
  const memory = new TaskMemory(state);
  const subscription = tasks.book.onDidChange((task) => void memory.track(SERVER, task));
  return {
    tasks,
    memory,
    async close() {
      subscription.dispose();
      await client.close();
      const pid = tracked.pid();
      if (pid !== undefined) await assertProcessGone(pid, 'task fixture');
    },
  };
}

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
const masking: ArgumentKeeper = (args) => maskSecrets(args, ['s3cr3t-value']);
const working = (taskId: string) => readTask(SERVER, '2026-07-28', { taskId, status: 'working' }, 'x');

test('a task picked up after a reload shows the tool and the masked arguments of its call; the state never holds the secret', async () => {
  const store = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-task-memory-')), 'tasks.json');
  const state = workspaceState();
  const first = await openWindow(store, state, masking);
  let taskId: string;
  try {
    const outcome = await first.tasks.callTool(
      tool('research'),
      { topic: 'reefs near s3cr3t-value', apiKey: 'k-123456' },
      { wait: false },
    );
    assert.ok(outcome.kind === 'task');
    taskId = outcome.task.taskId;
  } finally {
    await first.close();
  }
  const saved = state.stored.get(KEY) ?? '';
  assert.doesNotMatch(saved, /s3cr3t-value|k-123456/, 'only the masked arguments are saved');
  assert.deepEqual(JSON.parse(saved), {
    [SERVER]: [
      {
        taskId,
        toolName: 'research',
        arguments: { kind: 'kept', value: { topic: 'reefs near ••••', apiKey: '••••' } },
      },
    ],
  });

  const second = await openWindow(store, state, masking);
  try {
    const recalled = second.memory.recallInto(SERVER, second.tasks.book);
    assert.deepEqual(
      recalled.map((entry) => entry.taskId),
      [taskId],
    );
    const { result } = await second.tasks.wait(taskId);
    assert.equal(textOf(result.content as unknown[]), 'research done: reefs near s3cr3t-value');
    const tracked = second.tasks.book.get(taskId);
    assert.equal(tracked?.toolName, 'research');
    const call = taskResultCall(taskId, tracked);
    assert.equal(call.toolName, 'research');
    assert.deepEqual(call.args, { topic: 'reefs near ••••', apiKey: '••••' });
    assert.equal(call.argumentsNote, undefined, 'not "not started in this window"');
    assert.deepEqual(taskRow(tracked!).arguments, {
      kind: 'shown',
      text: '{"topic":"reefs near ••••","apiKey":"••••"}',
    });
    assert.deepEqual(second.memory.pending(SERVER), [], 'a completed task is forgotten');

    // Its call's History entry never came (the call ended with the first window): Open Task Result writes one, once.
    const history = new HistoryLog();
    const pickedUp = new PickedUpTaskHistory(history);
    const server = { id: 'srv-1', name: SERVER };
    pickedUp.pickedUp(server.id, taskId);
    assert.equal(pickedUp.opened(server, taskId, tracked, result as unknown as CallToolResult, 'picked up'), true);
    assert.equal(
      pickedUp.opened(server, taskId, tracked, result as unknown as CallToolResult, 'picked up'),
      false,
      'opened again: no second entry',
    );
    const entries = history.entries();
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0].operation, {
      kind: 'tool',
      toolName: 'research',
      arguments: { topic: 'reefs near ••••', apiKey: '••••' },
    });
    assert.deepEqual(entries[0].outcome, { kind: 'succeeded', note: 'picked up' });
    assert.equal(entries[0].server.name, SERVER);
    assert.ok(entries[0].result.kind === 'kept');
    assert.match(JSON.stringify(entries[0].result.value), /research done: reefs near/);
    // A task whose call was made (and recorded) in this window is not picked up: Open Task Result adds nothing.
    const here = await second.tasks.callTool(tool('research'), { topic: 'dunes' });
    assert.ok(here.kind === 'result' && here.taskId);
    assert.equal(
      pickedUp.opened(
        server,
        here.taskId,
        second.tasks.book.get(here.taskId),
        here.result as unknown as CallToolResult,
        'picked up',
      ),
      false,
    );
    assert.equal(history.entries().length, 1);
  } finally {
    await second.close();
  }
});

test('state saved as bare task ids (before tools and arguments were kept) still loads, and stays when new tasks are added', async () => {
  const state = workspaceState();
  await state.update(KEY, { [SERVER]: ['task-old'], other: ['task-elsewhere'] });
  const memory = new TaskMemory(state);
  assert.deepEqual(memory.pending(SERVER), [{ taskId: 'task-old' }]);
  const book = new TaskBook(SERVER, masking);
  memory.recallInto(SERVER, book);
  book.record('2026-07-28', working('task-old'));
  const call = taskResultCall('task-old', book.get('task-old'));
  assert.equal(call.toolName, 'task-old', 'no tool known: the id stands in');
  assert.deepEqual(call.argumentsNote, { kind: 'unknown' });
  // History entries name a tool to call again: without one, Open Task Result records none.
  const history = new HistoryLog();
  const pickedUp = new PickedUpTaskHistory(history);
  pickedUp.pickedUp('srv-1', 'task-old');
  assert.equal(
    pickedUp.opened({ id: 'srv-1', name: SERVER }, 'task-old', book.get('task-old'), { content: [] }, 'picked up'),
    false,
  );
  assert.equal(history.entries().length, 0);
  await memory.track(
    SERVER,
    book.record('2026-07-28', working('task-new'), { toolName: 'build', arguments: { target: 'all' } }),
  );
  assert.deepEqual(new TaskMemory(state).pending(SERVER), [
    { taskId: 'task-old' },
    { taskId: 'task-new', toolName: 'build', arguments: { kind: 'kept', value: { target: 'all' } } },
  ]);
  assert.deepEqual(
    new TaskMemory(state).pending('other'),
    [{ taskId: 'task-elsewhere' }],
    "another server's tasks are left alone",
  );
});

test('remembered arguments are bounded (over 4 KB of JSON only their size is kept), and so is the number of tasks', async () => {
  const state = workspaceState();
  const memory = new TaskMemory(state);
  const book = new TaskBook(SERVER, masking);
  const long = { topic: 'x'.repeat(MAX_REMEMBERED_ARGUMENT_CHARS) };
  const chars = JSON.stringify(long).length;
  const tracked = book.record('2026-07-28', working('task-long'), { toolName: 'research', arguments: long });
  assert.equal(tracked.arguments?.kind, 'kept', "the book's own bound is larger");
  await memory.track(SERVER, tracked);
  assert.deepEqual(new TaskMemory(state).pending(SERVER), [
    { taskId: 'task-long', toolName: 'research', arguments: { kind: 'omitted', chars } },
  ]);
  const next = new TaskBook(SERVER, masking);
  new TaskMemory(state).recallInto(SERVER, next);
  next.record('2026-07-28', working('task-long'));
  assert.deepEqual(taskResultCall('task-long', next.get('task-long')).argumentsNote, { kind: 'omitted', chars });

  for (let index = 0; index <= MAX_REMEMBERED_PER_SERVER; index++)
    await memory.track(SERVER, book.record('2026-07-28', working(`task-${index}`), { toolName: 'build' }));
  const pending = new TaskMemory(state).pending(SERVER);
  assert.equal(pending.length, MAX_REMEMBERED_PER_SERVER);
  assert.equal(pending.at(-1)?.taskId, `task-${MAX_REMEMBERED_PER_SERVER}`, 'the newest are kept');
  assert.ok(!pending.some((entry) => entry.taskId === 'task-long'), 'the oldest went first');
});

test('unreadable saved entries are dropped, and a window that keeps no arguments does not erase the saved ones', async () => {
  const state = workspaceState();
  const kept = { kind: 'kept', value: { target: 'all' } };
  await state.update(KEY, {
    [SERVER]: [
      42,
      { taskId: 7 },
      { taskId: 'bad-parts', toolName: 5, arguments: { kind: 'kept', value: 'not an object' } },
      { taskId: 'bad-size', arguments: { kind: 'omitted', chars: -1 } },
      { taskId: 'good', toolName: 'build', arguments: kept },
    ],
  });
  const memory = new TaskMemory(state);
  assert.deepEqual(memory.pending(SERVER), [
    { taskId: 'bad-parts' },
    { taskId: 'bad-size' },
    { taskId: 'good', toolName: 'build', arguments: kept },
  ]);
  // A book without a keeper keeps no arguments, recalled ones neither; its polls leave the saved ones in place.
  const unkept = new TaskBook(SERVER);
  memory.recallInto(SERVER, unkept);
  const polled = unkept.record('2026-07-28', working('good'));
  assert.equal(polled.toolName, 'build');
  assert.equal(polled.arguments, undefined);
  assert.equal(memory.track(SERVER, polled), undefined, 'nothing to write');
  assert.deepEqual(new TaskMemory(state).pending(SERVER).at(-1), {
    taskId: 'good',
    toolName: 'build',
    arguments: kept,
  });
});

test('a task already polled when its details are recalled gets them, without overriding what its own record says', () => {
  const book = new TaskBook(SERVER, masking);
  book.record('2026-07-28', working('early'));
  const changes: string[] = [];
  book.onDidChange((task) => changes.push(task.snapshot.taskId));
  book.recall('early', {
    toolName: 'research',
    arguments: { kind: 'kept', value: { topic: 'reefs near s3cr3t-value' } },
  });
  assert.equal(book.get('early')?.toolName, 'research');
  assert.deepEqual(
    book.get('early')?.arguments,
    { kind: 'kept', value: { topic: 'reefs near ••••' } },
    'masked again by the keeper',
  );
  assert.deepEqual(changes, ['early'], 'the view redraws the row');
  book.record('2026-07-28', working('own'), { toolName: 'build', arguments: { target: 'all' } });
  book.recall('own', { toolName: 'research', arguments: { kind: 'omitted', chars: 9 } });
  assert.equal(book.get('own')?.toolName, 'build');
  assert.deepEqual(book.get('own')?.arguments, { kind: 'kept', value: { target: 'all' } });
});
