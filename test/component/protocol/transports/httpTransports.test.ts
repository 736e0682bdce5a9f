import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, afterEach, describe, it } from 'node:test';
import { LocalError, isLocalError } from '../../../../src/protocol/errors';
import type { Transport } from '../../../../src/protocol/transports/transport';
import { AutoHttpTransport, createHttpTransport } from '../../../../src/protocol/transports/http';
import { HttpSseTransport } from '../../../../src/protocol/transports/httpSse';
import { HttpStatusError } from '../../../../src/protocol/transports/httpShared';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import {
  RecordingSink,
  sendJson,
  sseEvent,
  startSse,
  startTestServer,
  type RecordedRequest,
  type TestServer,
} from '../../../fixtures/http/server';

const TIMEOUT = { timeout: 20_000 };

/** Servers and transports created by a test, released after it whatever happened. */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: Parameters<typeof startTestServer>[0], urlPath?: string): Promise<TestServer> {
  const started = await startTestServer(handler, urlPath);
  cleanups.push(() => started.close());
  return started;
}

async function open<T extends Transport>(
  transport: T,
): Promise<{ transport: T; sink: RecordingSink; diagnostics: string[] }> {
  const sink = new RecordingSink();
  const diagnostics: string[] = [];
  transport.onDiagnostic((line) => diagnostics.push(line));
  await transport.start(sink);
  cleanups.push(() => transport.close());
  return { transport, sink, diagnostics };
}

/** What the handshake era does once a version is negotiated: send it on every request, open the server channel. */
function negotiated(transport: Transport, version: string): void {
  transport.setProtocolHeaders?.(() => ({ 'MCP-Protocol-Version': version }));
  transport.openServerChannel?.();
}

function request(id: number, method: string, params: object = {}): object {
  return { jsonrpc: '2.0', id, method, params };
}

function isPost(method: string) {
  return (r: RecordedRequest) => r.method === 'POST' && (r.json as { method?: string } | undefined)?.method === method;
}

const initialize = request(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 't', version: '1' },
});
const initializeResult = {
  jsonrpc: '2.0',
  id: 1,
  result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
};

