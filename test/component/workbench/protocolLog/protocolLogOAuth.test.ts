/**
 * The protocol log's Network side during a real OAuth sign-in: the fixture's authorization server (oidc-provider)
 * in front of an MCP server, the loopback user agent and test/fixtures/oauth/browser.mjs as the browser. The 401
 * with WWW-Authenticate, the discovery documents, client registration and the token request are HTTP records
 * (purpose "auth"); codes, verifiers and tokens never reach the log, Authorization keeps only its scheme.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { OAuthAuthorizer } from '../../../../src/protocol/auth/oauthAuthorizer';
import { memoryAuthStore } from '../../../../src/protocol/auth/types';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import { observeFetch } from '../../../../src/protocol/transports/wireObserver';
import { loopbackUserAgent } from '../../../../src/workbench/node/auth/loopbackUserAgent';
import { ProtocolLog } from '../../../../src/workbench/protocolLog/protocolLog';
import type { HttpEvent } from '../../../../src/workbench/protocolLog/wireEvent';
import { REPO_ROOT } from '../../../support/testSupport';

const SERVERS = path.join(REPO_ROOT, 'test', 'fixtures', 'oauth', 'servers.mjs');
const BROWSER = path.join(REPO_ROOT, 'test', 'fixtures', 'oauth', 'browser.mjs');

let fixture: { issuer: string; mcpUrl: string; process: ChildProcess };

before(async () => {
  const child = spawn(process.execPath, [SERVERS], { stdio: ['ignore', 'pipe', 'pipe'] });
  fixture = await new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n'))
        resolve({ ...(JSON.parse(stdout.split('\n')[0]) as { issuer: string; mcpUrl: string }), process: child });
    });
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}`)));
  });
});

after(() => {
  fixture?.process.kill();
});

test(
  'a sign-in shows as HTTP records: 401 challenge, discovery, registration, token; no code, verifier or token is kept',
  { timeout: 60_000 },
  async () => {
    const log = new ProtocolLog();
    const store = memoryAuthStore();
    const authorizer = new OAuthAuthorizer({
      serverUrl: fixture.mcpUrl,
      serverName: 'oauth-fixture',
      store,
      clientName: 'protocol log test',
      fetch: observeFetch(fetch, log, 'auth'),
      userAgent: loopbackUserAgent({
        startedFrom: 'terminal',
        open: (url) => {
          execFile(process.execPath, [BROWSER, url.href], (error) => assert.ifError(error));
        },
      }),
    });
    const client = new McpClient({
      serverName: 'oauth-fixture',
      transport: new StreamableHttpTransport({
        url: fixture.mcpUrl,
        authorizer,
        fetch: observeFetch(fetch, log, 'mcp'),
      }),
      trace: (direction, message) => log.message(direction, message),
    });
    try {
      await client.connect();
      assert.ok((await client.listTools()).some((tool) => tool.name === 'read'));
    } finally {
      await client.close();
    }
    const http = log.events().filter((event): event is HttpEvent => event.kind === 'http');
    const challenge = http.find((event) => event.purpose === 'mcp' && event.status === 401);
    assert.ok(challenge, 'the first POST met 401');
    assert.match(
      challenge.responseHeaders.find((header) => header.name === 'www-authenticate')?.value ?? '',
      /^Bearer /,
      'its WWW-Authenticate is shown',
    );
    const auth = http.filter((event) => event.purpose === 'auth');
    assert.ok(
      auth.some(
        (event) =>
          event.method === 'GET' && /\/\.well-known\/oauth-protected-resource/.test(event.url) && event.status === 200,
      ),
      'protected resource metadata',
    );
    assert.ok(
      auth.some(
        (event) =>
          event.method === 'GET' &&
          /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(event.url) &&
          event.status === 200,
      ),
      'authorization server metadata',
    );
    const token = auth.find(
      (event) => event.method === 'POST' && event.requestBody?.includes('grant_type=authorization_code'),
    );
    assert.ok(token, 'the token request, with its form');
    assert.equal(token.status, 200);
    assert.match(token.requestBody!, /(^|&)code=••••(&|$)/);
    assert.match(token.requestBody!, /(^|&)code_verifier=••••(&|$)/);
    const signedIn = http.filter((event) => event.purpose === 'mcp' && event.status === 200);
    assert.ok(signedIn.length > 0);
    for (const event of signedIn)
      assert.match(
        event.requestHeaders.find((header) => header.name === 'authorization')?.value ?? '',
        /^Bearer ••••$/,
      );

    const kept = JSON.stringify(log.events());
    // The authorizer saves its state under the server's URL.
    const stored = JSON.stringify(await store.load(fixture.mcpUrl));
    const accessToken = /"accessToken":"([^"]+)"/.exec(stored)?.[1];
    assert.ok(accessToken && accessToken.length > 20, 'the sign-in stored an access token');
    assert.ok(!kept.includes(accessToken), 'the access token is not in the log');
    log.dispose();
  },
);
