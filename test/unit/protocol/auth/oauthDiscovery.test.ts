/**
 * The MCP-specific rules around OAuth that are our code, not oauth4webapi's: WWW-Authenticate parsing, the
 * order of the metadata locations, the resource check, plain-HTTP refusal, and where tokens may go. Requests
 * go to real HTTP servers on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  authorizationServerMetadataUrls,
  discoverAuthorizationServer,
  discoverProtectedResource,
  protectedResourceMetadataUrls,
  requireSecureUrl,
  resourceCovers,
} from '../../../../src/protocol/auth/discovery';
import { OAuthAuthorizer } from '../../../../src/protocol/auth/oauthAuthorizer';
import { oauthHttp } from '../../../../src/protocol/auth/oauthHttp';
import { memoryAuthStore } from '../../../../src/protocol/auth/types';
import { oauthChallengeParams, parseWwwAuthenticate } from '../../../../src/protocol/auth/wwwAuthenticate';
import { parseMcpConfig } from '../../../../src/workbench/config/mcpConfig';
import { sendJson, startSignInOnlyServer, startTestServer, type TestServer } from '../../../fixtures/http/server';
import { headlessUserAgent } from '../../../../src/workbench/auth/headlessUserAgent';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { configuredAuthMethod } from '../../../../src/protocol/auth/clientRegistration';
import { dueForRefresh, refreshMarginMs } from '../../../../src/protocol/auth/tokenLifetime';
import type { StoredTokens } from '../../../../src/protocol/auth/types';
import { PersonWaits } from '../../../../src/protocol/jsonrpc/personWaits';
import { loopbackUserAgent } from '../../../../src/workbench/node/auth/loopbackUserAgent';
import { SignInAttempts } from '../../../../src/extension/platform/auth/signInAttempts';

/** The signal the calls below take: never aborted, for a unit test is not bounded by wall time. */
const noDeadline = new AbortController().signal;

describe('WWW-Authenticate', () => {
  test('reads the Bearer parameters MCP uses, quoted or not', () => {
    assert.deepEqual(
      parseWwwAuthenticate(
        'Bearer realm="mcp", scope="files:read files:write", resource_metadata="https://h.example/.well-known/oauth-protected-resource/mcp", error=invalid_token',
      ),
      [
        {
          scheme: 'bearer',
          params: {
            realm: 'mcp',
            scope: 'files:read files:write',
            resource_metadata: 'https://h.example/.well-known/oauth-protected-resource/mcp',
            error: 'invalid_token',
          },
        },
      ],
    );
  });

  test('separates several challenges and keeps escaped quotes and commas inside quoted values', () => {
    const challenges = parseWwwAuthenticate(
      'DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer error="insufficient_scope", scope="a", error_description="say \\"hi\\", twice", Basic dXNlcjpwYXNz==',
    );
    assert.deepEqual(
      challenges.map((c) => c.scheme),
      ['dpop', 'bearer', 'basic'],
    );
    assert.equal(challenges[1].params.error_description, 'say "hi", twice');
    assert.equal(challenges[2].params[''], 'dXNlcjpwYXNz==');
    assert.deepEqual(oauthChallengeParams('DPoP error="use_dpop_nonce", Bearer scope="a"'), {
      error: 'use_dpop_nonce',
      scope: 'a',
    });
  });

  test('malformed input yields what was understood, never an exception', () => {
    for (const header of ['', '=', 'Bearer scope="unterminated', ',,,', 'Bearer ,scope', '"quoted"', 'Bearer a=b=c']) {
      assert.doesNotThrow(() => parseWwwAuthenticate(header), header);
    }
    assert.deepEqual(parseWwwAuthenticate(undefined), []);
  });
});