describe('StreamableHttpTransport', () => {
  it(
    'POSTs JSON, delivers a JSON response, echoes the session id and protocol version, DELETEs on close',
    TIMEOUT,
    async () => {
      const srv = await server((req, res) => {
        if (req.method === 'POST' && isPost('initialize')(req))
          return sendJson(res, 200, initializeResult, { 'Mcp-Session-Id': 'sess-1' });
        if (req.method === 'POST') {
          res.writeHead(202);
          return res.end();
        }
        if (req.method === 'GET') {
          res.writeHead(405);
          return res.end();
        }
        if (req.method === 'DELETE') {
          res.writeHead(200);
          return res.end();
        }
      });
      const { transport, sink, diagnostics } = await open(
        new StreamableHttpTransport({
          url: srv.url,
          headers: { Authorization: 'Bearer s3cret-token', 'X-Custom': 'yes' },
        }),
      );
      await transport.send(initialize);
      assert.deepEqual(sink.messages, [initializeResult]);
      const first = srv.requests[0];
      assert.equal(first.headers['content-type'], 'application/json');
      assert.equal(first.headers.accept, 'application/json, text/event-stream');
      assert.equal(first.headers['x-custom'], 'yes');
      assert.equal(first.headers.authorization, 'Bearer s3cret-token');
      assert.equal(first.headers['mcp-session-id'], undefined);
      assert.equal(first.headers['mcp-protocol-version'], undefined);
      assert.equal(transport.currentSessionId, 'sess-1');

      negotiated(transport, '2025-11-25');
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const initialized = await srv.waitForRequest(isPost('notifications/initialized'));
      assert.equal(initialized.headers['mcp-session-id'], 'sess-1');
      assert.equal(initialized.headers['mcp-protocol-version'], '2025-11-25');

      // The optional GET stream is tried once the version is known; 405 just means "none".
      const get = await srv.waitForRequest((r) => r.method === 'GET');
      assert.equal(get.headers.accept, 'text/event-stream');
      assert.equal(get.headers['mcp-session-id'], 'sess-1');
      await waitForLine(diagnostics, (line) => line.startsWith('no GET stream'));
      assert.deepEqual(sink.warnings, []);

      await transport.close();
      await transport.close(); // idempotent
      const del = await srv.waitForRequest((r) => r.method === 'DELETE');
      assert.equal(del.headers['mcp-session-id'], 'sess-1');
      assert.equal(sink.closes.length, 1);
      assert.equal(sink.closes[0], undefined);
      assert.ok(diagnostics.includes('POST notifications/initialized → 202'), diagnostics.join('\n'));
      assert.ok(!diagnostics.some((line) => line.includes('s3cret')), 'diagnostics must not contain secrets');
      await assert.rejects(transport.send(initialize), (error: unknown) => isLocalError(error, 'connection-closed'));
    },
  );

  it('resolves send on the SSE headers, then delivers the events of the stream', TIMEOUT, async () => {
    let held: import('node:http').ServerResponse | undefined;
    const srv = await server((req, res) => {
      startSse(res);
      held = res;
    });
    const { transport, sink, diagnostics } = await open(new StreamableHttpTransport({ url: srv.url }));
    await transport.send(request(5, 'tools/call'));
    assert.deepEqual(sink.messages, [], 'nothing was written yet, send must not wait for the body');
    assert.ok(held);
    held.write(sseEvent({ id: 'p', data: '' })); // priming event: dispatches nothing
    held.write(
      sseEvent({
        event: 'message',
        data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }),
      }),
    );
    held.write(sseEvent({ data: JSON.stringify({ jsonrpc: '2.0', id: 5, result: { content: [] } }) }));
    held.end();
    await sink.waitUntil(() => sink.messages.length === 2, 'two messages');
    assert.deepEqual(sink.messages, [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 5, result: { content: [] } },
    ]);
    // The response arrived, so the end of the stream must not trigger a resumption GET.
    await streamEndHandled(diagnostics, 1);
    assert.deepEqual(reconnects(diagnostics), [], diagnostics.join('\n'));
    assert.equal(srv.requests.filter((r) => r.method === 'GET').length, 0);
  });

  it('resumes a POST stream that ended early with GET + Last-Event-ID after the retry delay', TIMEOUT, async () => {
    let streamEndedAt = 0;
    const srv = await server((req, res) => {
      if (req.method === 'POST') {
        startSse(res);
        res.write(sseEvent({ id: 'e1', retry: 300, data: '' }));
        streamEndedAt = performance.now();
        res.end();
        return;
      }
      if (req.method === 'GET') {
        startSse(res);
        res.write(sseEvent({ id: 'e2', data: JSON.stringify({ jsonrpc: '2.0', id: 9, result: { ok: true } }) }));
        res.end();
        return;
      }
      res.writeHead(405);
      res.end();
    });
    // A short default delay: waiting >= 300 ms proves the server's retry was used instead.
    const { transport, sink, diagnostics } = await open(
      new StreamableHttpTransport({ url: srv.url, reconnectDelayMs: 10 }),
    );
    await transport.send(request(9, 'tools/call'));
    const response = await sink.waitForMessage((m) => m.id === 9, 'the resumed response');
    assert.deepEqual(response, { jsonrpc: '2.0', id: 9, result: { ok: true } });
    const get = await srv.waitForRequest((r) => r.method === 'GET');
    assert.equal(get.headers['last-event-id'], 'e1');
    assert.equal(get.headers.accept, 'text/event-stream');
    // Timers may fire up to a millisecond early relative to performance.now(); allow for that only.
    assert.ok(
      get.receivedAt - streamEndedAt >= 299,
      `reconnected after ${get.receivedAt - streamEndedAt} ms, retry was 300`,
    );
    assert.ok(diagnostics.includes('SSE reconnect in 300 ms (Last-Event-ID e1)'), diagnostics.join('\n'));
    // Answered: the end of the resumed stream (the stream's second end) must not schedule a further reconnection.
    await streamEndHandled(diagnostics, 2);
    assert.deepEqual(reconnects(diagnostics), ['SSE reconnect in 300 ms (Last-Event-ID e1)'], diagnostics.join('\n'));
    assert.equal(srv.requests.filter((r) => r.method === 'GET').length, 1);
  });

  it(
    'opens the standalone GET stream once the version is negotiated, delivers server messages and reconnects it',
    TIMEOUT,
    async () => {
      let gets = 0;
      const srv = await server((req, res) => {
        if (req.method === 'POST') return sendJson(res, 200, initializeResult, { 'Mcp-Session-Id': 'sess-g' });
        if (req.method === 'GET') {
          gets++;
          startSse(res);
          if (gets === 1) {
            res.write(
              sseEvent({
                id: 'g1',
                retry: 50,
                data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
              }),
            );
            res.end(); // dropped: the client must come back with Last-Event-ID g1
          } else {
            res.write(sseEvent({ id: 'g2', data: JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' }) }));
            // held open until the client closes
          }
          return;
        }
        res.writeHead(200);
        res.end();
      });
      const { transport, sink, diagnostics } = await open(new StreamableHttpTransport({ url: srv.url }));
      await transport.send(initialize);
      assert.equal(srv.requests.filter((r) => r.method === 'GET').length, 0, 'no GET stream before initialization');
      negotiated(transport, '2025-11-25');
      await sink.waitForMessage(
        (m) => m.method === 'notifications/tools/list_changed',
        'the notification on the GET stream',
      );
      await sink.waitForMessage((m) => m.method === 'ping', 'the request on the reconnected GET stream');
      const [firstGet, secondGet] = srv.requests.filter((r) => r.method === 'GET');
      assert.equal(firstGet.headers['last-event-id'], undefined);
      assert.equal(firstGet.headers['mcp-protocol-version'], '2025-11-25');
      assert.equal(secondGet.headers['last-event-id'], 'g1');
      assert.equal(secondGet.headers['mcp-session-id'], 'sess-g');
      assert.ok(diagnostics.includes('GET stream opened'));
      await transport.close(); // aborts the open GET stream
      const del = await srv.waitForRequest((r) => r.method === 'DELETE');
      assert.equal(del.headers['mcp-session-id'], 'sess-g');
      assert.deepEqual(sink.closes, [undefined]);
      assert.deepEqual(sink.warnings, []);
    },
  );

  it(
    'rejects with session-expired on a 404 to a request that carried a session id, and forgets the session',
    TIMEOUT,
    async () => {
      let posts = 0;
      const srv = await server((req, res) => {
        posts++;
        if (posts === 1) return sendJson(res, 200, initializeResult, { 'Mcp-Session-Id': 'old' });
        if (posts === 2) return sendJson(res, 404, { error: 'unknown session' });
        return sendJson(res, 200, initializeResult, { 'Mcp-Session-Id': 'new' });
      });
      const { transport } = await open(new StreamableHttpTransport({ url: srv.url }));
      await transport.send(initialize);
      await assert.rejects(transport.send(request(2, 'tools/list')), (error: unknown) => {
        assert.ok(isLocalError(error, 'session-expired'), String(error));
        assert.ok(error instanceof HttpStatusError && error.status === 404);
        return true;
      });
      assert.equal(transport.currentSessionId, undefined);
      await transport.send(initialize); // the client re-initializes on the same transport
      assert.equal(srv.requests[2].headers['mcp-session-id'], undefined);
      assert.equal(transport.currentSessionId, 'new');
    },
  );

  it('reports other statuses as transport errors with status, body excerpt and WWW-Authenticate', TIMEOUT, async () => {
    const srv = await server((req, res) => {
      if ((req.json as { id?: number }).id === 1) {
        res.writeHead(500, 'Internal Server Error', { 'Content-Type': 'text/plain' });
        return res.end('boom '.repeat(200));
      }
      res.writeHead(401, {
        'WWW-Authenticate': 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"',
      });
      res.end('no token');
    });
    const { transport } = await open(new StreamableHttpTransport({ url: srv.url }));
    await assert.rejects(transport.send(initialize), (error: unknown) => {
      assert.ok(isLocalError(error, 'transport'));
      assert.ok(error.message.startsWith(`HTTP 500 Internal Server Error from ${srv.url}: boom boom`), error.message);
      assert.ok(error instanceof HttpStatusError);
      assert.equal(error.body.length, 300);
      return true;
    });
    await assert.rejects(transport.send(request(2, 'initialize')), (error: unknown) => {
      assert.ok(error instanceof HttpStatusError && error.kind === 'transport');
      assert.equal(error.status, 401);
      assert.equal(error.wwwAuthenticate, 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"');
      assert.equal(error.body, 'no token');
      return true;
    });
  });

  it('reports a network failure naming the URL and the cause', TIMEOUT, async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const { transport } = await open(new StreamableHttpTransport({ url }));
    await assert.rejects(transport.send(initialize), (error: unknown) => {
      assert.ok(isLocalError(error, 'transport'));
      assert.ok(error.message.includes(url), error.message);
      assert.ok(error.message.includes('ECONNREFUSED'), error.message);
      return true;
    });
  });

  it('hands unparsable SSE data and JSON bodies to onUnparsable', TIMEOUT, async () => {
    const srv = await server((req, res) => {
      if ((req.json as { id?: number }).id === 1) {
        startSse(res);
        res.write(sseEvent({ data: '{not json' }));
        res.end(sseEvent({ data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} }) }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('[oops');
    });
    const { transport, sink } = await open(new StreamableHttpTransport({ url: srv.url }));
    await transport.send(request(1, 'tools/list'));
    await sink.waitUntil(() => sink.messages.length === 1, 'the valid message');
    await transport.send(request(2, 'tools/list'));
    assert.deepEqual(
      sink.unparsable.map((u) => u.raw),
      ['{not json', '[oops'],
    );
    assert.ok(sink.unparsable.every((u) => u.reason.startsWith('invalid JSON')));
  });

  it('stops reconnecting after maxReconnectAttempts failed GETs, with a warning', TIMEOUT, async () => {
    const srv = await server((req, res) => {
      if (req.method === 'POST') {
        startSse(res);
        res.end(sseEvent({ id: 'r1', retry: 20, data: '' }));
        return;
      }
      res.writeHead(503, 'Service Unavailable');
      res.end();
    });
    const { transport, sink } = await open(new StreamableHttpTransport({ url: srv.url, maxReconnectAttempts: 3 }));
    await transport.send(request(4, 'tools/call'));
    await sink.waitUntil(() => sink.warnings.length > 0, 'a warning');
    assert.match(sink.warnings[0], /gave up after 3 reconnection attempts/);
    const gets = srv.requests.filter((r) => r.method === 'GET');
    assert.equal(gets.length, 3);
    assert.ok(gets.every((r) => r.headers['last-event-id'] === 'r1'));
  });

  it('keeps credentials in the URL out of error messages', TIMEOUT, async () => {
    const port = await closedPort();
    const withUserInfo = new StreamableHttpTransport({ url: `http://user:pa55word@127.0.0.1:${port}/mcp` });
    await assert.rejects(withUserInfo.start(new RecordingSink()), (error: unknown) => {
      assert.ok(isLocalError(error, 'invalid-argument'));
      assert.ok(!error.message.includes('pa55word'), error.message);
      return true;
    });
    const { transport } = await open(
      new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp?api_key=k3y&x=1` }),
    );
    await assert.rejects(transport.send(initialize), (error: unknown) => {
      assert.ok(isLocalError(error, 'transport'));
      assert.ok(!error.message.includes('k3y'), error.message);
      assert.ok(error.message.includes(`http://127.0.0.1:${port}/mcp?api_key=***&x=1`), error.message);
      return true;
    });
  });

  it('gives up resuming when the server answers the GET with 405, with a warning', TIMEOUT, async () => {
    const srv = await server((req, res) => {
      if (req.method === 'POST') {
        startSse(res);
        res.end(sseEvent({ id: 'x1', retry: 20, data: '' }));
        return;
      }
      res.writeHead(405);
      res.end();
    });
    const { transport, sink } = await open(new StreamableHttpTransport({ url: srv.url }));
    await transport.send(request(3, 'tools/call'));
    await sink.waitUntil(() => sink.warnings.length > 0, 'a warning');
    assert.match(sink.warnings[0], /cannot be resumed.*405/);
    assert.equal(srv.requests.filter((r) => r.method === 'GET').length, 1);
  });
});

