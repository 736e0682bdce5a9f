/**
 * Tasks through the gateway (2025-11-25 generation): the SDK 1.x client, as the agent, sends a task-augmented
 * tools/call of server-everything's `simulate-research-query`, gets the task back, polls it with tasks/get, lists it
 * and fetches its result with tasks/result, every request passing through the gateway to the one server; and a
 * 2026-07-28 agent that declared the tasks extension gets the task of the extension's fixture and polls it itself.
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
import * as path from 'node:path';
import { McpClient } from '../../../../src/protocol/client';
import { enableTasks } from '../../../../src/protocol/extensions/tasks';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { clientUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway } from '../../../../src/workbench/node/gateway/listener';
import { EVERYTHING_SERVER, REPO_ROOT } from '../../../support/testSupport';

const MODERN_TASK_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'tasks', 'modern-task-server.mjs');

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
    let status: string = created.task.status;
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

  test('a 2026-07-28 agent that declared the tasks extension gets the task (resultType "task") and polls tasks/get through the gateway', async () => {
    const relay = new GatewayHostRelay({});
    const upstream = new McpClient({
      serverName: 'tasks',
      transport: new StdioTransport({ command: process.execPath, args: [MODERN_TASK_SERVER] }),
      host: relay.host,
      era: 'auto',
      extensions: [enableTasks('tasks').extension],
    });
    cleanups.push(() => upstream.close());
    await upstream.connect();
    const running = await startGateway({ upstream: clientUpstream(upstream), relay, maxBodyBytes: 1024 * 1024 });
    cleanups.push(() => running.close());
    const request = async (method: string, params: Record<string, unknown>) => {
      const response = await fetch(running.url, {
        method: 'POST',
        headers: {
          ...running.headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          'mcp-name': String(method === 'tools/call' ? params.name : params.taskId),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
              'io.modelcontextprotocol/clientInfo': { name: 'task-agent', version: '1' },
            },
          },
        }),
      });
      const text = await response.text();
      const data = text.split('\n').filter((line) => line.startsWith('data: '));
      const message = JSON.parse(data.at(-1)?.slice(6) ?? text) as {
        result?: Record<string, unknown>;
        error?: unknown;
      };
      assert.ok(message.result, JSON.stringify(message));
      return message.result;
    };
    const created = await request('tools/call', { name: 'research', arguments: { topic: 'gateways' } });
    assert.equal(created.resultType, 'task', JSON.stringify(created));
    assert.equal(created.status, 'working');
    const taskId = created.taskId as string;
    let task = created;
    for (let poll = 0; poll < 10 && task.status === 'working'; poll++) task = await request('tasks/get', { taskId });
    assert.equal(task.status, 'completed', JSON.stringify(task));
    assert.match(JSON.stringify(task.result), /research done: gateways/);
  });
});
