/**
 * The tool policy through a real gateway (src/workbench/gateway/toolPolicy.ts over the project's client to
 * server-everything, served by startGateway to the official SDK 1.32.2 client): a disabled tool is not listed and is
 * refused at call; a change of the rules reaches a connected agent as `notifications/tools/list_changed`; an `ask`
 * names the agent (its clientInfo) and the arguments to the host; each request is observed with the agent.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../../../src/protocol/client';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { observedUpstream } from '../../../../src/workbench/gateway/agentTraffic';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { ToolPolicy, policedUpstream, type AgentToolCall } from '../../../../src/workbench/gateway/toolPolicy';
import { clientUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { EVERYTHING_SERVER, waitFor } from '../../../support/testSupport';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('the tool policy through a real gateway', () => {
  test('disable hides and refuses a tool, a change is list_changed for connected agents, ask names the agent', async () => {
    const relay = new GatewayHostRelay({});
    const client = new McpClient({
      serverName: 'everything',
      transport: new StdioTransport({ command: process.execPath, args: [EVERYTHING_SERVER] }),
      host: relay.host,
    });
    cleanups.push(() => client.close());
    await client.connect();
    const policy = new ToolPolicy();
    const asked: AgentToolCall[] = [];
    const heard: string[] = [];
    const upstream = observedUpstream(
      policedUpstream(clientUpstream(client), policy, {
        ask: async (call) => {
          asked.push(call);
          return true;
        },
      }),
      { request: (agent, method) => (heard.push(`${agent?.name ?? '?'} ${method}`), () => undefined) },
    );
    const running: RunningGateway = await startGateway({ upstream, relay, maxBodyBytes: 1024 * 1024 });
    cleanups.push(() => running.close());

    const agent = new Client({ name: 'policy-agent', version: '3.0.0' }, { capabilities: {} });
    await agent.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
    );
    cleanups.push(() => agent.close());
    let changed = 0;
    agent.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);

    assert.ok((await agent.listTools()).tools.some((tool) => tool.name === 'echo'));
    policy.set('echo', { enabled: false });
    await waitFor(() => changed === 1, 'the agent heard tools/list_changed when the rules changed');
    assert.ok(!(await agent.listTools()).tools.some((tool) => tool.name === 'echo'), 'echo is no longer listed');
    await assert.rejects(
      agent.callTool({ name: 'echo', arguments: { message: 'hi' } }),
      (error: Error & { code?: number }) =>
        error.code === -32602 && /Tool "echo" is disabled for agents/.test(error.message),
    );

    policy.set('echo', { enabled: true, policy: 'ask' });
    await waitFor(() => changed === 2, 'the agent heard the second change');
    const result = await agent.callTool({ name: 'echo', arguments: { message: 'hi' } });
    assert.match(JSON.stringify(result.content), /Echo: hi/);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].agent?.name, 'policy-agent');
    assert.equal(asked[0].agent?.version, '3.0.0');
    assert.deepEqual(asked[0].arguments, { message: 'hi' });
    assert.ok(
      heard.includes('policy-agent tools/call'),
      `every request is observed with its agent: ${heard.join('; ')}`,
    );
  });
});
