/**
 * The injectable HTTP authorizer, against real HTTP servers: it supplies credentials on every request, a
 * 401/403 challenge is shown to it and 'retry' re-sends once with fresh headers, and credentials never
 * follow a redirect to another origin.
 */
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { staticHeaders, type HttpAuthChallenge, type HttpAuthorizer } from '../../../../src/protocol/auth/authorizer';
import { McpClient } from '../../../../src/protocol/client';
import { isLocalError } from '../../../../src/protocol/errors';
import { createHttpTransport } from '../../../../src/protocol/transports/http';
import { HttpStatusError } from '../../../../src/protocol/transports/httpShared';
import { HttpSseTransport } from '../../../../src/protocol/transports/httpSse';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import {
  answerGetAndDelete,
  sendJson,
  sseEvent,
  startSse,
  startTestServer,
  type RecordedRequest,
  type TestServer,
} from '../../../fixtures/http/server';

const TIMEOUT = { timeout: 20_000 };
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const INITIALIZE_RESULT = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: {} },
  serverInfo: { name: 'auth-server', version: '1' },
};
const CHALLENGE =
  'Bearer realm="mcp", error="invalid_token", resource_metadata="https://auth.example/.well-known/oauth-protected-resource"';

async function server(handler: Parameters<typeof startTestServer>[0], urlPath?: string): Promise<TestServer> {
  const started = await startTestServer(handler, urlPath);
  cleanups.push(() => started.close());
  return started;
}

/** A small Streamable HTTP MCP server that answers only requests whose Authorization header `accepts`. */
function mcpServer(accepts: (authorization: string | undefined) => boolean) {
  return (request: RecordedRequest, res: http.ServerResponse) => {
    if (!accepts(request.headers.authorization)) {
      res.writeHead(401, { 'WWW-Authenticate': CHALLENGE, 'Content-Type': 'text/plain' });
      return res.end('unauthorized');
    }
    if (answerGetAndDelete(request, res)) return;
    const message = request.json as { id?: number; method?: string };
    if (message.id === undefined) {
      res.writeHead(202);
      return res.end();
    }
    if (message.method === 'initialize')
      return sendJson(
        res,
        200,
        { jsonrpc: '2.0', id: message.id, result: INITIALIZE_RESULT },
        { 'Mcp-Session-Id': 's1' },
      );
    if (message.method === 'tools/list')
      return sendJson(res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        result: { tools: [{ name: 'secret-tool', inputSchema: { type: 'object' } }] },
      });
    return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  };
}

function client(
  transport: StreamableHttpTransport | HttpSseTransport | ReturnType<typeof createHttpTransport>,
): McpClient {
  const created = new McpClient({ serverName: 'guarded', transport, requestTimeoutMs: 10_000 });
  cleanups.push(() => created.close());
  return created;
}

