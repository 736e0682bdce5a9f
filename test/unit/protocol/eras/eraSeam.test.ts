/**
 * The protocol era seam. Deterministic tests drive McpClient over the in-memory linked transport, message by
 * message: the handshake era's request shaping and headers, single-flight session renewal, and an era that
 * asks for input (the 2026-07-28 pattern) without any caller knowing. One test provokes two concurrent 404s
 * against a real HTTP server.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { LocalError, isLocalError } from '../../../../src/protocol/errors';
import type {
  AttemptContext,
  AttemptOutcome,
  AttemptVerdict,
  InputRequest,
  ProtocolEra,
} from '../../../../src/protocol/eras/era';
import { HandshakeEra } from '../../../../src/protocol/eras/handshake';
import type { JsonParams } from '../../../../src/protocol/methods';
import { createLinkedPair, type MemoryServerEndpoint } from '../../../support/memoryTransport';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import type { ClientHost } from '../../../../src/protocol/host';
import {
  answerGetAndDelete,
  sendJson,
  startTestServer,
  type RecordedRequest,
  type TestServer,
} from '../../../fixtures/http/server';
import { collectingLogger, textOf } from '../../../support/testSupport';

const TIMEOUT = { timeout: 20_000 };
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVER_INFO = { name: 'memory-server', version: '1.0.0' };
const CAPABILITIES = { tools: {} };

function initializeResult(protocolVersion = '2025-11-25') {
  return { protocolVersion, capabilities: CAPABILITIES, serverInfo: SERVER_INFO };
}

function textResult(text: string) {
  return { content: [{ type: 'text', text }] };
}

function memoryClient(options: { era?: ProtocolEra; host?: ClientHost } = {}) {
  const { client: transport, server } = createLinkedPair({ kind: 'streamable-http' });
  const logger = collectingLogger();
  const client = new McpClient({
    serverName: 'mem',
    transport,
    logger,
    era: options.era,
    host: options.host,
    requestTimeoutMs: 10_000,
  });
  cleanups.push(() => client.close());
  return { client, server, logger };
}

/** Plays the server's side of the handshake on the memory link. */
async function answerHandshake(server: MemoryServerEndpoint, protocolVersion = '2025-11-25') {
  const init = await server.nextRequest('initialize');
  server.respond(init.id, initializeResult(protocolVersion));
  const initialized = await server.nextNotification('notifications/initialized');
  return { init, initialized };
}

async function connected(options: { era?: ProtocolEra; host?: ClientHost } = {}) {
  const harness = memoryClient(options);
  const connecting = harness.client.connect();
  await answerHandshake(harness.server);
  await connecting;
  return harness;
}

function sessionExpired(): LocalError {
  return new LocalError(
    'session-expired',
    'session expired (HTTP 404 Not Found from memory); the client must initialize again',
  );
}

