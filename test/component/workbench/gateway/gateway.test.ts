/**
 * The gateway in process (src/workbench/gateway, src/workbench/node/gateway): 50 agents × 100 calls at once through
 * one gateway to one real stdio server with every answer matched to its request (issue 37's full 50 × 1,000 runs in
 * `npm run bench`'s gateway section: on this shared machine it takes far longer than a test may); the listener on 127.0.0.1 only;
 * the body cap; per-agent admission; idle sessions ended; upstream notifications fanned out; and nothing left open
 * after close().
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../../../src/protocol/client';
import { Emitter } from '../../../../src/protocol/disposable';
import { McpError } from '../../../../src/protocol/errors';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import type { JsonObject, LogMessage } from '../../../../src/protocol/types';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import { clientUpstream, type GatewayUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { REPO_ROOT, waitFor } from '../../../support/testSupport';

const RAW_SERVER = path.join(REPO_ROOT, 'test', 'fixtures', 'bench', 'raw-server.mjs');
const MAX_BODY = 64 * 1024;

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** An upstream the test drives: its calls wait for `release`, its notifications fire on demand. */
class FakeUpstream implements GatewayUpstream {
  readonly name = 'fake';
  readonly calls: { method: string; params: JsonObject | undefined }[] = [];
  readonly subscribed: string[] = [];
  readonly toolsChanged = new Emitter<void>();
  private readonly never = new Emitter<void>();
  readonly updates = new Emitter<string>();
  private readonly logs = new Emitter<LogMessage>();
  private waiting: (() => void)[] = [];
  hold = false;

  session(): ServerSession {
    return {
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
      serverInfo: { name: 'fake-server', version: '1.0.0' },
      instructions: 'fake instructions',
    };
  }
  async request(method: string, params: JsonObject | undefined, options: { signal: AbortSignal }): Promise<JsonObject> {
    this.calls.push({ method, params });
    if (this.hold) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (method === 'tools/list') return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    if (method === 'tools/call') {
      if ((params?.arguments as JsonObject | undefined)?.fail)
        throw new McpError(-32050, 'failed with token s3cret-token', { token: 's3cret-token' }, 'fake', 'tools/call');
      return { content: [{ type: 'text', text: JSON.stringify(params?.arguments ?? {}) }] };
    }
    options.signal.throwIfAborted();
    return {};
  }
  release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
  get held(): number {
    return this.waiting.length;
  }
  ping = async () => undefined;
  subscribe = async (uri: string) => void this.subscribed.push(`+${uri}`);
  unsubscribe = async (uri: string) => void this.subscribed.push(`-${uri}`);
  setLogLevel = async () => undefined;
  onToolsChanged = this.toolsChanged.event;
  onPromptsChanged = this.never.event;
  onResourcesChanged = this.never.event;
  onResourceUpdated = this.updates.event;
  onLogMessage = this.logs.event;
}

async function fakeGateway(
  options: { maxInFlightPerAgent?: number; maxQueuedPerAgent?: number; sessionIdleMs?: number } = {},
): Promise<{ upstream: FakeUpstream; running: RunningGateway }> {
  const upstream = new FakeUpstream();
  const running = await startGateway({
    upstream,
    relay: new GatewayHostRelay({}),
    secrets: ['s3cret-token'],
    maxBodyBytes: MAX_BODY,
    ...options,
  });
  cleanups.push(() => running.close());
  return { upstream, running };
}

async function agent(running: RunningGateway, name = 'agent'): Promise<Client> {
  return (await agentWithTransport(running, name)).client;
}

