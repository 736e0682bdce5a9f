/**
 * The gateway's direct path (Gateway.serveDirect, the listener's use of it): a 2025 session's plain tools/call,
 * tools/list, resources/read… is answered with one application/json body without the SDK's transport, and
 * everything that needs a stream or the SDK's refusals still goes to the SDK. In process: a fake upstream, the
 * listener on 127.0.0.1, raw HTTP so each answer's framing is seen as an agent gets it.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, describe, test } from 'node:test';
import { Emitter } from '../../../../src/protocol/disposable';
import type { ServerSession } from '../../../../src/protocol/eras/era';
import type { JsonObject, LogMessage } from '../../../../src/protocol/types';
import { GatewayHostRelay } from '../../../../src/workbench/gateway/hostRelay';
import type { GatewayUpstream } from '../../../../src/workbench/gateway/upstream';
import { startGateway, type RunningGateway } from '../../../../src/workbench/node/gateway/listener';
import { waitFor } from '../../../support/testSupport';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** An upstream whose calls can be held; it keeps each call's signal. */
class HeldUpstream implements GatewayUpstream {
  readonly name = 'held';
  /** The relay the gateway is built with: a call named `ask` asks for a sampling through it, as a server would. */
  relay = new GatewayHostRelay({
    sampling: {
      createMessage: async () => ({ role: 'assistant', content: { type: 'text', text: 'host' }, model: 'host' }),
    },
  });
  readonly calls: { method: string; params: JsonObject | undefined; signal: AbortSignal }[] = [];
  hold = false;
  private readonly never = new Emitter<void>();
  private readonly neverUri = new Emitter<string>();
  private readonly neverLog = new Emitter<LogMessage>();

  session(): ServerSession {
    return {
      kind: 'handshake',
      protocolVersion: '2025-11-25',
      capabilities: { tools: {}, resources: {} },
      serverInfo: { name: 'held-server', version: '1.0.0' },
    };
  }
  async request(
    method: string,
    params: JsonObject | undefined,
    options: { signal: AbortSignal; onProgress?: (update: { progress: number }) => void },
  ): Promise<JsonObject> {
    this.calls.push({ method, params, signal: options.signal });
    if (params?.name === 'ask') {
      options.onProgress?.({ progress: 1 });
      const answer = await this.relay.host.sampling!.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text: 'hi?' } }], maxTokens: 5 },
        { signal: options.signal } as never,
      );
      return { content: [{ type: 'text', text: JSON.stringify(answer.content) }] };
    }
    if (this.hold)
      await new Promise<void>((_resolve, reject) => {
        const stop = () => reject(new Error('cancelled upstream'));
        if (options.signal.aborted) stop();
        else options.signal.addEventListener('abort', stop, { once: true });
      });
    if (method === 'tools/call') return { content: [{ type: 'text', text: String(params?.name) }] };
    if (method === 'resources/read') return { contents: [{ uri: String(params?.uri), text: 'x' }] };
    return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
  }
  ping = async () => undefined;
  subscribe = async () => undefined;
  unsubscribe = async () => undefined;
  setLogLevel = async () => undefined;
  onToolsChanged = this.never.event;
  onPromptsChanged = this.never.event;
  onResourcesChanged = this.never.event;
  onResourceUpdated = this.neverUri.event;
  onLogMessage = this.neverLog.event;
}

async function gateway(): Promise<{ upstream: HeldUpstream; running: RunningGateway }> {
  const upstream = new HeldUpstream();
  const running = await startGateway({ upstream, relay: upstream.relay, maxBodyBytes: 64 * 1024 });
  cleanups.push(() => running.close());
  return { upstream, running };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** One POST as an agent sends it; `headers` replace the usual ones. */
function post(
  running: RunningGateway,
  body: unknown,
  sessionId: string | undefined,
  headers: Record<string, string> = {},
  onRequest?: (request: http.ClientRequest) => void,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      running.url,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...running.headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    request.on('error', reject);
    onRequest?.(request);
    request.end(JSON.stringify(body));
  });
}

/** An agent's handshake with the given capabilities; its session id. */
async function open(running: RunningGateway, capabilities: JsonObject = {}): Promise<string> {
  const answer = await post(
    running,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw-agent', version: '1.0.0' } },
    },
    undefined,
  );
  const id = answer.headers['mcp-session-id'];
  assert.equal(typeof id, 'string', `initialize answered ${answer.status} ${answer.text}`);
  await post(running, { jsonrpc: '2.0', method: 'notifications/initialized' }, id as string);
  return id as string;
}

