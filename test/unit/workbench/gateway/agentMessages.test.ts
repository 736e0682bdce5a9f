/**
 * Every message between an agent and the gateway is a Protocol view row labelled with the agent (issue 37, "what the
 * middle adds"): the handshake the gateway answers itself, subscriptions, logging/setLevel, the agent's notifications,
 * and what is relayed to it, beside its calls. In process: a fake upstream, the listener on 127.0.0.1, the SDK 1.x
 * client as a 2025 agent and raw 2026-07-28 requests, and the ProtocolLog the Protocol view draws.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Emitter } from '../../../../src/protocol/disposable';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import type { ProgressUpdate } from '../../../../src/protocol/jsonrpc/rpcConnection';
import type { JsonObject, LogMessage } from '../../../../src/protocol/types';
import type { AgentMessageTap } from '../../../../src/workbench/gateway/agentMessages';
import { agentLabel } from '../../../../src/workbench/gateway/agentTraffic';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { ProtocolLog } from '../../../../src/workbench/protocolLog/protocolLog';
import type { MessageEvent } from '../../../../src/workbench/protocolLog/wireEvent';
import { waitFor } from '../../../support/testSupport';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

class FakeUpstream implements GatewayUpstream {
  readonly name = 'fake';
  readonly toolsChanged = new Emitter<void>();
  private readonly never = new Emitter<void>();
  private readonly updates = new Emitter<string>();
  private readonly logs = new Emitter<LogMessage>();
  hold = false;

  session(): ServerSession {
    return {
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, logging: {} },
      serverInfo: { name: 'fake-server', version: '1.0.0' },
    };
  }
  async request(
    method: string,
    params: JsonObject | undefined,
    options: { signal: AbortSignal; onProgress?: (update: ProgressUpdate) => void },
  ): Promise<JsonObject> {
    if (method === 'tools/list') return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    if (this.hold)
      await new Promise<void>((_resolve, reject) => {
        if (options.signal.aborted) reject(new Error('cancelled'));
        options.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
      });
    options.onProgress?.({ progress: 1, total: 2 });
    return { content: [{ type: 'text', text: String(params?.name) }] };
  }
  ping = async () => undefined;
  subscribe = async () => undefined;
  unsubscribe = async () => undefined;
  setLogLevel = async () => undefined;
  onToolsChanged = this.toolsChanged.event;
  onPromptsChanged = this.never.event;
  onResourcesChanged = this.never.event;
  onResourceUpdated = this.updates.event;
  onLogMessage = this.logs.event;
}

/** A gateway whose agent traffic goes to a ProtocolLog while `looking`, as the extension's Protocol view takes it. */
async function observedGateway(): Promise<{
  upstream: FakeUpstream;
  running: RunningGateway;
  log: ProtocolLog;
  look(on: boolean): void;
}> {
  const upstream = new FakeUpstream();
  const log = new ProtocolLog(() => ['s3cret']);
  let looking = true;
  const traffic: AgentMessageTap = {
    listening: () =>
      looking
        ? (agent, direction, message) =>
            log.agentMessage({ key: agent.key, label: agentLabel(agent) }, direction, message)
        : undefined,
  };
  const running = await startGateway({ upstream, relay: new GatewayHostRelay({}), maxBodyBytes: 64 * 1024, traffic });
  cleanups.push(() => running.close());
  return { upstream, running, log, look: (on) => (looking = on) };
}

function rows(log: ProtocolLog): MessageEvent[] {
  return log.events().filter((event): event is MessageEvent => event.kind === 'message');
}

function row(log: ProtocolLog, direction: 'send' | 'receive', kind: string, method: string): MessageEvent {
  const found = rows(log).find(
    (event) => event.direction === direction && event.messageKind === kind && event.method === method,
  );
  assert.ok(found, `a row ${direction} ${kind} ${method} among ${listed(log).join(', ')}`);
  return found;
}

function listed(log: ProtocolLog): string[] {
  return rows(log).map((event) => `${event.direction} ${event.messageKind} ${event.method ?? ''}`);
}