async function agentWithTransport(
  running: RunningGateway,
  name: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(running.url), {
    requestInit: { headers: running.headers },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

/** One JSON-RPC POST with node:http through a bounded keep-alive pool; the answer's JSON-RPC messages. */
function post(
  httpAgent: http.Agent,
  running: RunningGateway,
  body: unknown,
  sessionId?: string,
): Promise<{ status: number; sessionId?: string; messages: JsonObject[] }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      running.url,
      {
        method: 'POST',
        agent: httpAgent,
        headers: {
          ...running.headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const lines = text.split('\n').filter((line) => line.startsWith('data: '));
          const messages = (lines.length > 0 ? lines.map((line) => line.slice(6)) : text ? [text] : []).map(
            (json) => JSON.parse(json) as JsonObject,
          );
          const header = response.headers['mcp-session-id'];
          resolve({
            status: response.statusCode ?? 0,
            sessionId: typeof header === 'string' ? header : undefined,
            messages,
          });
        });
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('the gateway', () => {
  test('50 agents × 100 calls at once through one gateway to one stdio server: every answer is its own request’s', async () => {
    const transport = new StdioTransport({ command: process.execPath, args: [RAW_SERVER] });
    const relay = new GatewayHostRelay({});
    const client = new McpClient({ serverName: 'raw', transport, host: relay.host });
    cleanups.push(() => client.close());
    await client.connect();
    const running = await startGateway({ upstream: clientUpstream(client), relay, maxBodyBytes: MAX_BODY });
    cleanups.push(() => running.close());
    assert.equal(running.address.address, '127.0.0.1');
    const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    cleanups.push(async () => httpAgent.destroy());
    const started = Date.now();
    const agents = await Promise.all(
      Array.from({ length: 50 }, async (_, agentIndex) => {
        const opened = await post(httpAgent, running, {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: `a${agentIndex}`, version: '1' },
          },
        });
        assert.equal(opened.status, 200);
        const sessionId = opened.sessionId as string;
        await post(httpAgent, running, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId);
        const answers = await Promise.all(
          Array.from({ length: 100 }, async (_, call) => {
            const id = `${agentIndex}:${call}`;
            const answer = await post(
              httpAgent,
              running,
              { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `t-${id}` } } },
              sessionId,
            );
            const response = answer.messages.find((message) => 'result' in message || 'error' in message);
            assert.equal(response?.id, id);
            const content = (response?.result as { content: { text: string }[] }).content;
            assert.equal(content[0].text, `t-${id}`);
            return id;
          }),
        );
        return answers.length;
      }),
    );
    assert.deepEqual(agents, Array(50).fill(100));
    assert.equal(running.gateway.sessionCount, 50);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 30_000, `5,000 calls took ${elapsed} ms`);
  });

  test('a body over the cap is refused with 413 before the gateway reads it', async () => {
    const { running } = await fakeGateway();
    const httpAgent = new http.Agent();
    cleanups.push(async () => httpAgent.destroy());
    const answer = await post(httpAgent, running, {
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(MAX_BODY) },
    });
    assert.equal(answer.status, 413);
  });

  test("an agent past its running and waiting requests gets an error at once, and other agents' calls still run", async () => {
    const { upstream, running } = await fakeGateway({ maxInFlightPerAgent: 2, maxQueuedPerAgent: 1 });
    const flooder = await agent(running, 'flooder');
    const other = await agent(running, 'other');
    upstream.hold = true;
    const held = [1, 2].map((n) => flooder.callTool({ name: 'echo', arguments: { n } }));
    await waitFor(() => upstream.held === 2, 'two calls run upstream');
    // Two more at once: whichever reaches the gateway first waits its turn, the other is refused at once (two HTTP
    // requests may arrive in either order, so the test does not say which).
    const more = [3, 4].map((n) =>
      flooder.callTool({ name: 'echo', arguments: { n } }).then(
        () => 'answered',
        (error: Error) => error,
      ),
    );
    const refused = await Promise.race(more);
    assert.match(String(refused), /the gateway is busy/);
    const otherCall = other.callTool({ name: 'echo', arguments: { n: 'other' } });
    await waitFor(() => upstream.held === 3, "the other agent's call runs");
    upstream.hold = false;
    upstream.release();
    await Promise.all([...held, otherCall]);
    const outcomes = (await Promise.all(more)).map((outcome) => (outcome === 'answered' ? outcome : 'busy'));
    assert.deepEqual(outcomes.sort(), ['answered', 'busy'], 'the queued call ran');
  });

  test("the server's errors keep their code and lose the server's secrets; pass-through keeps _meta and cursors", async () => {
    const { upstream, running } = await fakeGateway();
    const client = await agent(running);
    assert.equal(client.getServerVersion()?.name, 'fake-server');
    assert.equal(client.getInstructions(), 'fake instructions');
    assert.equal(client.getServerCapabilities()?.prompts, undefined, 'only what the server has');
    await assert.rejects(
      client.callTool({ name: 'echo', arguments: { fail: true } }),
      (error: Error & { code?: number; data?: unknown }) => {
        assert.equal(error.code, -32050);
        assert.doesNotMatch(error.message, /s3cret-token/);
        assert.doesNotMatch(JSON.stringify(error.data), /s3cret-token/);
        return true;
      },
    );
    await client.listTools({ cursor: 'page-2', _meta: { 'example.com/trace': 'abc' } });
    const listed = upstream.calls.find((call) => call.method === 'tools/list');
    assert.deepEqual(listed?.params, { cursor: 'page-2', _meta: { 'example.com/trace': 'abc' } });
  });

  test("subscriptions are counted across agents, list changes reach every agent, and a session's end unsubscribes it", async () => {
    const { upstream, running } = await fakeGateway();
    const first = await agent(running, 'first');
    const { client: second, transport: secondTransport } = await agentWithTransport(running, 'second');
    await first.subscribeResource({ uri: 'file:///a' });
    await second.subscribeResource({ uri: 'file:///a' });
    assert.deepEqual(upstream.subscribed, ['+file:///a']);
    await first.unsubscribeResource({ uri: 'file:///a' });
    assert.deepEqual(upstream.subscribed, ['+file:///a']);
    const heard: string[] = [];
    first.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('first'));
    second.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('second'));
    upstream.toolsChanged.fire();
    await waitFor(() => heard.length === 2, 'both agents heard tools/list_changed');
    // The agent ends its session (DELETE): its subscriptions end with it.
    await secondTransport.terminateSession();
    await waitFor(() => upstream.subscribed.includes('-file:///a'), "the last subscriber's end unsubscribes");
  });

  test("a 2026-07-28 agent's subscriptions/listen has the server subscribed to its URIs while the stream is open, and gets only those URIs' updates", async () => {
    const { upstream, running } = await fakeGateway();
    const abort = new AbortController();
    const response = await fetch(running.url, {
      method: 'POST',
      signal: abort.signal,
      headers: {
        ...running.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'listener', version: '1' },
          },
        },
      }),
    });
    assert.equal(response.status, 200);
    const heard: JsonObject[] = [];
    const reading = (async () => {
      let text = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          text += Buffer.from(chunk).toString('utf8');
          const lines = text.split('\n');
          text = lines.pop() ?? '';
          for (const line of lines) if (line.startsWith('data: ')) heard.push(JSON.parse(line.slice(6)) as JsonObject);
        }
      } catch {
        // The test ends the stream.
      }
    })();
    await waitFor(() => upstream.subscribed.includes('+file:///a'), 'the server is subscribed to the URI listened to');
    await waitFor(() => heard.length > 0, 'the listen was acknowledged');
    // Sent in order on one stream: when a's update and the tools change arrive, b's would have arrived before them.
    upstream.updates.fire('file:///b');
    upstream.updates.fire('file:///a');
    upstream.toolsChanged.fire();
    await waitFor(
      () => heard.some((message) => message.method === 'notifications/tools/list_changed'),
      'tools/list_changed reached the listener',
    );
    const updated = heard
      .filter((message) => message.method === 'notifications/resources/updated')
      .map((message) => (message.params as { uri: string }).uri);
    assert.deepEqual(updated, ['file:///a']);
    abort.abort();
    await reading;
    await waitFor(() => upstream.subscribed.includes('-file:///a'), "the stream's end unsubscribes the server");
  });

  test('the connected agents are listed with their clientInfo, a change is told, and disconnect(id) ends one', async () => {
    const { running } = await fakeGateway();
    let changes = 0;
    const listening = running.gateway.agents.onDidChangeAgents(() => changes++);
    cleanups.push(async () => listening.dispose());
    const first = await agent(running, 'first-agent');
    await agent(running, 'second-agent');
    await waitFor(() => changes >= 2, 'both sessions were told');
    const agents = running.gateway.agents.list();
    assert.deepEqual(agents.map((each) => each.name).sort(), ['first-agent', 'second-agent']);
    const firstId = agents.find((each) => each.name === 'first-agent')?.id as string;
    const before = changes;
    assert.equal(await running.gateway.disconnect(firstId), true);
    assert.ok(changes > before, 'the end was told');
    assert.deepEqual(
      running.gateway.agents.list().map((each) => each.name),
      ['second-agent'],
    );
    await assert.rejects(first.listTools());
    assert.equal(await running.gateway.disconnect(firstId), false);
  });

  test('a session idle past its time is ended', async () => {
    const { running } = await fakeGateway({ sessionIdleMs: 200 });
    const client = await agent(running);
    assert.equal(running.gateway.sessionCount, 1);
    await waitFor(() => running.gateway.sessionCount === 0, 'the idle session ended', 5_000);
    await assert.rejects(client.listTools());
  });

  test(
    'close() ends the sessions, the listener and every socket, open streams included',
    { timeout: 15_000 },
    async () => {
      const before = process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;
      const { running } = await fakeGateway();
      const client = await agent(running);
      await client.listTools();
      // A connection in the middle of a request: the listener must end it, not wait for it.
      const halfOpen = net.connect(running.address.port, '127.0.0.1');
      await new Promise((resolve) => halfOpen.once('connect', resolve));
      halfOpen.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      let halfOpenClosed = false;
      halfOpen.on('error', () => undefined).once('close', () => (halfOpenClosed = true));
      await running.close();
      await waitFor(() => halfOpenClosed, 'the half-open connection was ended by close()');
      assert.equal(running.gateway.sessionCount, 0);
      await client.close();
      await waitFor(
        () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length <= before,
        'no TCP handle left open',
      );
      await assert.rejects(fetch(running.url, { method: 'POST', headers: running.headers }));
    },
  );
});