describe('HttpSseTransport and the automatic fallback', () => {
  /** A 2024-11-05 server: POST to the SSE URL is refused with `postStatus`, GET opens the event stream. */
  async function legacyServer(options: { postStatus: number; endpoint?: string }): Promise<TestServer> {
    let stream: import('node:http').ServerResponse | undefined;
    return server((req, res) => {
      if (req.method === 'GET' && req.url === '/mcp') {
        startSse(res);
        stream = res;
        res.write(sseEvent({ event: 'endpoint', data: options.endpoint ?? '/messages?sessionId=abc' }));
        return;
      }
      if (req.method === 'POST' && req.url === '/messages?sessionId=abc') {
        res.writeHead(202);
        res.end('Accepted');
        const message = req.json as { id?: number; method?: string };
        if (message.id !== undefined && stream) {
          stream.write(
            sseEvent({
              event: 'message',
              data: JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echoed: message.method } }),
            }),
          );
        }
        return;
      }
      res.writeHead(options.postStatus);
      res.end('not here');
    });
  }

  it(
    'falls back to HTTP+SSE when the initialize POST answers 400, and sends the same message there',
    TIMEOUT,
    async () => {
      const srv = await legacyServer({ postStatus: 400 });
      const { transport, sink, diagnostics } = await open(
        new AutoHttpTransport({ url: srv.url, headers: { 'X-Custom': 'legacy' } }),
      );
      assert.equal(transport.kind, 'streamable-http');
      await transport.send(initialize);
      assert.equal(transport.kind, 'sse');
      const response = await sink.waitForMessage((m) => m.id === 1, 'the initialize response over SSE');
      assert.deepEqual(response, { jsonrpc: '2.0', id: 1, result: { echoed: 'initialize' } });
      await transport.send(request(2, 'tools/list'));
      await sink.waitForMessage((m) => m.id === 2, 'the second response');
      const posts = srv.requests.filter((r) => r.url === '/messages?sessionId=abc');
      assert.equal(posts.length, 2);
      assert.equal(posts[0].headers['x-custom'], 'legacy');
      assert.equal(posts[0].headers['content-type'], 'application/json');
      assert.ok(diagnostics.some((line) => line.includes('trying the 2024-11-05 HTTP+SSE transport')));
      await transport.close();
      assert.deepEqual(sink.closes, [undefined]);
    },
  );

  it('stays on Streamable HTTP when the first POST succeeds', TIMEOUT, async () => {
    const srv = await server((req, res) => sendJson(res, 200, initializeResult));
    const { transport, sink } = await open(createHttpTransport({ url: srv.url }));
    await transport.send(initialize);
    assert.equal(transport.kind, 'streamable-http');
    assert.deepEqual(sink.messages, [initializeResult]);
    assert.equal(srv.requests.filter((r) => r.method === 'GET').length, 0);
  });

  it('refuses an endpoint on another origin with a clear error', TIMEOUT, async () => {
    const srv = await legacyServer({ postStatus: 405, endpoint: 'http://evil.example/messages' });
    const transport = new HttpSseTransport({ url: srv.url });
    await assert.rejects(transport.start(new RecordingSink()), (error: unknown) => {
      assert.ok(error instanceof LocalError);
      assert.match(error.message, /another origin \(http:\/\/evil\.example/);
      return true;
    });
    await transport.close();
  });

  it('reports the end of the legacy stream as a close with an error', TIMEOUT, async () => {
    const srv = await server((req, res) => {
      startSse(res);
      res.write(sseEvent({ event: 'endpoint', data: 'messages' }));
      setTimeout(() => res.end(), 20);
    });
    const { transport, sink } = await open(new HttpSseTransport({ url: srv.url }));
    assert.equal(transport.endpoint, `${srv.origin}/messages`);
    await sink.waitUntil(() => sink.closes.length === 1, 'the close');
    assert.ok(isLocalError(sink.closes[0], 'connection-closed'));
  });
});

