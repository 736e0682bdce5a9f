/**
 * Tasks through the gateway (2025-11-25 generation): the SDK 1.x client, as the agent, sends a task-augmented
 * tools/call of server-everything's `simulate-research-query`, gets the task back, polls it with tasks/get, lists it
 * and fetches its result with tasks/result, every request passing through the gateway to the one server.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../../../src/protocol/client';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { clientUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway } from '../../../../src/workbench/node/gateway/listener';
import { EVERYTHING_SERVER } from '../../../support/testSupport';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('tasks through the gateway', () => {
  test("a 2025-11-25 task-augmented tools/call returns the server's task, which the agent polls, lists and collects through the gateway", async () => {
    const relay = new GatewayHostRelay({});
    const upstream = new McpClient({
      serverName: 'everything',
      transport: new StdioTransport({ command: process.execPath, args: [EVERYTHING_SERVER] }),
      host: relay.host,
    });
    cleanups.push(() => upstream.close());
    await upstream.connect();
    const running = await startGateway({ upstream: clientUpstream(upstream), relay, maxBodyBytes: 1024 * 1024 });
    cleanups.push(() => running.close());

    const agent = new Client({ name: 'agent', version: '1.32.2' });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
    );
    cleanups.push(() => agent.close());
    assert.ok(agent.getServerCapabilities()?.tasks, 'the server offers tasks, and so does the gateway');

    const created = await agent.request(
      {
        method: 'tools/call',
        params: { name: 'simulate-research-query', arguments: { topic: 'gateways' }, task: { ttl: 60_000 } },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    assert.ok(taskId);
    let status = created.task.status;
    const deadline = Date.now() + 20_000;
    while (status !== 'completed') {
      assert.ok(Date.now() < deadline, `the task is still ${status}`);
      assert.ok(status === 'working' || status === 'completed', status);
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await agent.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status;
    }
    const listed = await agent.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.ok(listed.tasks.some((task) => task.taskId === taskId));
    const result = await agent.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
    assert.match(JSON.stringify(result.content), /gateways/);
  });
});
