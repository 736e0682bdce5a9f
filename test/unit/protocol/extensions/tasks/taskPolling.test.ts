/**
 * Every tasks/get honours the interval the last answer about that task gave (issue 39: against server-everything's
 * simulate-research-query, the status read after tasks/result went out 4 ms after the poll that had answered with
 * `pollInterval: 1000`). A status notification updates the book; it neither counts as an answer nor brings a poll
 * forward. Fake timers and an in-memory server: every step is the test's.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import { enableTasks, tasksExtension } from '../../../../../src/protocol/extensions/tasks';
import { createLinkedPair, type MemoryServerEndpoint } from '../../../../support/memoryTransport';
import type { Tool } from '../../../../../src/protocol/types';

const POLL_INTERVAL_MS = 1_000;
const TOOL: Tool = {
  name: 'simulate-research-query',
  inputSchema: { type: 'object' },
  execution: { taskSupport: 'required' },
} as Tool;

const cleanups: Array<() => Promise<void>> = [];
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.parse('2026-12-07T10:00:00Z') }));
afterEach(async () => {
  mock.timers.reset();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Lets every pending promise and I/O callback run (no time passes: the timers are fake). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function connected(): Promise<{ client: McpClient; server: MemoryServerEndpoint }> {
  const { client: transport, server } = createLinkedPair();
  const client = new McpClient({
    serverName: 'research',
    transport,
    era: 'legacy',
    extensions: [enableTasks('research').extension],
    requestTimeoutMs: 600_000,
  });
  cleanups.push(() => client.close());
  const connecting = client.connect();
  const init = await server.nextRequest('initialize');
  server.respond(init.id, {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    serverInfo: { name: 'research', version: '1.0.0' },
  });
  await connecting;
  return { client, server };
}

function task(status: string, statusMessage: string) {
  return {
    taskId: 'task-1',
    status,
    statusMessage,
    createdAt: new Date(Date.now()).toISOString(),
    ttl: 300_000,
    pollInterval: POLL_INTERVAL_MS,
  };
}

/** The tasks/get requests the client has sent so far. */
function tasksGets(server: MemoryServerEndpoint): number {
  return server.sent.filter((sent) => sent.message.method === 'tasks/get').length;
}

test('no tasks/get goes out before the last answer’s pollInterval, after tasks/result or a status notification', async () => {
  const { client, server } = await connected();
  const tasks = client.extension(tasksExtension);
  assert.ok(tasks);
  const calling = tasks.callTool(TOOL, { topic: 'tides' });

  const call = await server.nextRequest('tools/call');
  server.respond(call.id, { task: task('working', 'Gathering sources...') });
  await settle();
  // A status notification between polls updates the book, and brings no poll forward.
  server.notify('notifications/tasks/status', task('working', 'Analyzing content...'));
  await settle();
  assert.equal(tasks.book.get('task-1')?.snapshot.statusMessage, 'Analyzing content...');
  mock.timers.tick(POLL_INTERVAL_MS - 1);
  await settle();
  assert.equal(tasksGets(server), 0, 'no poll before the tools/call answer’s interval');
  mock.timers.tick(1);
  const poll = await server.nextRequest('tasks/get');
  server.respond(poll.id, task('completed', 'Generating report...'));

  // The poll said completed: the result is fetched at once (it is no poll)...
  const result = await server.nextRequest('tasks/result');
  server.notify('notifications/tasks/status', task('completed', 'Generating report...'));
  server.respond(result.id, { content: [{ type: 'text', text: 'Research Report: tides' }] });
  // ...and the status read that follows waits for the interval the last tasks/get answer gave.
  await settle();
  assert.equal(tasksGets(server), 1, 'no tasks/get right after tasks/result');
  mock.timers.tick(POLL_INTERVAL_MS - 1);
  await settle();
  assert.equal(tasksGets(server), 1, `no tasks/get before ${POLL_INTERVAL_MS} ms since the last answer`);
  mock.timers.tick(1);
  const after = await server.nextRequest('tasks/get');
  server.respond(after.id, task('completed', 'Generating report...'));
  const outcome = await calling;
  assert.ok(outcome.kind === 'result' && outcome.taskId === 'task-1');
  assert.equal(tasks.book.get('task-1')?.snapshot.status, 'completed');
});