const call = (id: number, params: JsonObject = { name: 'echo', arguments: {} }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

describe('the gateway serves a 2025 session’s plain calls directly', () => {
  test('a tools/call is answered with one application/json body of known length, the server’s result as it is', async () => {
    const { running } = await gateway();
    const session = await open(running);
    const answer = await post(running, call(1), session);
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.text)));
    assert.equal(answer.headers['mcp-session-id'], session);
    assert.deepEqual(JSON.parse(answer.text), {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'echo' }] },
    });
    const read = await post(
      running,
      { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'file:///a' } },
      session,
    );
    assert.match(String(read.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(read.text).result, { contents: [{ uri: 'file:///a', text: 'x' }] });
  });

  test('what needs a stream or a refusal still goes to the SDK', async () => {
    const { running } = await gateway();
    const session = await open(running);
    const sse = (answer: Answer) => String(answer.headers['content-type']).startsWith('text/event-stream');
    // A 2025 task's answer is shaped by the SDK's handler.
    assert.ok(sse(await post(running, call(3, { name: 'echo', task: { ttl: 1000 } }), session)));
    // The SDK's refusals, worded as ever: an Accept without SSE, an unknown version, an unknown session, bad params.
    assert.equal((await post(running, call(4), session, { accept: 'application/json' })).status, 406);
    assert.equal((await post(running, call(5), session, { 'mcp-protocol-version': '1999-01-01' })).status, 400);
    assert.equal((await post(running, call(6), 'no-such-session')).status, 404);
    const invalid = await post(running, call(7, { name: 42 }), session);
    assert.ok(sse(invalid));
    assert.match(invalid.text, /"error"/);
  });

  test('a direct call’s progress and the server’s request to an agent that declared it open a stream on that call', async () => {
    const { running } = await gateway();
    const session = await open(running, { sampling: {} });
    let text = '';
    const answered = new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        running.url,
        {
          method: 'POST',
          agent: false,
          headers: {
            ...running.headers,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': session,
          },
        },
        (response) => {
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify(call(20, { name: 'ask', _meta: { progressToken: 'tok' } })));
    });
    const events = () =>
      text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as JsonObject);
    await waitFor(() => events().some((event) => event.method === 'sampling/createMessage'), 'the agent is asked');
    assert.deepEqual(events()[0], {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progress: 1, progressToken: 'tok' },
    });
    const asked = events()[1];
    const reply = await post(
      running,
      {
        jsonrpc: '2.0',
        id: asked.id,
        result: { role: 'assistant', content: { type: 'text', text: 'agent' }, model: 'm' },
      },
      session,
    );
    assert.equal(reply.status, 202);
    const answer = await answered;
    assert.match(String(answer.headers['content-type']), /^text\/event-stream/);
    const last = events().at(-1) as { id?: unknown; result?: { content?: { text?: string }[] } };
    assert.equal(last.id, 20);
    assert.equal(
      last.result?.content?.[0]?.text,
      JSON.stringify({ type: 'text', text: 'agent' }),
      'the agent answered, not the host',
    );
  });

  test('an agent’s notifications/cancelled, its going away and its session’s end cancel the upstream call', async () => {
    const { upstream, running } = await gateway();
    const session = await open(running);
    upstream.hold = true;

    const cancelled = post(running, call(10), session);
    await waitFor(() => upstream.calls.length === 1, 'the call runs upstream');
    const notified = await post(
      running,
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 10 } },
      session,
    );
    assert.equal(notified.status, 202);
    assert.equal(upstream.calls[0].signal.aborted, true, 'the cancel reached the upstream call');
    assert.match((await cancelled).text, /"error"/, 'the POST still ends');

    let request: http.ClientRequest | undefined;
    const gone = post(running, call(11), session, {}, (made) => (request = made)).catch(() => 'gone');
    await waitFor(() => upstream.calls.length === 2, 'the second call runs upstream');
    request?.destroy();
    await gone;
    await waitFor(() => upstream.calls[1].signal.aborted, 'the agent going away cancels its call');

    const ended = post(running, call(12), session).catch(() => 'ended');
    await waitFor(() => upstream.calls.length === 3, 'the third call runs upstream');
    assert.equal(await running.gateway.disconnect(session), true);
    assert.equal(upstream.calls[2].signal.aborted, true, 'the session’s end cancels its call');
    await ended;
  });
});

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'modern-agent', version: '2.4.0' },
};