function modernRequest(
  running: RunningGateway,
  body: JsonObject,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(running.url, {
    method: 'POST',
    ...(signal ? { signal } : {}),
    headers: {
      ...running.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': String(body.method),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern\u202Eagent', version: '7' },
};

describe('every agent message is a Protocol view row labelled with the agent', () => {
  test("a 2025 agent's handshake, subscription, log level, notifications and call, and what is relayed to it", async () => {
    const { upstream, running, log } = await observedGateway();
    const client = new Client(
      { name: 'row-agent', version: '2.0' },
      { capabilities: { roots: { listChanged: true } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: running.headers } }),
    );
    cleanups.push(() => client.close());
    await client.setLoggingLevel('debug');
    await client.subscribeResource({ uri: 'file:///a' });
    let progressed = 0;
    await client.callTool({ name: 'echo', arguments: { token: 's3cret' } }, undefined, {
      onprogress: () => progressed++,
    });
    assert.equal(progressed, 1);
    await client.ping();
    await client.sendRootsListChanged();
    // The server's list change reaches the agent on its session's GET stream.
    await waitFor(() => listed(log).includes('receive notification notifications/roots/list_changed'), 'roots');
    upstream.toolsChanged.fire();
    await waitFor(
      () => listed(log).includes('send notification notifications/tools/list_changed'),
      'the list change relayed to the agent',
    );
    // A cancelled call: the agent's notifications/cancelled is a row about its request.
    upstream.hold = true;
    const abort = new AbortController();
    const cancelled = client.callTool({ name: 'slow', arguments: {} }, undefined, { signal: abort.signal });
    await waitFor(() => rows(log).some((event) => event.text.includes('"slow"')), 'the slow call arrived');
    abort.abort();
    await assert.rejects(cancelled);
    await waitFor(() => listed(log).includes('receive notification notifications/cancelled'), 'the cancel');

    for (const [method, answered] of [
      ['initialize', true],
      ['logging/setLevel', true],
      ['resources/subscribe', true],
      ['tools/call', true],
      ['ping', true],
    ] as const) {
      const request = row(log, 'receive', 'request', method);
      if (answered) {
        const answer = row(log, 'send', 'result', method);
        assert.equal(answer.relatedSeq, request.seq, `${method}'s answer pairs with its request`);
      }
    }
    row(log, 'receive', 'notification', 'notifications/initialized');
    const call = rows(log).find((event) => event.method === 'tools/call' && event.text.includes('"echo"'));
    assert.equal(row(log, 'send', 'notification', 'notifications/progress').relatedSeq, call?.seq);
    const slow = rows(log).find((event) => event.messageKind === 'request' && event.text.includes('"slow"'));
    assert.equal(row(log, 'receive', 'notification', 'notifications/cancelled').relatedSeq, slow?.seq);
    assert.equal(row(log, 'send', 'result', 'initialize').era, '2025-11-25');
    for (const event of rows(log)) {
      assert.equal(event.agent, 'row-agent 2.0', `${event.method ?? event.messageKind} is labelled with the agent`);
      assert.doesNotMatch(event.text, /s3cret/, 'masked like the wire');
    }
  });

  test("a 2026-07-28 agent's server/discover and its listen stream's notifications, even when the look began later", async () => {
    const { upstream, running, log, look } = await observedGateway();
    look(false);
    const abort = new AbortController();
    cleanups.push(async () => abort.abort());
    const listen = await modernRequest(
      running,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: MODERN_META },
      },
      abort.signal,
    );
    assert.equal(listen.status, 200);
    const reader = listen.body!.getReader();
    await reader.read(); // the acknowledgement
    assert.deepEqual(listed(log), [], 'no rows while no one looks');
    look(true);
    const discover = await modernRequest(running, {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: MODERN_META },
    });
    await discover.text();
    // A call on the direct path (served without the SDK) is told the same way.
    const echo = { name: 'echo', arguments: {}, _meta: MODERN_META };
    const called = await modernRequest(
      running,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: echo },
      undefined,
      {
        'mcp-name': 'echo',
      },
    );
    assert.equal(called.headers.get('content-length') !== null, true, 'served directly');
    await called.text();
    upstream.toolsChanged.fire();
    await reader.read();
    await waitFor(
      () => listed(log).includes('send notification notifications/tools/list_changed'),
      'the list change on the stream opened before the look',
    );
    for (const method of ['server/discover', 'tools/call']) {
      const request = row(log, 'receive', 'request', method);
      assert.equal(request.era, '2026-07-28');
      assert.equal(row(log, 'send', 'result', method).relatedSeq, request.seq, `${method}'s answer pairs`);
    }
    for (const event of rows(log)) assert.equal(event.agent, 'modern\\u202Eagent 7', 'labelled, escaped');
  });

  test("a server's request relayed to an agent is not one Replay sends again", () => {
    const log = new ProtocolLog();
    log.agentMessage({ key: 'session:a', label: 'a 1' }, 'send', {
      jsonrpc: '2.0',
      id: 'gateway-1',
      method: 'sampling/createMessage',
      params: { messages: [], maxTokens: 5 },
    });
    const [relayed] = rows(log);
    assert.deepEqual(log.replaySource(relayed.seq), { ok: false, refusal: { kind: 'not-sent-request' } });
  });

  test("two agents' equal ids pair each answer with its own agent's request", () => {
    const log = new ProtocolLog();
    const a = { key: 'session:a', label: 'a 1' };
    const b = { key: 'session:b', label: 'b 1' };
    log.agentMessage(a, 'receive', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    log.agentMessage(b, 'receive', { jsonrpc: '2.0', id: 1, method: 'ping' });
    log.agentMessage(b, 'send', { jsonrpc: '2.0', id: 1, result: {} });
    log.agentMessage(a, 'send', { jsonrpc: '2.0', id: 1, result: { tools: [] } });
    const [listed, pinged, pong, list] = rows(log);
    assert.equal(pong.relatedSeq, pinged.seq);
    assert.equal(pong.method, 'ping');
    assert.equal(list.relatedSeq, listed.seq);
    assert.equal(list.method, 'tools/list');
  });
});
