/**
 * 2026-07-28 transport behaviour against real servers with scripted answers: a request whose HTTP
 * response stream breaks is issued again on a new id; a modern error in a 400 body is the request's answer;
 * the stdio probe treats silence as a legacy server without sending anything before initialize; removed
 * methods are never sent; authorization failures never trigger the legacy fallback.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import { LocalError } from '../../../../../src/protocol/errors';
import { handshakeFallbackReason } from '../../../../../src/protocol/eras/select';
import { HttpStatusError } from '../../../../../src/protocol/transports/httpShared';
import { StreamableHttpTransport } from '../../../../../src/protocol/transports/streamableHttp';
import { StdioTransport } from '../../../../../src/protocol/node/stdio';
import {
  sendJson,
  sseEvent,
  startSse,
  startTestServer,
  type RecordedRequest,
  type TestServer,
} from '../../../../fixtures/http/server';
import { collectingLogger, textOf } from '../../../../support/testSupport';

type Json = Record<string, unknown>;

const servers: TestServer[] = [];
const clients: McpClient[] = [];
after(async () => {
  for (const client of clients) await client.close();
  for (const server of servers) await server.close();
});

const DISCOVER_RESULT = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  serverInfo: { name: 'scripted', version: '1' },
};

function body(request: RecordedRequest): Json {
  return request.json as Json;
}

describe('2026-07-28 over scripted HTTP', () => {
  test('a response stream that breaks before its response: the request goes out again with a new id', async () => {
    let calls = 0;
    const server = await startTestServer((request, res) => {
      const message = body(request);
      if (message.method === 'server/discover')
        return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: DISCOVER_RESULT });
      if (message.method === 'tools/call') {
        calls++;
        if (calls === 1) {
          // A log event, then the connection drops: no response, and no way to resume in this era.
          startSse(res);
          res.write(
            sseEvent({
              data: JSON.stringify({
                jsonrpc: '2.0',
                method: 'notifications/message',
                params: { level: 'info', data: 'working' },
              }),
            }),
          );
          setTimeout(() => res.destroy(), 20);
          return;
        }
        return sendJson(res, 200, {
          jsonrpc: '2.0',
          id: message.id,
          result: { resultType: 'complete', content: [{ type: 'text', text: 'second time lucky' }] },
        });
      }
      res.writeHead(405).end();
    });
    servers.push(server);
    const client = new McpClient({
      serverName: 'scripted',
      transport: new StreamableHttpTransport({ url: server.url }),
      era: '2026-07-28',
      logger: collectingLogger(),
      requestTimeoutMs: 10_000,
    });
    clients.push(client);
    await client.connect();
    const { result } = await client.callTool('x', {});
    assert.equal(textOf(result.content), 'second time lucky');
    const posts = server.requests.filter((r) => r.method === 'POST' && body(r).method === 'tools/call');
    assert.equal(posts.length, 2);
    assert.notEqual(body(posts[0]).id, body(posts[1]).id);
    assert.ok(
      !server.requests.some((r) => r.method === 'GET' || r.method === 'DELETE'),
      'no GET stream, no resumption, no DELETE',
    );
    assert.ok(!server.requests.some((r) => r.headers['mcp-session-id'] !== undefined));
  });

  test('an SSE answer past maxMessageBytes fails its request naming the limit, and the request is not issued again', async () => {
    let calls = 0;
    const server = await startTestServer((request, res) => {
      const message = body(request);
      if (message.method === 'server/discover')
        return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: DISCOVER_RESULT });
      if (message.method === 'tools/call') {
        calls++;
        startSse(res);
        const result = { resultType: 'complete', content: [{ type: 'text', text: 'x'.repeat(256 * 1024) }] };
        res.end(sseEvent({ data: JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) }));
        return;
      }
      res.writeHead(405).end();
    });
    servers.push(server);
    const transport = new StreamableHttpTransport({ url: server.url, limits: { maxMessageBytes: 64 * 1024 } });
    const client = new McpClient({
      serverName: 'scripted',
      transport,
      era: '2026-07-28',
      logger: collectingLogger(),
      requestTimeoutMs: 10_000,
    });
    clients.push(client);
    await client.connect();
    await assert.rejects(client.callTool('x', {}), (error: unknown) => {
      assert.ok(error instanceof LocalError && error.kind === 'message-too-large', String(error));
      assert.match(
        error.message,
        /tools\/call.*an SSE event's data exceeds the limit of 65536 bytes \(setting maxMessageBytes\)/,
      );
      return true;
    });
    assert.equal(calls, 1, 'a response too large is not lost: it is not asked for again');
  });

  test('a session id some server still sends is never echoed, and close sends no DELETE', async () => {
    const server = await startTestServer((request, res) => {
      const message = body(request);
      if (request.method !== 'POST') return res.writeHead(405).end();
      if (message.method === 'server/discover')
        return sendJson(
          res,
          200,
          { jsonrpc: '2.0', id: message.id, result: DISCOVER_RESULT },
          { 'Mcp-Session-Id': 'stale-session' },
        );
      return sendJson(
        res,
        200,
        { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', tools: [] } },
        { 'Mcp-Session-Id': 'stale-session' },
      );
    });
    servers.push(server);
    const client = new McpClient({
      serverName: 'scripted',
      transport: new StreamableHttpTransport({ url: server.url }),
      era: '2026-07-28',
      requestTimeoutMs: 10_000,
    });
    await client.connect();
    await client.listTools();
    await client.close();
    assert.ok(!server.requests.some((r) => r.headers['mcp-session-id'] !== undefined));
    assert.ok(!server.requests.some((r) => r.method === 'DELETE'));
  });

  test('-32022 in a 400 body (id null) is read as the answer: the client retries with a listed version', async () => {
    let rejected = false;
    const server = await startTestServer((request, res) => {
      const message = body(request);
      if (!rejected) {
        rejected = true;
        // Rejected before the server read the id, as the schema allows: the answer is still this POST's.
        return sendJson(res, 400, {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32022,
            message: 'Unsupported protocol version',
            data: { supported: ['2026-07-28'], requested: '2026-07-28' },
          },
        });
      }
      return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, result: DISCOVER_RESULT });
    });
    servers.push(server);
    const client = new McpClient({
      serverName: 'scripted',
      transport: new StreamableHttpTransport({ url: server.url }),
      era: 'auto',
      requestTimeoutMs: 10_000,
    });
    clients.push(client);
    const session = await client.connect();
    assert.equal(session.kind, 'modern', 'a modern error is not a reason to fall back');
    const discovers = server.requests.filter((r) => body(r).method === 'server/discover');
    assert.equal(discovers.length, 2);
    assert.notEqual(body(discovers[0]).id, body(discovers[1]).id);
    assert.ok(!server.requests.some((r) => body(r).method === 'initialize'));
  });

  test('auto never falls back on 401: the authorization failure stands', async () => {
    const server = await startTestServer((_request, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="mcp"' }).end();
    });
    servers.push(server);
    const client = new McpClient({
      serverName: 'scripted',
      transport: new StreamableHttpTransport({ url: server.url }),
      era: 'auto',
      requestTimeoutMs: 10_000,
    });
    await assert.rejects(
      client.connect(),
      (error: unknown) => error instanceof HttpStatusError && error.status === 401,
    );
    assert.ok(!server.requests.some((r) => body(r)?.method === 'initialize'));
  });

  test('removed methods are never sent in the modern era', async () => {
    const server = await startTestServer((request, res) =>
      sendJson(res, 200, {
        jsonrpc: '2.0',
        id: body(request).id,
        result: { ...DISCOVER_RESULT, capabilities: { logging: {}, tools: {} } },
      }),
    );
    servers.push(server);
    const client = new McpClient({
      serverName: 'scripted',
      transport: new StreamableHttpTransport({ url: server.url }),
      era: '2026-07-28',
      requestTimeoutMs: 10_000,
    });
    clients.push(client);
    await client.connect();
    await client.ping(); // 2026-07-28 has no ping: a server/discover checks the server answers
    await client.setLoggingLevel('debug'); // becomes _meta logLevel on later requests, no logging/setLevel
    await client.notifyRootsChanged(); // no notifications/roots/list_changed in this era
    assert.deepEqual(
      server.requests.map((r) => body(r).method),
      ['server/discover', 'server/discover'],
    );
  });
});

describe('legacy fallback decision', () => {
  const status = (code: number) =>
    new HttpStatusError('transport', { status: code, statusText: '', url: 'http://x/mcp', body: '' });
  test('400/404/405 without a modern error mean legacy; 401, 403, 5xx and network failures never do', () => {
    assert.ok(handshakeFallbackReason(status(400), 'streamable-http'));
    assert.ok(handshakeFallbackReason(status(404), 'streamable-http'));
    assert.ok(handshakeFallbackReason(status(405), 'streamable-http'));
    assert.equal(handshakeFallbackReason(status(401), 'streamable-http'), undefined);
    assert.equal(handshakeFallbackReason(status(403), 'streamable-http'), undefined);
    assert.equal(handshakeFallbackReason(status(502), 'streamable-http'), undefined);
    assert.equal(
      handshakeFallbackReason(new LocalError('transport', 'TLS: certificate has expired'), 'streamable-http'),
      undefined,
    );
    assert.ok(handshakeFallbackReason(new LocalError('timeout', 'server/discover timed out'), 'stdio'));
    assert.equal(
      handshakeFallbackReason(new LocalError('timeout', 'server/discover timed out'), 'streamable-http'),
      undefined,
    );
  });
});

describe('stdio probe', () => {
  test('a legacy server that ignores server/discover is detected by the probe timeout, and hears nothing before initialize', async () => {
    // A real process that answers only initialize and tools/list, and records every line it receives.
    const script = String.raw`
      const lines = [];
      require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const message = JSON.parse(line);
        lines.push(message.method);
        const send = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\n');
        if (message.method === 'initialize') send({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'silent-legacy', version: '1' } });
        if (message.method === 'tools/list') send({ tools: [{ name: 'seen', description: JSON.stringify(lines), inputSchema: { type: 'object' } }] });
      });`;
    const logger = collectingLogger();
    const client = new McpClient({
      serverName: 'silent-legacy',
      transport: new StdioTransport({ command: process.execPath, args: ['-e', script], shutdownGraceMs: 500 }),
      era: 'auto',
      eraProbeTimeoutMs: 300,
      logger,
      requestTimeoutMs: 10_000,
    });
    clients.push(client);
    const session = await client.connect();
    assert.equal(session.kind, 'handshake');
    const [tool] = await client.listTools();
    assert.deepEqual(JSON.parse(String(tool.description)), [
      'server/discover',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
    assert.ok(logger.lines.some((line) => /not answered in time/.test(line.message)));
  });
});
