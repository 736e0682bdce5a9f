/**
 * 2025-11-25 tasks against the real @modelcontextprotocol/server-everything over stdio: the requester side
 * (simulate-research-query with and without `ambiguous`, tasks/list, tasks/cancel, tools that forbid tasks) and
 * the receiver side (trigger-sampling-request-async, trigger-elicitation-request-async: the server runs its
 * sampling and elicitation as tasks this client hosts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import type { ClientHost } from '../../../../../src/protocol/host';
import {
  enableTasks,
  tasksExtension,
  type TasksApi,
  type TaskSnapshot,
} from '../../../../../src/protocol/extensions/tasks';
import type { ElicitRequest, ElicitResult, Tool } from '../../../../../src/protocol/types';
import { maskSecrets } from '../../../../../src/workbench/secrets';
import { callToolWithTasks } from '../../../../../src/workbench/tasks/taskCalls';
import { taskResultCall } from '../../../../../src/workbench/tasks/taskResult';
import { EVERYTHING_SERVER, assertProcessGone, textOf, trackedStdio, waitFor } from '../../../../support/testSupport';

const elicitations: { request: ElicitRequest; relatedTaskId?: string }[] = [];
const host: ClientHost = {
  sampling: {
    createMessage: async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'sampled inside a hosted task' },
      model: 'test-model',
      stopReason: 'endTurn',
    }),
  },
  elicitation: {
    modes: ['form'],
    elicit: async (request): Promise<ElicitResult> => {
      const meta = request._meta as Record<string, { taskId?: string }> | undefined;
      elicitations.push({ request, relatedTaskId: meta?.['io.modelcontextprotocol/related-task']?.taskId });
      const properties = (request.requestedSchema as { properties?: Record<string, unknown> }).properties ?? {};
      // The research tool asks for one interpretation; the async elicitation trigger for a name and more.
      if ('interpretation' in properties) return { action: 'accept', content: { interpretation: 'historical' } };
      return { action: 'accept', content: { name: 'Ada', color: 'blue' } };
    },
  },
};

let client: McpClient;
let tasks: TasksApi;
let tools: Map<string, Tool>;
let pid: () => number | undefined;
const sent: Record<string, unknown>[] = [];

before(async () => {
  const tracked = trackedStdio({
    command: process.execPath,
    args: [EVERYTHING_SERVER, 'stdio'],
    shutdownGraceMs: 1000,
  });
  pid = tracked.pid;
  const { extension } = enableTasks('everything', {
    receiver: { sampling: true, elicitation: true },
    keepArguments: (args) => maskSecrets(args, ['tide-secret']),
  });
  client = new McpClient({
    serverName: 'everything',
    transport: tracked.transport,
    host,
    requestTimeoutMs: 20_000,
    extensions: [extension],
    trace: (direction, message) => {
      if (direction === 'send') sent.push(message as Record<string, unknown>);
    },
  });
  await client.connect();
  const api = client.extension(tasksExtension);
  assert.ok(api, 'the tasks API is there when the extension is enabled');
  tasks = api;
  tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
});

after(async () => {
  await client?.close();
  const id = pid?.();
  if (id !== undefined) await assertProcessGone(id, 'server-everything');
});

function tool(name: string): Tool {
  const found = tools.get(name);
  assert.ok(found, `server-everything offers ${name}`);
  return found;
}

function sentCalls(name: string): Record<string, unknown>[] {
  return sent
    .filter((message) => message.method === 'tools/call' && (message.params as { name?: string }).name === name)
    .map((message) => message.params as Record<string, unknown>);
}

describe('2025-11-25 tasks on server-everything', () => {
  test('the client declares the receiver capabilities and sees the server offer tool tasks', () => {
    const initialize = sent.find((message) => message.method === 'initialize');
    const capabilities = (initialize?.params as { capabilities: Record<string, unknown> }).capabilities;
    assert.deepEqual(capabilities.tasks, {
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
    assert.equal(tasks.generation(), '2025-11-25');
    assert.equal(tasks.taskSupport(tool('simulate-research-query')), 'required');
    assert.equal(tasks.taskSupport(tool('echo')), 'forbidden');
  });

  test('an initialize offering a revision older than 2025-11-25 declares no capabilities.tasks (its schema has none)', async () => {
    const tracked = trackedStdio({
      command: process.execPath,
      args: [EVERYTHING_SERVER, 'stdio'],
      shutdownGraceMs: 1000,
    });
    const initializes: Record<string, unknown>[] = [];
    const older = new McpClient({
      serverName: 'everything-2025-06-18',
      transport: tracked.transport,
      host,
      protocolVersions: ['2025-06-18'],
      requestTimeoutMs: 20_000,
      extensions: [enableTasks('everything-2025-06-18', { receiver: { sampling: true, elicitation: true } }).extension],
      trace: (direction, message) => {
        const sentMessage = message as Record<string, unknown>;
        if (direction === 'send' && sentMessage.method === 'initialize')
          initializes.push(sentMessage.params as Record<string, unknown>);
      },
    });
    try {
      await older.connect();
      const capabilities = initializes[0]?.capabilities as Record<string, unknown>;
      assert.equal(initializes[0]?.protocolVersion, '2025-06-18');
      assert.equal(capabilities.tasks, undefined);
      assert.deepEqual(capabilities.elicitation, { form: {} });
    } finally {
      await older.close();
    }
    const id = tracked.pid();
    if (id !== undefined) await assertProcessGone(id, 'server-everything at 2025-06-18');
  });

  test('a tool that requires a task runs as one, reports its status and prints its result', async () => {
    const seen: TaskSnapshot['status'][] = [];
    const listening = tasks.book.onDidChange((tracked) => seen.push(tracked.snapshot.status));
    try {
      const outcome = await tasks.callTool(tool('simulate-research-query'), { topic: 'tides at tide-secret' });
      assert.equal(outcome.kind, 'result');
      assert.ok(outcome.kind === 'result' && outcome.taskId, 'the result names its task');
      assert.match(textOf(outcome.result.content as unknown[]), /Research Report: tides/);
      const call = sentCalls('simulate-research-query').at(-1);
      assert.ok(call && typeof call.task === 'object', 'the call was task-augmented');
      assert.ok(seen.includes('working') && seen.at(-1) === 'completed', `statuses seen: ${seen.join(', ')}`);
      assert.equal(tasks.book.get(outcome.taskId)?.toolName, 'simulate-research-query');
      // Open Task Result shows the call's arguments, masked as History masks them.
      assert.deepEqual(taskResultCall(outcome.taskId, tasks.book.get(outcome.taskId)).args, { topic: 'tides at ••••' });
    } finally {
      listening.dispose();
    }
  });

  test('an ambiguous research query asks for input through the elicitation handler while tasks/result waits', async () => {
    const before = elicitations.length;
    const outcome = await tasks.callTool(tool('simulate-research-query'), { topic: 'python', ambiguous: true });
    assert.equal(outcome.kind, 'result');
    const asked = elicitations.slice(before);
    assert.equal(asked.length, 1, 'one clarification was asked');
    assert.ok(outcome.kind === 'result');
    assert.equal(asked[0].relatedTaskId, outcome.taskId, 'the elicitation names the task it is for');
    assert.match(textOf(outcome.result.content as unknown[]), /Clarification\*\*: historical/);
  });

  test('a tool that forbids tasks is called plainly', async () => {
    const outcome = await tasks.callTool(tool('echo'), { message: 'plain' }, { asTask: true });
    assert.equal(outcome.kind, 'result');
    assert.equal(sentCalls('echo').at(-1)?.task, undefined, 'no task param for a forbidden tool');
  });

  test('--no-wait: the task is handed back at once, then listed, then cancelled', async () => {
    const outcome = await tasks.callTool(tool('simulate-research-query'), { topic: 'glaciers' }, { wait: false });
    assert.equal(outcome.kind, 'task');
    assert.ok(outcome.kind === 'task');
    const taskId = outcome.task.taskId;
    const listed = await tasks.list();
    assert.ok(
      listed.some((task) => task.taskId === taskId),
      'tasks/list includes the new task',
    );
    await tasks.cancel(taskId);
    const after = await tasks.get(taskId);
    assert.equal(after.status, 'cancelled');
    await assert.rejects(tasks.wait(taskId), /was cancelled/);
  });

  test('notifications/tasks/status update the task book between polls (no one polls a --no-wait task)', async () => {
    const outcome = await tasks.callTool(tool('simulate-research-query'), { topic: 'lichens' }, { wait: false });
    assert.ok(outcome.kind === 'task');
    const taskId = outcome.task.taskId;
    const polls = () =>
      sent.filter(
        (message) => message.method === 'tasks/get' && (message.params as { taskId?: string }).taskId === taskId,
      ).length;
    try {
      // The server moves to its second stage after a second and says so only in its status notification.
      await waitFor(
        () => tasks.book.get(taskId)?.snapshot.statusMessage === 'Analyzing content...',
        'the book shows the second stage',
        10_000,
      );
      assert.equal(polls(), 0, 'no tasks/get was sent for the task');
      assert.equal(
        tasks.book.get(taskId)?.toolName,
        'simulate-research-query',
        'the notification kept what the book knew',
      );
    } finally {
      await tasks.cancel(taskId);
    }
  });

  test('the workbench routes a task-required tool through a task and returns a CallToolOutcome, like any call', async () => {
    const outcome = await callToolWithTasks(client, tool('simulate-research-query'), { topic: 'basalt' });
    assert.ok(outcome.taskId, 'it ran as a task');
    assert.match(textOf(outcome.result.content), /Research Report: basalt/);
    const plain = await callToolWithTasks(client, tool('echo'), { message: 'direct' }, { runAsTask: true });
    assert.equal(plain.taskId, undefined, 'a tool that forbids tasks is called directly, whatever the setting');
    assert.match(textOf(plain.result.content), /direct/);
  });

  test('a task id the server does not know is a clear error naming the server', async () => {
    await assert.rejects(tasks.get('no-such-task'), /everything/);
  });

  test('receiver: the server runs its sampling request as a task hosted by this client', async () => {
    const { result } = await client.callTool('trigger-sampling-request-async', { prompt: 'hello', maxTokens: 5 });
    const text = textOf(result.content);
    assert.match(text, /\[COMPLETED\] Async sampling completed/);
    assert.match(text, /sampled inside a hosted task/);
  });

  test('receiver: the server runs its elicitation as a task hosted by this client', async () => {
    const before = elicitations.length;
    const { result } = await client.callTool('trigger-elicitation-request-async', {});
    await waitFor(() => elicitations.length > before, 'the hosted elicitation');
    assert.ok(elicitations.at(-1)?.relatedTaskId, 'the hosted elicitation is tagged with its task');
    assert.match(textOf(result.content), /COMPLETED/);
  });
});