describe('against @modelcontextprotocol/server-everything (streamableHttp)', () => {
  let child: ChildProcess | undefined;
  after(() => {
    child?.kill();
  });

  it('initializes, gets a session, lists tools', TIMEOUT, async () => {
    const port = await closedPort();
    const entry = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    child = spawn(process.execPath, [entry, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('listening on port')) resolve();
      };
      child?.stdout?.on('data', onData);
      child?.stderr?.on('data', onData);
      child?.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });

    const { transport, sink, diagnostics } = await open(
      new StreamableHttpTransport({ url: `http://127.0.0.1:${port}/mcp` }),
    );
    await transport.send(initialize);
    const init = await sink.waitForMessage((m) => m.id === 1, 'the initialize result');
    assert.ok(init.result, JSON.stringify(init));
    assert.ok(transport.currentSessionId, 'the server assigned a session id');
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    negotiated(transport, (init.result as { protocolVersion: string }).protocolVersion);
    await transport.send(request(2, 'tools/list'));
    const list = await sink.waitForMessage((m) => m.id === 2, 'the tools/list result');
    const tools = (list.result as { tools: Array<{ name: string }> }).tools;
    assert.ok(
      tools.some((tool) => tool.name === 'echo'),
      JSON.stringify(tools.map((t) => t.name)),
    );
    await waitForLine(diagnostics, (line) => line === 'GET stream opened');
    await transport.close();
    assert.deepEqual(sink.closes, [undefined]);
    assert.ok(diagnostics.includes('DELETE → 200'), diagnostics.join('\n'));
    if (process.env.SHOW_DIAGNOSTICS) console.log(diagnostics.join('\n'));
  });
});

/** A port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The diagnostics that announce a reconnection of an SSE stream (each comes before its timer starts). */
function reconnects(diagnostics: readonly string[]): string[] {
  return diagnostics.filter((line) => line.startsWith('SSE reconnect in'));
}

/**
 * Resolves once the transport has decided what to do about the `count`-th end of a POST's SSE stream. The reader
 * notes "… ended" as it returns; the stream's follower then decides, in promise continuations only (no timer, no
 * I/O), whether the stream is still wanted, and notes "SSE reconnect in …" before it waits for any timer. Those
 * continuations have all run before a setImmediate callback does, so after this a missing reconnect note means the
 * transport decided not to reconnect (no sleep standing in for "long enough").
 */
async function streamEndHandled(diagnostics: readonly string[], count: number): Promise<void> {
  const ends = () => diagnostics.filter((line) => /^SSE stream of .* ended$/.test(line)).length;
  await waitForLine(diagnostics, () => ends() >= count);
  assert.equal(ends(), count, diagnostics.join('\n'));
  await new Promise((resolve) => setImmediate(resolve));
}

async function waitForLine(
  lines: readonly string[],
  predicate: (line: string) => boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!lines.some(predicate)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for a diagnostic line; got:\n${lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
