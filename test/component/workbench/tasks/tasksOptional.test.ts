/**
 * A tool whose 2025-11-25 `execution.taskSupport` is "optional" (test/fixtures/tasks/optional-task-server.mjs, on the
 * SDK's tasks): what the Call Tool form offers for it, and that the person's choice reaches the call: task-augmented
 * when "Run as task" is checked, a plain tools/call when it is not.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { enableTasks } from '../../../../src/protocol/extensions/tasks';
import type { ClientHost } from '../../../../src/protocol/host';
import type { Tool } from '../../../../src/protocol/types';
import { parseArgs } from '../../../../src/cli/args';
import { RUNNERS } from '../../../../src/cli/main';
import { callToolWithTasks, runAsTaskChoice } from '../../../../src/workbench/tasks/taskCalls';
import { REPO_ROOT, assertProcessGone, textOf, trackedStdio } from '../../../support/testSupport';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'optional-task-server.mjs');
const MODERN_FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'modern-task-server.mjs');

let client: McpClient;
let pid: () => number | undefined;
let tools: Map<string, Tool>;
const calls: Record<string, unknown>[] = [];
/** The related-task id of each sampling request the fixture sent (its muse tool samples inside its task). */
const sampledFor: (string | undefined)[] = [];
const host: ClientHost = {
  sampling: {
    createMessage: async (request) => {
      const meta = request._meta as Record<string, { taskId?: string }> | undefined;
      sampledFor.push(meta?.['io.modelcontextprotocol/related-task']?.taskId);
      return {
        role: 'assistant',
        content: { type: 'text', text: 'the sea keeps time' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    },
  },
};

before(async () => {
  const tracked = trackedStdio({ command: process.execPath, args: [FIXTURE], shutdownGraceMs: 1000 });
  pid = tracked.pid;
  client = new McpClient({
    serverName: 'optional-tasks',
    transport: tracked.transport,
    requestTimeoutMs: 20_000,
    host,
    extensions: [enableTasks('optional-tasks').extension],
    trace: (direction, message) => {
      const sent = message as Record<string, unknown>;
      if (direction === 'send' && sent.method === 'tools/call') calls.push(sent.params as Record<string, unknown>);
    },
  });
  await client.connect();
  tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
});

after(async () => {
  await client?.close();
  const id = pid?.();
  if (id !== undefined) await assertProcessGone(id, 'optional task fixture');
});

function tool(name: string): Tool {
  const found = tools.get(name);
  assert.ok(found, `the fixture offers ${name}`);
  return found;
}

describe('Run as task for tools whose task support is optional', () => {
  test('the form offers a checkbox for optional (checked as the setting says), a fixed one for required, none otherwise', () => {
    assert.deepEqual(runAsTaskChoice(client, tool('brew'), false), { kind: 'optional', checked: false });
    assert.deepEqual(runAsTaskChoice(client, tool('brew'), true), { kind: 'optional', checked: true });
    assert.deepEqual(runAsTaskChoice(client, tool('plain'), true), { kind: 'none' });
    assert.deepEqual(runAsTaskChoice(client, { ...tool('plain'), execution: { taskSupport: 'required' } }, false), {
      kind: 'required',
    });
    assert.deepEqual(runAsTaskChoice(client, { ...tool('plain'), execution: { taskSupport: 'forbidden' } }, true), {
      kind: 'none',
    });
    assert.deepEqual(runAsTaskChoice(undefined, tool('brew'), true), { kind: 'none' }, 'no connection, no choice');
  });

  test('checked: the call is task-augmented and its result comes back with its task', async () => {
    const outcome = await callToolWithTasks(client, tool('brew'), { drink: 'tea' }, { runAsTask: true });
    assert.equal(textOf(outcome.result.content), 'brewed tea');
    assert.ok(outcome.taskId, 'the outcome names its task');
    assert.equal(typeof calls.at(-1)?.task, 'object', 'the tools/call carried task');
  });

  test('unchecked: a plain tools/call', async () => {
    const outcome = await callToolWithTasks(client, tool('brew'), { drink: 'mate' }, { runAsTask: false });
    assert.equal(textOf(outcome.result.content), 'brewed mate');
    assert.equal(outcome.taskId, undefined);
    assert.equal(calls.at(-1)?.task, undefined, 'the tools/call carried no task');
  });

  test('a task that samples: the sampling request arrives while tasks/result waits, tagged with that task', async () => {
    const outcome = await callToolWithTasks(client, tool('muse'), { theme: 'tides' }, { runAsTask: true });
    assert.equal(textOf(outcome.result.content), 'muse: the sea keeps time');
    assert.ok(outcome.taskId);
    assert.deepEqual(sampledFor, [outcome.taskId], 'one sampling request, naming the task the call ran as');
  });

  test("a task's result gets the checks of a direct call: structuredContent against outputSchema (extension and CLI alike)", async () => {
    const direct = await callToolWithTasks(client, tool('tally'), {}, { runAsTask: false });
    assert.equal(calls.at(-1)?.task, undefined, 'the direct call carried no task');
    const asTask = await callToolWithTasks(client, tool('tally'), {}, { runAsTask: true });
    assert.ok(asTask.taskId, 'the second call ran as a task');
    assert.equal(direct.outputValidation?.kind, 'invalid');
    assert.deepEqual(asTask.outputValidation, direct.outputValidation, 'the task result is judged as the direct one');

    const cliDirect = await RUNNERS.call(client, parseArgs(['call', 'tally', '{}']));
    const cliTask = await RUNNERS.call(client, parseArgs(['call', 'tally', '{}', '--task']));
    assert.equal(typeof calls.at(-1)?.task, 'object', '--task task-augmented the call');
    assert.deepEqual(cliDirect.failure, {
      kind: 'output-invalid',
      message: 'optional-tasks: structuredContent of tally does not match its outputSchema',
    });
    assert.deepEqual(cliTask.failure, cliDirect.failure, 'call --task fails as the direct call does');
    assert.deepEqual(
      (cliTask.output as { outputValidation?: unknown }).outputValidation,
      (cliDirect.output as { outputValidation?: unknown }).outputValidation,
    );

    // --no-wait, then task wait: the waited result is judged the same (the book knows the tool this run started).
    const started = await RUNNERS.call(client, parseArgs(['call', 'tally', '{}', '--task', '--no-wait']));
    const { taskId } = started.output as { taskId: string };
    assert.equal(typeof taskId, 'string', 'call --task --no-wait printed the task');
    const waited = await RUNNERS.task(client, parseArgs(['task', 'wait', taskId]));
    assert.deepEqual(waited.failure, cliDirect.failure);
  });

  test('a 2026-07-28 connection offers no checkbox: its server decides per call', async () => {
    const tracked = trackedStdio({ command: process.execPath, args: [MODERN_FIXTURE], shutdownGraceMs: 1000 });
    const modern = new McpClient({
      serverName: 'modern',
      transport: tracked.transport,
      era: '2026-07-28',
      requestTimeoutMs: 10_000,
      extensions: [enableTasks('modern').extension],
    });
    try {
      await modern.connect();
      assert.deepEqual(
        runAsTaskChoice(
          modern,
          { name: 'research', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
          true,
        ),
        { kind: 'none' },
      );
    } finally {
      await modern.close();
    }
    const id = tracked.pid();
    if (id !== undefined) await assertProcessGone(id, 'modern task fixture');
  });
});