describe('metadata locations (MCP 2025-11-25 order)', () => {
  test('protected resource: the header URL, then path-based, then root', () => {
    assert.deepEqual(protectedResourceMetadataUrls('https://h.example/public/mcp', 'https://h.example/custom.json'), [
      'https://h.example/custom.json',
      'https://h.example/.well-known/oauth-protected-resource/public/mcp',
      'https://h.example/.well-known/oauth-protected-resource',
    ]);
    assert.deepEqual(protectedResourceMetadataUrls('https://h.example/', undefined), [
      'https://h.example/.well-known/oauth-protected-resource',
    ]);
  });

  test('authorization server: RFC 8414 path insertion, OIDC path insertion, OIDC path appending', () => {
    assert.deepEqual(authorizationServerMetadataUrls('https://as.example/tenant1'), [
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(authorizationServerMetadataUrls('https://as.example'), [
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
  });

  test('a resource covers the server only on the same origin and at a path prefix', () => {
    assert.equal(resourceCovers('https://h.example/mcp', 'https://h.example/mcp'), true);
    assert.equal(resourceCovers('https://h.example', 'https://h.example/mcp'), true);
    assert.equal(resourceCovers('https://h.example/mcp', 'https://h.example/mcp2'), false);
    assert.equal(resourceCovers('https://evil.example/mcp', 'https://h.example/mcp'), false);
    assert.equal(resourceCovers('http://h.example/mcp', 'https://h.example/mcp'), false);
  });

  test('plain HTTP is accepted only on loopback: all of 127.0.0.0/8 and ::1', () => {
    assert.throws(() => requireSecureUrl(new URL('http://as.example/'), 'the authorization server'), /not HTTPS/);
    for (const url of [
      'https://as.example/',
      'http://127.0.0.1:9/',
      'http://127.0.0.2:9/',
      'http://127.255.255.254/',
      'http://127.1/',
      'http://localhost:9/',
      'http://[::1]:9/',
      'http://[0:0:0:0:0:0:0:1]/',
    ]) {
      assert.doesNotThrow(() => requireSecureUrl(new URL(url), 'x'), url);
    }
    for (const url of [
      'http://128.0.0.1/',
      'http://126.255.255.255/',
      'http://127.0.0.1.evil.example/',
      'http://0.0.0.0/',
      'http://[::2]/',
      'http://10.0.0.1/',
    ]) {
      assert.throws(() => requireSecureUrl(new URL(url), 'x'), /not HTTPS/, url);
    }
  });
});

describe('discovery against real servers', () => {
  let server: TestServer;
  let prm: Record<string, unknown> = {};
  let asMetadata: Record<string, unknown> = {};

  before(async () => {
    server = await startTestServer((request, res) => {
      if (request.url === '/.well-known/oauth-protected-resource/mcp') return sendJson(res, 200, prm);
      if (request.url === '/.well-known/oauth-authorization-server') return sendJson(res, 200, asMetadata);
      return sendJson(res, 404, { error: 'not_found' });
    });
  });
  after(async () => {
    await server.close();
  });

  test('metadata for another resource is refused', async () => {
    prm = { resource: 'https://evil.example/mcp', authorization_servers: [server.origin] };
    await assert.rejects(
      discoverProtectedResource(oauthHttp(), server.url, undefined, noDeadline),
      /is for "https:\/\/evil\.example\/mcp", not for/,
    );
  });

  test('authorization server metadata naming another issuer is refused', async () => {
    asMetadata = {
      issuer: 'https://attacker.example',
      authorization_endpoint: 'https://attacker.example/authorize',
      token_endpoint: 'https://attacker.example/token',
    };
    await assert.rejects(discoverAuthorizationServer(oauthHttp(), server.origin, noDeadline), /issuer/);
  });

  test('a plain-HTTP authorization server that is not on loopback is refused before it is contacted', async () => {
    await assert.rejects(discoverAuthorizationServer(oauthHttp(), 'http://as.invalid', noDeadline), /not HTTPS/);
  });
});

describe('OAuthAuthorizer', () => {
  test('sends its token only to the origin of the server it was obtained for', async () => {
    const store = memoryAuthStore();
    await store.save('https://mcp.example/mcp', {
      version: 1,
      clients: {},
      tokens: {
        issuer: 'https://as.example',
        resource: 'https://mcp.example/mcp',
        accessToken: 'token-value',
        tokenType: 'bearer',
        scopes: [],
      },
    });
    const authorizer = new OAuthAuthorizer({ serverUrl: 'https://mcp.example/mcp', serverName: 'example', store });
    assert.deepEqual(await authorizer.headersFor({ url: 'https://mcp.example/mcp', method: 'POST' }), {
      authorization: 'Bearer token-value',
    });
    assert.deepEqual(await authorizer.headersFor({ url: 'https://other.example/mcp', method: 'POST' }), {});
    assert.deepEqual(
      await authorizer.headersFor({ url: 'http://mcp.example/mcp', method: 'POST' }),
      {},
      'not over plain HTTP to the same host either',
    );
  });

  test('a 401 without a way to open a browser fails with the server named', async () => {
    const server = await startTestServer((request, res) => {
      if (request.url === '/.well-known/oauth-protected-resource/mcp')
        return sendJson(res, 200, { resource: `${server.origin}/mcp`, authorization_servers: [server.origin] });
      if (request.url === '/.well-known/oauth-authorization-server') {
        return sendJson(res, 200, {
          issuer: server.origin,
          authorization_endpoint: `${server.origin}/authorize`,
          token_endpoint: `${server.origin}/token`,
          registration_endpoint: `${server.origin}/register`,
        });
      }
      return sendJson(res, 404, {});
    });
    try {
      const authorizer = new OAuthAuthorizer({
        serverUrl: server.url,
        serverName: 'my-server',
        store: memoryAuthStore(),
      });
      await assert.rejects(
        authorizer.onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' }),
        /my-server requires signing in, and this session cannot open a browser/,
      );
    } finally {
      await server.close();
    }
  });
});

test('concurrent 401s share one sign-in', async () => {
  let authorizations = 0;
  let issued = 0;
  const server = await startTestServer((request, res) => {
    const origin = server.origin;
    const url = new URL(request.url, origin);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return sendJson(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return sendJson(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/register')
      return sendJson(res, 201, { client_id: 'c1', token_endpoint_auth_method: 'none' });
    if (url.pathname === '/authorize') {
      authorizations++;
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'code-1');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', origin);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token')
      return sendJson(res, 200, { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 });
    return sendJson(res, 404, {});
  });
  try {
    const authorizer = new OAuthAuthorizer({
      serverUrl: server.url,
      serverName: 's',
      store: memoryAuthStore(),
      userAgent: headlessUserAgent(),
    });
    const challenge = { status: 401 as const, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' as const };
    assert.deepEqual(await Promise.all([authorizer.onChallenge(challenge), authorizer.onChallenge(challenge)]), [
      'retry',
      'retry',
    ]);
    assert.equal(authorizations, 1);
    assert.deepEqual(await authorizer.headersFor({ url: server.url, method: 'POST' }), {
      authorization: 'Bearer token-1',
    });
  } finally {
    await server.close();
  }
});

describe('mcp.json "oauth"', () => {
  test('clientId, clientSecret and scopes are read; wrong types are problems naming the field', () => {
    const good = parseMcpConfig(
      JSON.stringify({
        servers: {
          s: {
            url: 'https://h.example/mcp',
            oauth: { clientId: 'id', clientSecret: '${input:secret}', scopes: ['a', 'b'] },
          },
        },
      }),
    );
    assert.deepEqual(good.problems, []);
    const server = good.servers[0];
    assert.equal(server.kind, 'http');
    assert.deepEqual(server.kind === 'http' ? server.oauth : undefined, {
      clientId: 'id',
      clientSecret: '${input:secret}',
      scopes: ['a', 'b'],
    });
    const bad = parseMcpConfig(
      JSON.stringify({
        servers: {
          a: { url: 'https://h.example/mcp', oauth: { clientId: 3 } },
          b: { url: 'https://h.example/mcp', oauth: { clientSecret: 'x' } },
        },
      }),
    );
    assert.deepEqual(
      bad.problems.map((p) => p.message),
      ['"oauth.clientId" must be a non-empty string', '"oauth.clientSecret" needs "oauth.clientId"'],
    );
  });

  test('mcp.json oauth.clientMetadataUrl names a Client ID Metadata Document: an https URL with a path', () => {
    const good = parseMcpConfig(
      JSON.stringify({
        servers: {
          s: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'https://client.example/mcp-client.json' } },
        },
      }),
    );
    assert.deepEqual(good.problems, []);
    const server = good.servers[0];
    assert.deepEqual(server.kind === 'http' ? server.oauth : undefined, {
      clientMetadataUrl: 'https://client.example/mcp-client.json',
    });
    const bad = parseMcpConfig(
      JSON.stringify({
        servers: {
          a: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'http://client.example/c.json' } },
          b: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'https://client.example' } },
        },
      }),
    );
    assert.deepEqual(
      bad.problems.map((p) => `${p.server}: ${p.message}`),
      [
        'a: "oauth.clientMetadataUrl" must be an https URL with a path (a Client ID Metadata Document)',
        'b: "oauth.clientMetadataUrl" must be an https URL with a path (a Client ID Metadata Document)',
      ],
    );
  });
});

