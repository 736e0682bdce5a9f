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
} from '../../src/protocol/auth/discovery';
import { OAuthAuthorizer } from '../../src/protocol/auth/oauthAuthorizer';
import { oauthHttp } from '../../src/protocol/auth/oauthHttp';
import { memoryAuthStore } from '../../src/protocol/auth/types';
import { oauthChallengeParams, parseWwwAuthenticate } from '../../src/protocol/auth/wwwAuthenticate';
import { parseMcpConfig } from '../../src/workbench/config/mcpConfig';
import { sendJson, startTestServer, type TestServer } from '../fixtures/http/server';
import { headlessUserAgent } from '../../src/workbench/auth/headlessUserAgent';

describe('WWW-Authenticate', () => {
  test('reads the Bearer parameters MCP uses, quoted or not', () => {
    assert.deepEqual(parseWwwAuthenticate('Bearer realm="mcp", scope="files:read files:write", resource_metadata="https://h.example/.well-known/oauth-protected-resource/mcp", error=invalid_token'), [
      {
        scheme: 'bearer',
        params: { realm: 'mcp', scope: 'files:read files:write', resource_metadata: 'https://h.example/.well-known/oauth-protected-resource/mcp', error: 'invalid_token' },
      },
    ]);
  });

  test('separates several challenges and keeps escaped quotes and commas inside quoted values', () => {
    const challenges = parseWwwAuthenticate('DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer error="insufficient_scope", scope="a", error_description="say \\"hi\\", twice", Basic dXNlcjpwYXNz==');
    assert.deepEqual(
      challenges.map((c) => c.scheme),
      ['dpop', 'bearer', 'basic'],
    );
    assert.equal(challenges[1].params.error_description, 'say "hi", twice');
    assert.equal(challenges[2].params[''], 'dXNlcjpwYXNz==');
    assert.deepEqual(oauthChallengeParams('DPoP error="use_dpop_nonce", Bearer scope="a"'), { error: 'use_dpop_nonce', scope: 'a' });
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
    assert.deepEqual(protectedResourceMetadataUrls('https://h.example/', undefined), ['https://h.example/.well-known/oauth-protected-resource']);
  });

  test('authorization server: RFC 8414 path insertion, OIDC path insertion, OIDC path appending', () => {
    assert.deepEqual(authorizationServerMetadataUrls('https://as.example/tenant1'), [
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(authorizationServerMetadataUrls('https://as.example'), ['https://as.example/.well-known/oauth-authorization-server', 'https://as.example/.well-known/openid-configuration']);
  });

  test('a resource covers the server only on the same origin and at a path prefix', () => {
    assert.equal(resourceCovers('https://h.example/mcp', 'https://h.example/mcp'), true);
    assert.equal(resourceCovers('https://h.example', 'https://h.example/mcp'), true);
    assert.equal(resourceCovers('https://h.example/mcp', 'https://h.example/mcp2'), false);
    assert.equal(resourceCovers('https://evil.example/mcp', 'https://h.example/mcp'), false);
    assert.equal(resourceCovers('http://h.example/mcp', 'https://h.example/mcp'), false);
  });

  test('plain HTTP is accepted only on loopback', () => {
    assert.throws(() => requireSecureUrl(new URL('http://as.example/'), 'the authorization server'), /not HTTPS/);
    for (const url of ['https://as.example/', 'http://127.0.0.1:9/', 'http://localhost:9/', 'http://[::1]:9/']) assert.doesNotThrow(() => requireSecureUrl(new URL(url), 'x'), url);
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
    await assert.rejects(discoverProtectedResource(oauthHttp(), server.url, undefined, AbortSignal.timeout(5000)), /is for "https:\/\/evil\.example\/mcp", not for/);
  });

  test('authorization server metadata naming another issuer is refused', async () => {
    asMetadata = { issuer: 'https://attacker.example', authorization_endpoint: 'https://attacker.example/authorize', token_endpoint: 'https://attacker.example/token' };
    await assert.rejects(discoverAuthorizationServer(oauthHttp(), server.origin, AbortSignal.timeout(5000)), /issuer/);
  });

  test('a plain-HTTP authorization server that is not on loopback is refused before it is contacted', async () => {
    await assert.rejects(discoverAuthorizationServer(oauthHttp(), 'http://as.invalid', AbortSignal.timeout(5000)), /not HTTPS/);
  });
});

describe('OAuthAuthorizer', () => {
  test('sends its token only to the origin of the server it was obtained for', async () => {
    const store = memoryAuthStore();
    await store.save('https://mcp.example/mcp', {
      version: 1,
      clients: {},
      tokens: { issuer: 'https://as.example', resource: 'https://mcp.example/mcp', accessToken: 'token-value', tokenType: 'bearer', scopes: [] },
    });
    const authorizer = new OAuthAuthorizer({ serverUrl: 'https://mcp.example/mcp', serverName: 'example', store });
    assert.deepEqual(await authorizer.headersFor({ url: 'https://mcp.example/mcp', method: 'POST' }), { authorization: 'Bearer token-value' });
    assert.deepEqual(await authorizer.headersFor({ url: 'https://other.example/mcp', method: 'POST' }), {});
    assert.deepEqual(await authorizer.headersFor({ url: 'http://mcp.example/mcp', method: 'POST' }), {}, 'not over plain HTTP to the same host either');
  });

  test('a 401 without a way to open a browser fails with the server named', async () => {
    const server = await startTestServer((request, res) => {
      if (request.url === '/.well-known/oauth-protected-resource/mcp') return sendJson(res, 200, { resource: `${server.origin}/mcp`, authorization_servers: [server.origin] });
      if (request.url === '/.well-known/oauth-authorization-server') {
        return sendJson(res, 200, { issuer: server.origin, authorization_endpoint: `${server.origin}/authorize`, token_endpoint: `${server.origin}/token`, registration_endpoint: `${server.origin}/register` });
      }
      return sendJson(res, 404, {});
    });
    try {
      const authorizer = new OAuthAuthorizer({ serverUrl: server.url, serverName: 'my-server', store: memoryAuthStore() });
      await assert.rejects(authorizer.onChallenge({ status: 401, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' }), /my-server requires signing in, and this session cannot open a browser/);
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
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') return sendJson(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return sendJson(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/register') return sendJson(res, 201, { client_id: 'c1', token_endpoint_auth_method: 'none' });
    if (url.pathname === '/authorize') {
      authorizations++;
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', 'code-1');
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('iss', origin);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token') return sendJson(res, 200, { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 });
    return sendJson(res, 404, {});
  });
  try {
    const authorizer = new OAuthAuthorizer({ serverUrl: server.url, serverName: 's', store: memoryAuthStore(), userAgent: headlessUserAgent() });
    const challenge = { status: 401 as const, wwwAuthenticate: 'Bearer', url: server.url, method: 'POST' as const };
    assert.deepEqual(await Promise.all([authorizer.onChallenge(challenge), authorizer.onChallenge(challenge)]), ['retry', 'retry']);
    assert.equal(authorizations, 1);
    assert.deepEqual(await authorizer.headersFor({ url: server.url, method: 'POST' }), { authorization: 'Bearer token-1' });
  } finally {
    await server.close();
  }
});

describe('mcp.json "oauth"', () => {
  test('clientId, clientSecret and scopes are read; wrong types are problems naming the field', () => {
    const good = parseMcpConfig(JSON.stringify({ servers: { s: { url: 'https://h.example/mcp', oauth: { clientId: 'id', clientSecret: '${input:secret}', scopes: ['a', 'b'] } } } }));
    assert.deepEqual(good.problems, []);
    const server = good.servers[0];
    assert.equal(server.kind, 'http');
    assert.deepEqual(server.kind === 'http' ? server.oauth : undefined, { clientId: 'id', clientSecret: '${input:secret}', scopes: ['a', 'b'] });
    const bad = parseMcpConfig(JSON.stringify({ servers: { a: { url: 'https://h.example/mcp', oauth: { clientId: 3 } }, b: { url: 'https://h.example/mcp', oauth: { clientSecret: 'x' } } } }));
    assert.deepEqual(
      bad.problems.map((p) => p.message),
      ['"oauth.clientId" must be a non-empty string', '"oauth.clientSecret" needs "oauth.clientId"'],
    );
  });

  test('mcp.json oauth.clientMetadataUrl names a Client ID Metadata Document: an https URL with a path', () => {
    const good = parseMcpConfig(JSON.stringify({ servers: { s: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'https://client.example/mcp-client.json' } } } }));
    assert.deepEqual(good.problems, []);
    const server = good.servers[0];
    assert.deepEqual(server.kind === 'http' ? server.oauth : undefined, { clientMetadataUrl: 'https://client.example/mcp-client.json' });
    const bad = parseMcpConfig(
      JSON.stringify({ servers: { a: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'http://client.example/c.json' } }, b: { url: 'https://h.example/mcp', oauth: { clientMetadataUrl: 'https://client.example' } } } }),
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