describe('handshake era over the memory link', () => {
  it(
    'offers the newest version, then sends MCP-Protocol-Version on everything after initialize and opens the server channel',
    TIMEOUT,
    async () => {
      const { client, server } = memoryClient();
      const connecting = client.connect();
      const init = await server.nextRequest('initialize');
      assert.deepEqual(init.message.params, {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'mcp-workbench', title: 'MCP Workbench', version: '0.1.0' },
      });
      assert.deepEqual(init.headers, {}, 'no version header before negotiation');
      assert.equal(server.serverChannelOpens, 0);
      server.respond(init.id, initializeResult('2025-06-18'));
      const initialized = await server.nextNotification('notifications/initialized');
      assert.deepEqual(initialized.headers, { 'MCP-Protocol-Version': '2025-06-18' });
      assert.equal(server.serverChannelOpens, 1, 'the server channel opens once the session exists');
      const session = await connecting;
      assert.deepEqual(session, {
        kind: 'handshake',
        protocolVersion: '2025-06-18',
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: undefined,
      });
      assert.deepEqual(server.headersFor({ kind: 'stream' }), { 'MCP-Protocol-Version': '2025-06-18' });
      assert.deepEqual(server.headersFor({ kind: 'end-session' }), { 'MCP-Protocol-Version': '2025-06-18' });

      const calling = client.callTool('echo', { text: 'hi' });
      const call = await server.nextRequest('tools/call');
      assert.deepEqual(
        call.message.params,
        { name: 'echo', arguments: { text: 'hi' } },
        'the handshake era adds nothing to params',
      );
      assert.deepEqual(call.headers, { 'MCP-Protocol-Version': '2025-06-18' });
      server.respond(call.id, textResult('hi'));
      assert.equal(textOf((await calling).result.content), 'hi');
    },
  );

  it(
    'callTool is not an async function but fails like one: a rejection before connect and without tools, never a throw',
    TIMEOUT,
    async () => {
      const { client, server } = memoryClient();
      let early: Promise<unknown> | undefined;
      assert.doesNotThrow(() => (early = client.callTool('echo', { text: 'too early' })));
      await assert.rejects(early as Promise<unknown>, (error: unknown) => isLocalError(error));

      const connecting = client.connect();
      const init = await server.nextRequest('initialize');
      server.respond(init.id, { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: SERVER_INFO });
      await server.nextNotification('notifications/initialized');
      await connecting;
      let noTools: Promise<unknown> | undefined;
      assert.doesNotThrow(() => (noTools = client.callTool('echo', { text: 'no tools' })));
      await assert.rejects(noTools as Promise<unknown>, (error: unknown) => isLocalError(error, 'capability-missing'));
    },
  );

  it('refuses a version it did not offer and closes, naming the server', TIMEOUT, async () => {
    const { client, server } = memoryClient();
    const connecting = client.connect();
    const init = await server.nextRequest('initialize');
    server.respond(init.id, initializeResult('2099-01-01'));
    await assert.rejects(
      connecting,
      (error: unknown) =>
        isLocalError(error, 'unsupported-version') &&
        error.message.startsWith('mem answered with protocol version "2099-01-01"'),
    );
    assert.equal(client.state.kind, 'closed');
    assert.ok(server.isClosed);
    assert.equal(server.sent.filter((sent) => sent.message.method === 'notifications/initialized').length, 0);
  });

  it(
    'renews an expired session once for two concurrent requests, without a version header on the new initialize',
    TIMEOUT,
    async () => {
      const { client, server, logger } = await connected();
      const firstSession = client.session;
      const isCall = (name: string) => (sent: { message: Record<string, unknown> }) =>
        sent.message.method === 'tools/call' && (sent.message.params as { name?: unknown }).name === name;
      server.failSend(isCall('a'), sessionExpired());
      server.failSend(isCall('b'), sessionExpired());

      const a = client.callTool('a');
      const b = client.callTool('b');
      const renewal = await server.nextRequest('initialize');
      assert.deepEqual(renewal.headers, {}, 'the renewal handshake does not claim the old version');
      server.respond(renewal.id, initializeResult());
      await server.nextNotification('notifications/initialized');
      const retriedA = await server.next(isCall('a'));
      const retriedB = await server.next(isCall('b'));
      server.respond(retriedA.message.id as number, textResult('answer a'));
      server.respond(retriedB.message.id as number, textResult('answer b'));

      assert.equal(textOf((await a).result.content), 'answer a');
      assert.equal(textOf((await b).result.content), 'answer b');
      assert.equal(
        server.sent.filter((sent) => sent.message.method === 'initialize').length,
        2,
        'the original handshake and exactly one renewal',
      );
      assert.equal(server.serverChannelOpens, 2, 'the renewed session reopens the server channel');
      assert.notEqual(client.session, firstSession, 'the client adopted the renewed session');
      assert.equal(client.state.kind, 'ready');
      assert.equal(
        logger.lines.filter((line) => line.message === 'mem: session expired; starting a new session').length,
        1,
      );
    },
  );

  it('a request that starts during a renewal waits for the new session', TIMEOUT, async () => {
    const { client, server } = await connected();
    server.failSend((sent) => sent.message.method === 'tools/call', sessionExpired());
    const calling = client.callTool('a');
    const renewal = await server.nextRequest('initialize');
    const pinging = client.ping();
    server.respond(renewal.id, initializeResult());
    const initialized = await server.nextNotification('notifications/initialized');
    const ping = await server.nextRequest('ping');
    const order = (sent: { message: object }) =>
      server.sent.findIndex((candidate) => candidate.message === sent.message);
    assert.ok(order(ping) > order(initialized), 'the ping went out only after the new session was complete');
    assert.equal(
      order(initialized),
      order(renewal) + 1,
      'nothing was sent between the renewal initialize and initialized',
    );
    server.respond(ping.id, {});
    await pinging;
    const call = await server.nextRequest('tools/call');
    server.respond(call.id, textResult('a'));
    assert.equal(textOf((await calling).result.content), 'a');
  });

  it('does not renew in a loop: a request that fails again after the renewal reports the expiry', TIMEOUT, async () => {
    const { client, server } = await connected();
    const isCall = (sent: { message: Record<string, unknown> }) => sent.message.method === 'tools/call';
    server.failSend(isCall, sessionExpired());
    server.failSend(isCall, sessionExpired());
    const calling = client.callTool('a');
    const renewal = await server.nextRequest('initialize');
    server.respond(renewal.id, initializeResult());
    await server.nextNotification('notifications/initialized');
    await assert.rejects(calling, (error: unknown) => isLocalError(error, 'session-expired'));
    assert.equal(server.sent.filter((sent) => sent.message.method === 'initialize').length, 2);
    assert.equal(
      server.sent.filter((sent) => sent.message.method === 'tools/call').length,
      2,
      'one attempt and one retry',
    );
    // The connection is still usable afterwards.
    const pinging = client.ping();
    const ping = await server.nextRequest('ping');
    server.respond(ping.id, {});
    await pinging;
  });
});