test('an authorization server on 127.0.0.2 over plain HTTP is discovered (loopback, RFC 8252 §8.3)', async () => {
  const server = http.createServer((req, res) => {
    const origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
    if (req.url === '/.well-known/oauth-authorization-server') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
        }),
      );
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  try {
    const origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
    const metadata = await discoverAuthorizationServer(oauthHttp(), origin, noDeadline);
    assert.equal(metadata?.token_endpoint, `${origin}/token`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

describe('documents are read up to maxDocumentBytes', () => {
  /** Streams an endless JSON document at `endlessPath` (bounded at 256 MiB so a client that never stops still ends). */
  const endlessServer = async (endlessPath: string) => {
    let written = 0;
    let closed!: Promise<void>;
    const server = await startTestServer((request, res) => {
      const origin = server.origin;
      if (request.url === endlessPath) {
        closed = new Promise((resolve) => res.once('close', () => resolve()));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"resource":"');
        const chunk = 'a'.repeat(64 * 1024);
        const pump = (): void => {
          while (written < 256 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end('"}');
        };
        pump();
        return;
      }
      if (request.url === '/.well-known/oauth-protected-resource/mcp')
        return sendJson(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
      return sendJson(res, 404, {});
    });
    return { server, written: () => written, closed: () => closed };
  };

  for (const [what, endlessPath] of [
    ['protected resource metadata', '/.well-known/oauth-protected-resource/mcp'],
    ['authorization server metadata', '/.well-known/oauth-authorization-server'],
  ] as const) {
    test(`an endless ${what} document stops at the cap, the error names the limit, and the connection is released`, async () => {
      const hostile = await endlessServer(endlessPath);
      try {
        const authorizer = new OAuthAuthorizer({
          serverUrl: hostile.server.url,
          serverName: 'hostile',
          store: memoryAuthStore(),
          userAgent: headlessUserAgent(),
        });
        await assert.rejects(
          authorizer.onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: hostile.server.url, method: 'POST' }),
          (error: Error) =>
            /^hostile: /.test(error.message) &&
            new RegExp(what).test(error.message) &&
            /exceeds the limit of 1048576 bytes \(setting maxDocumentBytes\)/.test(error.message),
        );
        await hostile.closed();
        assert.ok(
          hostile.written() < 32 * 1024 * 1024,
          `the server wrote ${hostile.written()} bytes before the client let go`,
        );
      } finally {
        await hostile.server.close();
      }
    });
  }
});

describe('token endpoint authentication and refresh timing', () => {
  const as = { issuer: 'https://as.example', token_endpoint: 'https://as.example/token' };
  test('one method per configured client: none for a public client, Basic for a secret unless only post is offered, private_key_jwt with a key', () => {
    assert.equal(configuredAuthMethod({ clientId: 'public' }, as), 'none');
    assert.equal(configuredAuthMethod({ clientId: 'public', clientSecret: '' }, as), 'none');
    assert.equal(configuredAuthMethod({ clientId: 'c', clientSecret: 's' }, as), 'client_secret_basic');
    assert.equal(
      configuredAuthMethod(
        { clientId: 'c', clientSecret: 's' },
        { ...as, token_endpoint_auth_methods_supported: ['client_secret_post'] },
      ),
      'client_secret_post',
    );
    assert.equal(configuredAuthMethod({ clientId: 'c', privateKeyPem: 'pem' }, as), 'private_key_jwt');
    assert.equal(
      configuredAuthMethod({ clientId: 'c', clientSecret: 's', authMethod: 'client_secret_post' }, as),
      'client_secret_post',
    );
  });

  test("the refresh margin is at most 30 s and at most a tenth of the token's lifetime", () => {
    assert.equal(refreshMarginMs(3_600_000), 30_000);
    assert.equal(refreshMarginMs(20_000), 2_000);
    assert.equal(refreshMarginMs(undefined), 30_000);
    const now = 1_000_000;
    const short: StoredTokens = {
      issuer: 'i',
      resource: 'r',
      accessToken: 'a',
      tokenType: 'bearer',
      refreshToken: 'rt',
      scopes: [],
      obtainedAt: now,
      expiresAt: now + 20_000,
    };
    assert.equal(dueForRefresh(short, now), false, 'a 20 s token is used when it arrives');
    assert.equal(dueForRefresh(short, now + 17_000), false);
    assert.equal(dueForRefresh(short, now + 18_000), true, 'and refreshed in its last tenth');
    assert.equal(dueForRefresh({ ...short, refreshToken: undefined }, now + 19_000), false, 'nothing to refresh with');
    const stored: StoredTokens = { ...short, obtainedAt: undefined, expiresAt: now + 60_000 };
    assert.equal(dueForRefresh(stored, now + 29_000), false);
    assert.equal(dueForRefresh(stored, now + 30_000), true, 'tokens stored without obtainedAt keep the 30 s margin');
  });
});

describe('the loopback redirect listener', () => {
  test('a callback with another state gets an error page and the listener keeps waiting; the one with the state completes; the page names the program', async () => {
    const agent = loopbackUserAgent({ startedFrom: 'vscode', open: () => {} });
    const pending = await agent.prepare();
    try {
      assert.match(pending.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const done = pending.complete(new URL('https://as.example/authorize?state=the-state'), noDeadline, {
        issuer: 'https://as.example',
      });
      for (const query of ['?code=stolen&state=another', '?code=stolen', '?error=access_denied&state=another']) {
        const knock = await fetch(`${pending.redirectUri}${query}`);
        assert.equal(knock.status, 400, query);
        assert.match(await knock.text(), /does not belong to the sign-in in progress.*VS Code/s, query);
      }
      const answer = await fetch(`${pending.redirectUri}?code=the-code&state=the-state`);
      assert.equal(answer.status, 200);
      const page = await answer.text();
      assert.match(page, /Signed in.*return to VS Code/s);
      assert.doesNotMatch(page, /terminal/);
      assert.equal((await done).searchParams.get('code'), 'the-code');
    } finally {
      pending.dispose();
    }
  });

  test("the listener can announce an external redirect URI (a remote window's port mapping) and accepts the callback under its path", async () => {
    const agent = loopbackUserAgent({
      startedFrom: 'terminal',
      open: () => {},
      externalRedirectUri: (local) => new URL(`https://editor.example/proxy/${local.port}/callback`),
    });
    const pending = await agent.prepare();
    try {
      assert.match(pending.redirectUri, /^https:\/\/editor\.example\/proxy\/\d+\/callback$/);
      const listenerPort = pending.redirectUri.split('/')[4];
      const done = pending.complete(new URL('https://as.example/authorize?state=s1'), noDeadline, {
        issuer: 'https://as.example',
      });
      // The editor's proxy forwards the path as it came (absproxy) or without its prefix (proxy): both reach the listener.
      const answer = await fetch(`http://127.0.0.1:${listenerPort}/proxy/${listenerPort}/callback?code=c&state=s1`);
      assert.equal(answer.status, 200);
      assert.match(await answer.text(), /return to the terminal/);
      assert.equal((await done).searchParams.get('code'), 'c');
    } finally {
      pending.dispose();
    }
  });
});

describe("the loopback listener's start URL (one consent in VS Code)", () => {
  test("redirects to the authorization URL byte for byte while the sign-in waits, under its path and an editor proxy's path; nothing before, a wrong nonce gets 404", async () => {
    // The authorization URL at an encoded path with a form-encoded query: the Location must not be re-serialized.
    const authorizationHref =
      'https://as.example/tenant%2Fa%20b%C3%A9/auth?response_type=code&scope=mcp+offline_access&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback&state=s2';
    const opened: { url: string; through: string }[] = [];
    const agent = loopbackUserAgent({
      startedFrom: 'vscode',
      open: (url, through) => void opened.push({ url: url.href, through: through.href }),
      externalRedirectUri: (local) => new URL(`http://127.0.0.1:${local.port}/proxy/${local.port}${local.pathname}`),
    });
    const pending = await agent.prepare();
    try {
      const port = new URL(pending.redirectUri).port;
      const done = pending.complete(new URL(authorizationHref), noDeadline, {
        issuer: 'https://as.example',
      });
      assert.equal(opened.length, 1);
      assert.equal(opened[0].url, authorizationHref, 'the URL consented to');
      const through = new URL(opened[0].through);
      assert.equal(through.hostname, '127.0.0.1', "a loopback URL, which VS Code's link protection trusts");
      const nonce = /\/start\/([0-9a-f]{32})$/.exec(through.pathname)?.[1];
      assert.ok(nonce, `the start URL carries a nonce: ${through.href}`);
      for (const path of [through.pathname, `/start/${nonce}`]) {
        const answer = await fetch(`http://127.0.0.1:${port}${path}`, { redirect: 'manual' });
        assert.equal(answer.status, 302, path);
        assert.equal(answer.headers.get('location'), authorizationHref, path);
      }
      const wrong = await fetch(`http://127.0.0.1:${port}/start/${'0'.repeat(32)}`, { redirect: 'manual' });
      assert.equal(wrong.status, 404);
      await fetch(`${pending.redirectUri}?code=c&state=s2`);
      assert.equal((await done).searchParams.get('code'), 'c');
      // The sign-in is over: the start URL no longer leads anywhere.
      const late = await fetch(`http://127.0.0.1:${port}/start/${nonce}`, { redirect: 'manual' });
      assert.equal(late.status, 404);
    } finally {
      pending.dispose();
    }
  });
});

describe("the sign-in at a person's pace", () => {
  let server: TestServer;
  before(async () => {
    server = await startSignInOnlyServer();
  });
  after(async () => {
    await server.close();
  });
  const challenge = () => ({
    status: 401 as const,
    wwwAuthenticate: 'Bearer',
    url: server.url,
    method: 'POST' as const,
  });

  test('it has its own bound, named as such, and holds a person wait only while the person is at the authorization server', async (t) => {
    // The bound's timer and the person wait's clock are fake: the sign-in ends when the test moves time, not after
    // a real 0.3 s. Discovery and registration go over real sockets to the in-process server meanwhile.
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    // Cancels the sign-in if an assertion fails first, so its loopback listener does not keep the process alive.
    const cancel = new AbortController();
    t.after(() => cancel.abort());
    const waits = new PersonWaits();
    let waitingWhileOpen: boolean | undefined;
    let atAuthorizationServer!: () => void;
    const opened = new Promise<void>((resolve) => (atAuthorizationServer = resolve));
    const authorizer = new OAuthAuthorizer({
      serverUrl: server.url,
      serverName: 'slow',
      store: memoryAuthStore(),
      signal: cancel.signal,
      signInTimeoutMs: 300,
      personWaits: waits,
      userAgent: loopbackUserAgent({
        startedFrom: 'terminal',
        open: () => {
          waitingWhileOpen = waits.waiting;
          atAuthorizationServer();
        },
      }),
    });
    assert.equal(waits.waiting, false);
    const signingIn = authorizer.onChallenge(challenge());
    let settled = false;
    void signingIn.then(
      () => (settled = true),
      () => (settled = true),
    );
    await Promise.race([opened, signingIn]); // the sign-in ending before the page opened fails below, not hangs
    assert.equal(waitingWhileOpen, true, 'a wait was open while the person was at the authorization page');
    // One turn of the event loop lets a rejection that the tick caused arrive (it is a chain of promises, no I/O).
    const aTurn = () => new Promise((resolve) => setImmediate(resolve));
    t.mock.timers.tick(299);
    await aTurn();
    assert.equal(settled, false, 'the sign-in is still waiting 1 ms before its bound');
    t.mock.timers.tick(1);
    await aTurn();
    assert.equal(settled, true, 'the bound ended the sign-in at 0.3 s');
    await assert.rejects(signingIn, /^OAuthFlowError: slow: the sign-in was not finished within 0\.3 s$/);
    assert.equal(waits.waiting, false, 'and closed when the sign-in ended');
    assert.equal(waits.pausedMs(), 300, 'the person wait lasted while the person was at the authorization server');
  });

  test('it can be cancelled', async () => {
    const controller = new AbortController();
    const waits = new PersonWaits();
    const authorizer = new OAuthAuthorizer({
      serverUrl: server.url,
      serverName: 'cancelled',
      store: memoryAuthStore(),
      signal: controller.signal,
      personWaits: waits,
      userAgent: loopbackUserAgent({
        startedFrom: 'vscode',
        open: () => controller.abort(new Error('the person pressed Cancel')),
      }),
    });
    await assert.rejects(authorizer.onChallenge(challenge()), /the person pressed Cancel/);
    assert.equal(waits.waiting, false);
  });
});

test('sign-in attempts outlive a start that gave up: current until settled, then the outcome is there for whoever waits', async () => {
  const attempts = new SignInAttempts();
  assert.equal(attempts.current('s'), undefined);
  const end = attempts.begin('s');
  const attempt = attempts.current('s');
  assert.ok(attempt);
  const newer = attempts.begin('s');
  assert.deepEqual((await attempt.outcome).kind, 'failed', 'a newer sign-in replaces the older one');
  end({ kind: 'signed-in' });
  assert.ok(attempts.current('s'), 'the stale end does not remove the newer attempt');
  const current = attempts.current('s');
  newer({ kind: 'signed-in' });
  assert.equal(attempts.current('s'), undefined);
  assert.deepEqual(await current?.outcome, { kind: 'signed-in' });
});
