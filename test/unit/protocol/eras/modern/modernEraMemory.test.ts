/**
 * The 2026-07-28 era's reading of results and errors, driven message by message over the in-memory link
 * (deterministic server behaviour that a real SDK server never produces): unknown resultType, bounded
 * input rounds, a declined elicitation, -32022 on a request, a modern server error that must not trigger
 * the legacy fallback, and the per-request headers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import { LocalError, McpError } from '../../../../../src/protocol/errors';
import type { ClientHost } from '../../../../../src/protocol/host';
import { createLinkedPair, type MemoryServerEndpoint } from '../../../../support/memoryTransport';
import { collectingLogger } from '../../../../support/testSupport';

type Json = Record<string, unknown>;

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'memory-modern', version: '1.0.0' } },
};

function modernClient(options: { host?: ClientHost; era?: 'auto' | '2026-07-28' } = {}) {
  const { client: transport, server } = createLinkedPair({ kind: 'streamable-http' });
  const logger = collectingLogger();
  const client = new McpClient({
    serverName: 'mem',
    transport,
    logger,
    era: options.era ?? '2026-07-28',
    host: options.host,
    requestTimeoutMs: 10_000,
  });
  return { client, server, logger };
}

async function connected(options: { host?: ClientHost } = {}) {
  const harness = modernClient(options);
  const connecting = harness.client.connect();
  const discover = await harness.server.nextRequest('server/discover');
  harness.server.respond(discover.id, DISCOVER);
  await connecting;
  return harness;
}

function paramsOf(message: { message: unknown }): Json {
  return (message.message as { params: Json }).params;
}

async function callTool(server: MemoryServerEndpoint) {
  return server.nextRequest('tools/call');
}

describe('2026-07-28 era over the memory link', () => {
  test('every request carries _meta and the headers that mirror it', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('x', {});
    const call = await callTool(server);
    const meta = paramsOf(call)._meta as Json;
    assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
    assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], {
      name: 'mcp-workbench',
      title: 'MCP Workbench',
      version: '0.1.0',
    });
    assert.ok('io.modelcontextprotocol/clientCapabilities' in meta);
    assert.deepEqual(call.headers, {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'x',
    });
    server.respond(call.id, { resultType: 'complete', content: [] });
    await calling;
    await client.close();
  });

  test("a log level set in the modern era travels in each request's _meta", async () => {
    const harness = modernClient();
    const connecting = harness.client.connect();
    const discover = await harness.server.nextRequest('server/discover');
    assert.ok(
      !('io.modelcontextprotocol/logLevel' in (paramsOf(discover)._meta as Json)),
      'no logLevel until one is chosen',
    );
    harness.server.respond(discover.id, { ...DISCOVER, capabilities: { tools: {}, logging: {} } });
    await connecting;
    await harness.client.setLoggingLevel('warning');
    const calling = harness.client.callTool('x', {});
    const call = await callTool(harness.server);
    assert.equal((paramsOf(call)._meta as Json)['io.modelcontextprotocol/logLevel'], 'warning');
    assert.ok(!harness.server.sent.some((sent) => (sent.message as Json).method === 'logging/setLevel'));
    harness.server.respond(call.id, { resultType: 'complete', content: [] });
    await calling;
    await harness.client.close();
  });

  test('HeaderMismatch (-32020) on tools/call: the client lists tools again and retries once with the new headers', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('q', { region: 'eu' });
    const first = await callTool(server);
    assert.equal(first.headers['Mcp-Param-Region'], undefined, 'no annotation known yet');
    server.respondError(first.id, -32020, 'Header mismatch: Mcp-Param-Region is missing');
    const list = await server.nextRequest('tools/list');
    server.respond(list.id, {
      resultType: 'complete',
      tools: [
        {
          name: 'q',
          inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
        },
      ],
    });
    const second = await callTool(server);
    assert.equal(second.headers['Mcp-Param-Region'], 'eu');
    server.respondError(second.id, -32020, 'Header mismatch again');
    await assert.rejects(
      calling,
      (error: unknown) => error instanceof McpError && error.code === -32020,
      'retried once, not in a loop',
    );
    await client.close();
  });

  test('change notifications count only when they carry the id of our subscription stream', async () => {
    const harness = modernClient();
    const connecting = harness.client.connect();
    const discover = await harness.server.nextRequest('server/discover');
    harness.server.respond(discover.id, { ...DISCOVER, capabilities: { tools: { listChanged: true } } });
    await connecting;
    try {
      let changes = 0;
      harness.client.onToolsChanged(() => changes++);
      const listen = await harness.server.nextRequest('subscriptions/listen');
      assert.deepEqual(paramsOf(listen).notifications, { toolsListChanged: true });
      harness.server.notify('notifications/subscriptions/acknowledged', {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id },
      });
      // The memory link hands each notification to the client as it is sent, and the client tells its listeners then:
      // the count is read after each one, no waiting.
      harness.server.notify('notifications/tools/list_changed', {
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'someone-else' },
      });
      assert.equal(changes, 0, "another subscription's notification is ignored");
      harness.server.notify('notifications/tools/list_changed', {});
      assert.equal(changes, 0, 'a notification without a subscription id is ignored');
      harness.server.notify('notifications/tools/list_changed', {
        _meta: { 'io.modelcontextprotocol/subscriptionId': listen.id },
      });
      assert.equal(changes, 1, "our subscription's notification counts");
    } finally {
      // Closed after a failed assertion too: a client left open keeps the test process from exiting.
      await harness.client.close();
    }
  });

  test('a URL-mode elicitation input request (no elicitationId in 2026-07-28) goes through the host', async () => {
    const seen: string[] = [];
    const { client, server } = await connected({
      host: {
        elicitation: {
          modes: ['url'],
          elicit: async (request) => (seen.push(String(request.url)), { action: 'accept' }),
        },
      },
    });
    const calling = client.callTool('x', {});
    const first = await callTool(server);
    server.respond(first.id, {
      resultType: 'input_required',
      inputRequests: {
        login: {
          method: 'elicitation/create',
          params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' },
        },
      },
      requestState: 's1',
    });
    const retry = await callTool(server);
    assert.deepEqual(paramsOf(retry).inputResponses, { login: { action: 'accept' } });
    assert.equal(paramsOf(retry).requestState, 's1');
    server.respond(retry.id, { resultType: 'complete', content: [] });
    await calling;
    assert.deepEqual(seen, ['https://example.com/login']);
    await client.close();
  });

  test('an unknown resultType fails that request with a typed local error; the connection stays usable', async () => {
    const { client, server } = await connected();
    const first = client.callTool('x', {});
    server.respond((await callTool(server)).id, { resultType: 'streaming', content: [] });
    await assert.rejects(
      first,
      (error: unknown) =>
        error instanceof LocalError && error.kind === 'invalid-result' && /mem: .*"streaming"/.test(error.message),
    );
    const second = client.callTool('x', {});
    server.respond((await callTool(server)).id, { content: [{ type: 'text', text: 'ok' }] });
    assert.equal(
      ((await second).result.content[0] as { text: string }).text,
      'ok',
      'a result without resultType is complete',
    );
    await client.close();
  });

  test('a declined elicitation goes back as the ElicitResult; a server that never completes is cut off', async () => {
    let asked = 0;
    const { client, server } = await connected({
      host: { elicitation: { modes: ['form'], elicit: async () => (asked++, { action: 'decline' }) } },
    });
    const calling = client.callTool('x', {});
    const elicit = {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'name?', requestedSchema: { type: 'object', properties: {} } },
    };
    let first = await callTool(server);
    server.respond(first.id, { resultType: 'input_required', inputRequests: { who: elicit } });
    const retry = await callTool(server);
    assert.notEqual(retry.id, first.id);
    assert.deepEqual(paramsOf(retry).inputResponses, { who: { action: 'decline' } });
    // From now on the server keeps asking: the client gives up with a clear error instead of looping.
    first = retry;
    const failed = assert.rejects(
      calling,
      (error: unknown) =>
        error instanceof LocalError && /mem: tools\/call did not complete after \d+ attempts/.test(error.message),
    );
    for (;;) {
      server.respond(first.id, { resultType: 'input_required', requestState: 'again' });
      const next = await Promise.race([callTool(server), failed.then(() => undefined)]);
      if (next === undefined) break;
      assert.equal(paramsOf(next).requestState, 'again');
      first = next;
    }
    await failed;
    assert.equal(asked, 1);
    await client.close();
  });

  test('-32022 on a request: the client retries once with a listed version, then names both lists', async () => {
    const { client, server } = await connected();
    const calling = client.callTool('x', {});
    const first = await callTool(server);
    server.respondError(first.id, -32022, 'Unsupported protocol version', {
      supported: ['2026-07-28'],
      requested: '2026-07-28',
    });
    const second = await callTool(server);
    assert.notEqual(second.id, first.id);
    server.respondError(second.id, -32022, 'Unsupported protocol version', {
      supported: ['2026-07-28'],
      requested: '2026-07-28',
    });
    await assert.rejects(
      calling,
      (error: unknown) =>
        error instanceof LocalError && error.kind === 'unsupported-version' && /lists 2026-07-28/.test(error.message),
    );
    await client.close();
  });

  test('auto: a modern error to server/discover (-32021) is not a reason to fall back to initialize', async () => {
    const { client, server } = modernClient({ era: 'auto' });
    const connecting = client.connect();
    const discover = await server.nextRequest('server/discover');
    server.respondError(discover.id, -32021, 'Missing required client capability', {
      requiredCapabilities: { sampling: {} },
    });
    await assert.rejects(connecting, (error: unknown) => error instanceof McpError && error.code === -32021);
    assert.ok(!server.sent.some((sent) => (sent.message as Json).method === 'initialize'));
  });

  test('auto: any other error to server/discover means a legacy server: initialize follows', async () => {
    const { client, server } = modernClient({ era: 'auto' });
    const connecting = client.connect();
    const discover = await server.nextRequest('server/discover');
    server.respondError(discover.id, -32600, 'Server not initialized');
    const init = await server.nextRequest('initialize');
    server.respond(init.id, {
      protocolVersion: '2025-11-25',
      capabilities: {},
      serverInfo: { name: 'legacy', version: '1' },
    });
    await server.nextNotification('notifications/initialized');
    assert.equal((await connecting).kind, 'handshake');
    await client.close();
  });
});