/**
 * An era shaped like 2026-07-28 on top of the handshake: it adds `_meta` to every request and reads
 * `resultType: "input_required"` results. McpClient's callers (callTool here) know nothing of it.
 */
class InputRequiringEra extends HandshakeEra {
  override shapeParams(params: JsonParams | undefined, context: AttemptContext): JsonParams | undefined {
    const meta = typeof params?._meta === 'object' && params._meta !== null ? params._meta : {};
    return { ...params, _meta: { ...meta, 'com.example/attempt': context.attempt } };
  }

  override interpret(outcome: AttemptOutcome, context: AttemptContext): AttemptVerdict {
    if (outcome.kind === 'result' && outcome.result.resultType === 'input_required') {
      const { inputRequests, requestState } = outcome.result as {
        inputRequests: Record<string, InputRequest>;
        requestState?: unknown;
      };
      return {
        kind: 'input-required',
        inputRequests,
        continueWith: (params, responses) => ({
          ...params,
          inputResponses: responses,
          ...(requestState === undefined ? {} : { requestState }),
        }),
      };
    }
    return super.interpret(outcome, context);
  }
}

describe('an era that asks the host for input', () => {
  it('shapes every attempt, answers input requests through the host and retries on a new id', TIMEOUT, async () => {
    const asked: unknown[] = [];
    const host: ClientHost = {
      elicitation: {
        modes: ['form'],
        elicit: async (request) => {
          asked.push(request);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    };
    const { client, server } = await connected({ era: new InputRequiringEra(), host });
    const calling = client.callTool('greet', { formal: true });
    const first = await server.nextRequest('tools/call');
    assert.deepEqual(first.message.params, {
      name: 'greet',
      arguments: { formal: true },
      _meta: { 'com.example/attempt': 1 },
    });
    const elicit = {
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    };
    server.respond(first.id, {
      resultType: 'input_required',
      inputRequests: { who: { method: 'elicitation/create', params: elicit } },
      requestState: 'opaque-1',
    });
    const second = await server.nextRequest('tools/call');
    assert.notEqual(second.id, first.id, 'the retry uses a new JSON-RPC id');
    assert.deepEqual(second.message.params, {
      name: 'greet',
      arguments: { formal: true },
      _meta: { 'com.example/attempt': 2 },
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
      requestState: 'opaque-1',
    });
    server.respond(second.id, textResult('Good day, Ada'));
    assert.equal(textOf((await calling).result.content), 'Good day, Ada');
    assert.deepEqual(asked, [{ ...elicit, mode: 'form' }]);
  });

  it('fails clearly when the server asks for input this client does not offer', TIMEOUT, async () => {
    const { client, server } = await connected({ era: new InputRequiringEra() });
    const calling = client.callTool('greet');
    const first = await server.nextRequest('tools/call');
    server.respond(first.id, {
      resultType: 'input_required',
      inputRequests: { who: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
    });
    await assert.rejects(
      calling,
      (error: unknown) =>
        isLocalError(error, 'capability-missing') &&
        error.message === 'mem asked for sampling/createMessage, which this client does not offer',
    );
  });

  it('gives up on a server that asks for input forever', TIMEOUT, async () => {
    const { client, server } = await connected({
      era: new InputRequiringEra(),
      host: { roots: { listRoots: () => [] } },
    });
    const calling = client.callTool('endless');
    const outcome = assert.rejects(
      calling,
      (error: unknown) =>
        isLocalError(error, 'protocol-violation') && error.message.includes('did not complete after 16 attempts'),
    );
    for (let round = 0; round < 16; round++) {
      const request = await server.nextRequest('tools/call');
      server.respond(request.id, {
        resultType: 'input_required',
        inputRequests: { r: { method: 'roots/list', params: {} } },
      });
    }
    await outcome;
    assert.equal(server.sent.filter((sent) => sent.message.method === 'tools/call').length, 16);
  });
});

describe('session renewal over real HTTP', () => {
  it('two concurrent 404s share one re-handshake and both requests are answered', TIMEOUT, async () => {
    let sessions = 0;
    const heldCalls: Array<{ request: RecordedRequest; res: Parameters<Parameters<typeof startTestServer>[0]>[1] }> =
      [];
    const srv: TestServer = await startTestServer((request, res) => {
      const message = request.json as { id?: number; method?: string; params?: { name?: string } } | undefined;
      const session = request.headers['mcp-session-id'];
      if (answerGetAndDelete(request, res)) return;
      if (message?.method === 'initialize') {
        sessions++;
        return sendJson(
          res,
          200,
          { jsonrpc: '2.0', id: message.id, result: initializeResult() },
          { 'Mcp-Session-Id': `sess-${sessions}` },
        );
      }
      if (message?.id === undefined) {
        res.writeHead(202);
        return res.end();
      }
      if (message.method === 'tools/call' && session === 'sess-1') {
        // Hold both calls, then forget the session for both at once.
        heldCalls.push({ request, res });
        if (heldCalls.length === 2) {
          for (const held of heldCalls) {
            held.res.writeHead(404, { 'Content-Type': 'text/plain' });
            held.res.end('Session not found');
          }
        }
        return;
      }
      if (message.method === 'tools/call') {
        return sendJson(res, 200, {
          jsonrpc: '2.0',
          id: message.id,
          result: textResult(`${message.params?.name} on ${session}`),
        });
      }
      return sendJson(res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        error: { code: -32601, message: 'Method not found' },
      });
    });
    cleanups.push(() => srv.close());
    const client = new McpClient({
      serverName: 'http-renewal',
      transport: new StreamableHttpTransport({ url: srv.url }),
      requestTimeoutMs: 10_000,
    });
    cleanups.push(() => client.close());
    await client.connect();

    const [a, b] = await Promise.all([client.callTool('a'), client.callTool('b')]);
    assert.equal(textOf(a.result.content), 'a on sess-2');
    assert.equal(textOf(b.result.content), 'b on sess-2');
    const initializes = srv.requests.filter(
      (r) => (r.json as { method?: string } | undefined)?.method === 'initialize',
    );
    assert.equal(initializes.length, 2, 'the first handshake and one renewal');
    assert.equal(initializes[1].headers['mcp-session-id'], undefined, 'the renewal starts without the expired session');
    assert.equal(initializes[1].headers['mcp-protocol-version'], undefined);
    assert.equal(heldCalls.length, 2, 'both calls met the expired session');
    const calls = srv.requests.filter((r) => (r.json as { method?: string } | undefined)?.method === 'tools/call');
    assert.deepEqual(
      calls.map((r) => r.headers['mcp-session-id']),
      ['sess-1', 'sess-1', 'sess-2', 'sess-2'],
    );
    assert.equal(client.state.kind, 'ready');
  });
});
