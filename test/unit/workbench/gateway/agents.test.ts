/**
 * Which agents a gateway serves (src/workbench/gateway/agents.ts, Gateway.agents and disconnect) and a re-opened
 * gateway's secret (listener.ts `secret`): an SDK client over loopback HTTP, in process.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Emitter } from '../../../../src/protocol/disposable';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import type { JsonObject } from '../../../../src/protocol/types';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

function upstream(): GatewayUpstream {
  const never = new Emitter<never>();
  return {
    name: 'fake',
    session: (): ServerSession => ({
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'fake-server', version: '1.0.0' },
    }),
    request: async (method: string): Promise<JsonObject> =>
      method === 'tools/list' ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } : {},
    ping: async () => undefined,
    subscribe: async () => undefined,
    unsubscribe: async () => undefined,
    setLogLevel: async () => undefined,
    onToolsChanged: never.event,
    onPromptsChanged: never.event,
    onResourcesChanged: never.event,
    onResourceUpdated: never.event,
    onLogMessage: never.event,
  };
}

async function serve(secret?: string): Promise<RunningGateway> {
  const running = await startGateway({
    upstream: upstream(),
    relay: new GatewayHostRelay({}),
    maxBodyBytes: 64 * 1024,
    ...(secret !== undefined ? { secret } : {}),
  });
  cleanups.push(() => running.close());
  return running;
}

async function connect(running: RunningGateway, name: string): Promise<Client> {
  const client = new Client({ name, version: '9.8.7' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
  );
  cleanups.push(() => client.close());
  return client;
}

function changed(running: RunningGateway, until: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (until()) return resolve();
    const listening = running.gateway.agents.onDidChangeAgents(() => {
      if (!until()) return;
      listening.dispose();
      resolve();
    });
  });
}

describe('the agents of a gateway', () => {
  test('a connected agent is listed by its clientInfo, and Disconnect ends its session', async () => {
    const running = await serve();
    const agents = running.gateway.agents;
    assert.deepEqual(agents.list(), []);
    const client = await connect(running, 'code-server');
    await changed(running, () => agents.list().length === 1);
    const [agent] = agents.list();
    assert.equal(agent.name, 'code-server');
    assert.equal(agent.version, '9.8.7');
    assert.equal((await client.listTools()).tools[0].name, 'echo');

    await running.gateway.disconnect(agent.id);
    assert.deepEqual(agents.list(), []);
    assert.equal(running.gateway.sessionCount, 0);
    // The ended session is unknown now: the agent's next request is refused until it connects anew.
    await assert.rejects(client.listTools());
  });

  test('an agent that names itself at length is cut to a display length', async () => {
    const running = await serve();
    await connect(running, 'x'.repeat(5000));
    await changed(running, () => running.gateway.agents.list().length === 1);
    assert.ok(running.gateway.agents.list()[0].name.length <= 121);
  });

  test('a gateway re-opened with its secret keeps it; a malformed one is replaced by a new one', async () => {
    const secret = 'cd'.repeat(32);
    const kept = await serve(secret);
    assert.equal(kept.headers.Authorization, `Bearer ${secret}`);
    await connect(kept, 'agent');
    const fresh = await serve('not-hex');
    assert.match(fresh.headers.Authorization, /^Bearer [0-9a-f]{64}$/);
    assert.notEqual(fresh.headers.Authorization, 'Bearer not-hex');
  });
});