/** A 2026-07-28 request as the SDK 2.x client sends it (the standard headers naming the body's method and name). */
function modern(
  running: RunningGateway,
  method: string,
  params: JsonObject,
  headers: Record<string, string> = {},
  onRequest?: (request: http.ClientRequest) => void,
): Promise<Answer> {
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  return post(
    running,
    { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { ...ENVELOPE, ...(params._meta as JsonObject) } } },
    undefined,
    {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...headers,
    },
    onRequest,
  );
}

describe('the gateway serves a 2026-07-28 agent’s plain calls directly', () => {
  test('tools/call, tools/list and resources/read are answered with one application/json body, as the SDK answers them', async () => {
    const { running, upstream } = await gateway();
    const requests: [string, JsonObject][] = [
      ['tools/call', { name: 'echo', arguments: { a: 1 }, _meta: { progressToken: 'p', 'x/trace': 't' } }],
      ['tools/list', { cursor: 'c1' }],
      ['resources/read', { uri: 'file:///a' }],
    ];
    for (const [method, params] of requests) {
      const direct = await modern(running, method, params);
      assert.equal(direct.status, 200, direct.text);
      assert.match(String(direct.headers['content-type']), /^application\/json/);
      assert.equal(direct.headers['content-length'], String(Buffer.byteLength(direct.text)), `${method}: direct`);
      assert.equal(direct.headers['mcp-session-id'], undefined, 'a 2026-07-28 agent has no session');
      // The same request through the SDK (a clientInfo with a websiteUrl: the direct path takes only a name, a version
      // and a title, and leaves the rest to the SDK's schemas): the same answer.
      const sdk = await modern(running, method, {
        ...params,
        _meta: {
          ...(params._meta as JsonObject | undefined),
          'io.modelcontextprotocol/clientInfo': {
            name: 'modern-agent',
            version: '2.4.0',
            websiteUrl: 'https://a.test',
          },
        },
      });
      assert.equal(sdk.headers['content-length'], undefined, `${method}: the SDK's answer`);
      assert.deepEqual(JSON.parse(direct.text), JSON.parse(sdk.text), `${method}: the answers agree`);
    }
    // What reached the server is the agent's request without the envelope, as the SDK's path sends it.
    const calls = upstream.calls.filter((each) => each.method === 'tools/call');
    assert.deepEqual(calls[0].params, calls[1].params);
    assert.deepEqual(calls[0].params, { name: 'echo', arguments: { a: 1 }, _meta: { 'x/trace': 't' } });
  });

  test('what the SDK must decide still goes to it: rounds, tasks, a log level, headers or envelope it refuses', async () => {
    const { running } = await gateway();
    const chunked = (answer: Answer) => answer.headers['content-length'] === undefined;
    const echo = { name: 'echo', arguments: {} };
    const capabilities = (declared: JsonObject) => ({
      ...echo,
      _meta: { 'io.modelcontextprotocol/clientCapabilities': declared },
    });
    // An agent that can answer the server's questions is served through input-required rounds (the SDK's context).
    assert.ok(chunked(await modern(running, 'tools/call', capabilities({ sampling: {} }))));
    assert.ok(
      chunked(
        await modern(running, 'tools/call', capabilities({ extensions: { 'io.modelcontextprotocol/tasks': {} } })),
      ),
    );
    const leveled = { ...echo, _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } };
    assert.ok(chunked(await modern(running, 'tools/call', leveled)));
    // The SDK's refusals, worded as ever.
    const mismatch = await modern(running, 'tools/call', echo, { 'mcp-name': 'other' });
    assert.equal(mismatch.status, 400);
    assert.match(mismatch.text, /-32020/);
    const noCapabilities = await modern(running, 'tools/call', {
      ...echo,
      _meta: { 'io.modelcontextprotocol/clientCapabilities': undefined as never },
    });
    assert.equal(noCapabilities.status, 400);
    assert.match(noCapabilities.text, /clientCapabilities/);
  });

  test('the agent going away cancels the upstream call', async () => {
    const { running, upstream } = await gateway();
    upstream.hold = true;
    let sent: http.ClientRequest | undefined;
    const answered = modern(running, 'tools/call', { name: 'echo', arguments: {} }, {}, (request) => (sent = request));
    await waitFor(() => upstream.calls.length === 1, 'the call reached the server');
    sent?.destroy();
    await assert.rejects(answered);
    await waitFor(() => upstream.calls[0].signal.aborted, 'the upstream call was cancelled');
  });
});