describe('HttpAuthorizer', () => {
  it('supplies the credentials a server requires on every request (POST, GET, DELETE)', TIMEOUT, async () => {
    const srv = await server(mcpServer((authorization) => authorization === 'Bearer t0k'));
    const asked: string[] = [];
    const authorizer: HttpAuthorizer = {
      headersFor: async (request) => {
        asked.push(request.method);
        return { Authorization: 'Bearer t0k' };
      },
    };
    const mcp = client(new StreamableHttpTransport({ url: srv.url, authorizer }));
    await mcp.connect();
    assert.deepEqual(
      (await mcp.listTools()).map((tool) => tool.name),
      ['secret-tool'],
    );
    await srv.waitForRequest((r) => r.method === 'GET');
    await mcp.close();
    await srv.waitForRequest((r) => r.method === 'DELETE');
    assert.ok(srv.requests.length >= 5, srv.requests.map((r) => r.method).join(','));
    assert.ok(srv.requests.every((r) => r.headers.authorization === 'Bearer t0k'));
    assert.deepEqual([...new Set(asked)].sort(), ['DELETE', 'GET', 'POST']);
  });

  it('without credentials the refusal surfaces as an HTTP error that keeps the challenge', TIMEOUT, async () => {
    const srv = await server(mcpServer((authorization) => authorization === 'Bearer t0k'));
    const mcp = client(new StreamableHttpTransport({ url: srv.url }));
    await assert.rejects(
      mcp.connect(),
      (error: unknown) =>
        error instanceof HttpStatusError && error.status === 401 && error.wwwAuthenticate === CHALLENGE,
    );
  });

  it('shows a 401 to onChallenge and, on retry, sends the request once more with fresh headers', TIMEOUT, async () => {
    const srv = await server(mcpServer((authorization) => authorization === 'Bearer fresh'));
    let token = 'stale';
    const challenges: HttpAuthChallenge[] = [];
    const authorizer: HttpAuthorizer = {
      headersFor: () => ({ Authorization: `Bearer ${token}` }),
      onChallenge: async (challenge): Promise<'retry'> => {
        challenges.push(challenge);
        token = 'fresh';
        return 'retry';
      },
    };
    const mcp = client(new StreamableHttpTransport({ url: srv.url, authorizer }));
    await mcp.connect();
    assert.deepEqual(
      (await mcp.listTools()).map((tool) => tool.name),
      ['secret-tool'],
    );
    assert.deepEqual(challenges, [{ status: 401, wwwAuthenticate: CHALLENGE, url: srv.url, method: 'POST' }]);
    const initializes = srv.requests.filter(
      (r) => (r.json as { method?: string } | undefined)?.method === 'initialize',
    );
    assert.deepEqual(
      initializes.map((r) => r.headers.authorization),
      ['Bearer stale', 'Bearer fresh'],
    );
  });

  it("re-sends only once, and 'fail' reports the refusal", TIMEOUT, async () => {
    const srv = await server(mcpServer(() => false));
    const decisions: Array<'retry' | 'fail'> = ['retry', 'fail'];
    let challenged = 0;
    const authorizer: HttpAuthorizer = {
      headersFor: () => ({ Authorization: 'Bearer never-good' }),
      onChallenge: () => decisions[challenged++] ?? 'fail',
    };
    const mcp = client(new StreamableHttpTransport({ url: srv.url, authorizer }));
    await assert.rejects(mcp.connect(), (error: unknown) => {
      assert.ok(error instanceof HttpStatusError && error.status === 401, String(error));
      assert.ok(!error.message.includes('never-good'), 'credentials stay out of the message');
      return true;
    });
    assert.equal(challenged, 1, 'one challenge per request');
    assert.equal(srv.requests.length, 2, 'the original POST and one retry');
  });

  it('handles a 403 challenge on the 2024-11-05 HTTP+SSE GET stream too', TIMEOUT, async () => {
    let authorized = false;
    const srv = await server((request, res) => {
      if (request.headers.authorization !== 'Bearer ok') {
        res.writeHead(403, { 'WWW-Authenticate': 'Bearer error="insufficient_scope", scope="mcp"' });
        return res.end();
      }
      authorized = true;
      startSse(res);
      res.write(sseEvent({ event: 'endpoint', data: '/messages' }));
    }, '/sse');
    const challenges: HttpAuthChallenge[] = [];
    let token = 'nope';
    const transport = new HttpSseTransport({
      url: srv.url,
      authorizer: {
        headersFor: () => ({ Authorization: `Bearer ${token}` }),
        onChallenge: (challenge) => {
          challenges.push(challenge);
          token = 'ok';
          return 'retry';
        },
      },
    });
    cleanups.push(() => transport.close());
    await transport.start({ onMessage() {}, onUnparsable() {}, onWarning() {}, onClose() {} });
    assert.ok(authorized);
    assert.equal(transport.endpoint, `${srv.origin}/messages`);
    assert.deepEqual(challenges, [
      { status: 403, wwwAuthenticate: 'Bearer error="insufficient_scope", scope="mcp"', url: srv.url, method: 'GET' },
    ]);
  });

  it('staticHeaders is what createHttpTransport uses for configured headers', TIMEOUT, async () => {
    const srv = await server(mcpServer((authorization) => authorization === 'Bearer cfg'));
    const viaOption = client(createHttpTransport({ url: srv.url, headers: { Authorization: 'Bearer cfg' } }));
    await viaOption.connect();
    const viaAuthorizer = client(
      createHttpTransport({ url: srv.url, authorizer: staticHeaders({ Authorization: 'Bearer cfg' }) }),
    );
    await viaAuthorizer.connect();
    assert.equal(viaAuthorizer.session.serverInfo.name, 'auth-server');
  });
});

describe('redirects and credentials', () => {
  it('follows a same-origin redirect, keeping method, body and credentials', TIMEOUT, async () => {
    const srv = await server((request, res) => {
      if (request.url === '/old') {
        res.writeHead(307, { Location: '/mcp' });
        return res.end();
      }
      return mcpServer((authorization) => authorization === 'Bearer t0k')(request, res);
    }, '/old');
    const mcp = client(
      new StreamableHttpTransport({ url: srv.url, authorizer: staticHeaders({ Authorization: 'Bearer t0k' }) }),
    );
    await mcp.connect();
    const moved = srv.requests.filter((r) => r.url === '/mcp' && r.method === 'POST');
    assert.ok(moved.length >= 2, 'initialize and initialized reached the new location');
    assert.equal((moved[0].json as { method?: string }).method, 'initialize');
    assert.equal(moved[0].headers.authorization, 'Bearer t0k');
    // A request is first sent with fetch's redirect: 'error' (see RedirectMemory): a refused redirect is sent again
    // to the old location and followed, so the new one still receives each message exactly once.
    const methods = moved.map((r) => (r.json as { method?: string }).method);
    assert.equal(
      methods.filter((m) => m === 'initialize').length,
      1,
      `POSTs at the new location: ${methods.join(', ')}`,
    );
    assert.equal(
      methods.filter((m) => m === 'notifications/initialized').length,
      1,
      `POSTs at the new location: ${methods.join(', ')}`,
    );
  });

  it('never follows a redirect to another origin, so the credentials do not leave', TIMEOUT, async () => {
    const elsewhere = await server(mcpServer(() => true));
    const srv = await server((_request, res) => {
      res.writeHead(307, { Location: elsewhere.url });
      res.end();
    });
    const mcp = client(
      new StreamableHttpTransport({
        url: srv.url,
        authorizer: staticHeaders({ Authorization: 'Bearer t0k', 'X-Api-Key': 'k3y' }),
      }),
    );
    await assert.rejects(mcp.connect(), (error: unknown) => {
      assert.ok(isLocalError(error, 'transport'), String(error));
      assert.match(error.message, /redirected to another origin \(http:\/\/127\.0\.0\.1:\d+\); not following it/);
      assert.ok(!error.message.includes('t0k') && !error.message.includes('k3y'));
      return true;
    });
    assert.equal(elsewhere.requests.length, 0, 'nothing reached the other origin');
  });
});
