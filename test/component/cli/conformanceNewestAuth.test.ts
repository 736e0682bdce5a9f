/**
 * The conformance repository's newest authorization client scenarios, which no released suite carries yet
 * (0.2.0-alpha.12 is the newest), played by peers of ours (an authorization server, an MCP resource server and, for
 * cross-app access, an identity provider, all on 127.0.0.1) against `dist/cli.js conformance` started as the suite
 * starts a client. Written from the scenarios' checks; none of their code is copied:
 *
 * - auth/token-refresh-basic and auth/token-refresh-rotation: modelcontextprotocol/conformance
 *   `src/scenarios/client/auth/token-refresh.ts` at 2ef97b5a315b182d257808543284432b98ff21b5 (2 s access tokens with a
 *   refresh token; rotation invalidates each refresh token once used);
 * - auth/pkce-no-s256-support: `src/scenarios/client/auth/pkce-no-support.ts` at
 *   0465ffabff3343ea1b21bc59866f10be6fb182a9 (`code_challenge_methods_supported: []`: no authorization request);
 * - auth/cross-app-access-complete-flow: `src/scenarios/client/auth/cross-app-access.ts` at
 *   6b808f98c651d212351a0caab8563ffaba1c78a5 (RFC 8693 token exchange at the IdP for an ID-JAG, then the RFC 7523
 *   JWT bearer grant with client_secret_basic; the IdP and the authorization server check every parameter and claim).
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { runCli, type CliRun } from '../../support/cliRun';

type Json = Record<string, unknown>;
type Route = (req: http.IncomingMessage, url: URL, body: string, res: http.ServerResponse) => void;

interface Listening {
  url: string;
  stop(): Promise<void>;
}

async function listen(route: Route): Promise<Listening> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => route(req, new URL(req.url ?? '/', 'http://127.0.0.1'), body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** What the resource server saw of the bearer tokens (the scenarios' valid-bearer-token / expired-bearer-token). */
interface TokenBook {
  /** Each issued access token and when it expires (ms since the epoch). */
  expiry: Map<string, number>;
  validUses: string[];
  expiredUses: string[];
}

function tokenBook(): TokenBook {
  return { expiry: new Map(), validUses: [], expiredUses: [] };
}

function issue(book: TokenBook, token: string, lifetimeMs: number): void {
  book.expiry.set(token, Date.now() + lifetimeMs);
}

/**
 * The MCP resource server: a protected resource (RFC 9728 metadata at the path-based location) that answers a
 * stateless 2025-11-25 server once the bearer token is one the authorization server issued and still alive.
 */
async function resourceServer(asUrl: () => string, book: TokenBook): Promise<Listening> {
  // The handlers run only once listen has answered, so `self` is set by then.
  const mcpUrl = () => `${self.url}/mcp`;
  const self: Listening = await listen((req, url, body, res) => {
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      json(res, 200, { resource: mcpUrl(), authorization_servers: [asUrl()] });
      return;
    }
    if (url.pathname !== '/mcp' || req.method !== 'POST') {
      res.writeHead(req.method === 'GET' ? 405 : 404).end();
      return;
    }
    const challenge = {
      'WWW-Authenticate': `Bearer resource_metadata="${self.url}/.well-known/oauth-protected-resource/mcp"`,
    };
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = token === undefined ? undefined : book.expiry.get(token);
    if (token === undefined || expires === undefined) {
      json(res, 401, { error: 'invalid_token' }, challenge);
      return;
    }
    if (expires <= Date.now()) {
      book.expiredUses.push(token);
      json(res, 401, { error: 'invalid_token', error_description: 'expired' }, challenge);
      return;
    }
    book.validUses.push(token);
    const message = JSON.parse(body) as Json;
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const result =
      message.method === 'initialize'
        ? {
            protocolVersion: '2025-11-25',
            capabilities: { tools: {} },
            serverInfo: { name: 'auth-peer', version: '1.0.0' },
          }
        : message.method === 'tools/list'
          ? { tools: [] }
          : {};
    json(res, 200, { jsonrpc: '2.0', id: message.id, result });
  });
  return self;
}

interface AuthServerOptions {
  codeChallengeMethods: string[];
  accessTokenLifetimeMs: number;
  rotateRefreshTokens: boolean;
  book: TokenBook;
}

interface AuthServerLog {
  authorizationRequests: number;
  registrations: number;
  /** Each refresh_token grant: the refresh token presented, and whether it was still good. */
  refreshes: { token: string; valid: boolean }[];
}

/** An authorization server that approves at once: dynamic registration, PKCE, refresh tokens (rotated or not). */
async function authorizationServer(options: AuthServerOptions): Promise<Listening & { log: AuthServerLog }> {
  const log: AuthServerLog = { authorizationRequests: 0, registrations: 0, refreshes: [] };
  const liveRefreshTokens = new Set<string>();
  const issuer = () => self.url;
  const mint = (res: http.ServerResponse, refreshToken: string) => {
    const accessToken = `access-${randomBytes(8).toString('hex')}`;
    issue(options.book, accessToken, options.accessTokenLifetimeMs);
    liveRefreshTokens.add(refreshToken);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: options.accessTokenLifetimeMs / 1000,
      refresh_token: refreshToken,
    });
  };
  const self: Listening = await listen((req, url, body, res) => {
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      json(res, 200, {
        issuer: issuer(),
        authorization_endpoint: `${issuer()}/authorize`,
        token_endpoint: `${issuer()}/token`,
        registration_endpoint: `${issuer()}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: options.codeChallengeMethods,
        token_endpoint_auth_methods_supported: ['none'],
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/register') {
      log.registrations++;
      const metadata = JSON.parse(body) as Json;
      json(res, 201, { ...metadata, client_id: 'refresh-peer-client', token_endpoint_auth_method: 'none' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/authorize') {
      log.authorizationRequests++;
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? 'http://127.0.0.1/callback');
      redirect.searchParams.set('code', 'peer-code');
      const state = url.searchParams.get('state');
      if (state !== null) redirect.searchParams.set('state', state);
      res.writeHead(302, { Location: redirect.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('grant_type') === 'authorization_code') {
        mint(res, `refresh-${randomBytes(8).toString('hex')}`);
        return;
      }
      if (form.get('grant_type') === 'refresh_token') {
        const presented = form.get('refresh_token') ?? '';
        const valid = liveRefreshTokens.has(presented);
        log.refreshes.push({ token: presented, valid });
        if (!valid) {
          json(res, 400, { error: 'invalid_grant', error_description: 'refresh token already used' });
          return;
        }
        if (options.rotateRefreshTokens) {
          liveRefreshTokens.delete(presented);
          mint(res, `refresh-${randomBytes(8).toString('hex')}`);
        } else mint(res, presented);
        return;
      }
      json(res, 400, { error: 'unsupported_grant_type' });
      return;
    }
    res.writeHead(404).end();
  });
  return Object.assign(self, { log });
}

function runScenario(url: string, scenario: string, context?: Json): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MCP_CONFORMANCE_SCENARIO: scenario,
    MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-11-25',
  };
  if (context) env.MCP_CONFORMANCE_CONTEXT = JSON.stringify(context);
  return runCli(['conformance', url], { timeoutMs: 30_000, env });
}

async function refreshScenario(rotate: boolean): Promise<{ run: CliRun; log: AuthServerLog; book: TokenBook }> {
  const book = tokenBook();
  const as = await authorizationServer({
    codeChallengeMethods: ['S256'],
    accessTokenLifetimeMs: 2_000,
    rotateRefreshTokens: rotate,
    book,
  });
  const mcp = await resourceServer(() => as.url, book);
  try {
    const run = await runScenario(
      `${mcp.url}/mcp`,
      rotate ? 'auth/token-refresh-rotation' : 'auth/token-refresh-basic',
    );
    return { run, log: as.log, book };
  } finally {
    await mcp.stop();
    await as.stop();
  }
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS (HS256 with the peer's own key): the client treats ID tokens and ID-JAGs as opaque strings. */
function jwt(header: Json, claims: Json, key: Buffer): string {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}
function claimsOf(token: string): { header: Json; claims: Json } {
  const [header, claims] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString()) as Json,
    claims: JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()) as Json,
  };
}

describe('the conformance repository’s newest auth scenarios, played by our peers', { concurrency: 1 }, () => {
  test('auth/token-refresh-basic: the refresh_token grant after the 2 s token expires, and the new token used', async () => {
    const { run, log, book } = await refreshScenario(false);
    assert.equal(run.code, 0, run.stderr);
    // refresh-token-grant-used
    assert.ok(log.refreshes.length >= 1, `no refresh_token grant; the client said:\n${run.stderr}`);
    assert.ok(log.refreshes.every((refresh) => refresh.valid));
    // refreshed-token-used-successfully: at least two valid uses, one of them with a token the refresh minted
    assert.ok(book.validUses.length >= 2);
    assert.ok(new Set(book.validUses).size >= 2, 'no request carried the refreshed access token');
    assert.equal(log.authorizationRequests, 1, 'the person was asked again instead of refreshing');
  });

  test('auth/token-refresh-rotation: each rotated refresh token is stored and the old one never sent again', async () => {
    const { run, log } = await refreshScenario(true);
    assert.equal(run.code, 0, run.stderr);
    // refresh-rotation-attempt-N, and no refresh-token-invalid
    assert.ok(
      log.refreshes.length >= 2,
      `the rotated refresh token was not exercised: ${JSON.stringify(log.refreshes)}`,
    );
    assert.deepEqual(
      log.refreshes.filter((refresh) => !refresh.valid),
      [],
      'an old refresh token was used after rotation',
    );
    assert.equal(new Set(log.refreshes.map((refresh) => refresh.token)).size, log.refreshes.length);
    assert.equal(log.authorizationRequests, 1);
  });

  test('auth/pkce-no-s256-support: code_challenge_methods_supported [] stops the flow before any authorization request', async () => {
    const book = tokenBook();
    const as = await authorizationServer({
      codeChallengeMethods: [],
      accessTokenLifetimeMs: 60_000,
      rotateRefreshTokens: false,
      book,
    });
    const mcp = await resourceServer(() => as.url, book);
    try {
      const run = await runScenario(`${mcp.url}/mcp`, 'auth/pkce-no-s256-support');
      // pkce-s256-required
      assert.equal(as.log.authorizationRequests, 0, 'the client proceeded to the authorization endpoint');
      assert.equal(as.log.registrations, 0, 'the client registered with a server it cannot sign in to');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /does not support PKCE with S256/);
    } finally {
      await mcp.stop();
      await as.stop();
    }
  });

  test('auth/cross-app-access-complete-flow: token exchange at the IdP, then the JWT bearer grant with client_secret_basic', async () => {
    const CLIENT_ID = 'conformance-test-xaa-client';
    const CLIENT_SECRET = 'conformance-test-xaa-secret';
    const IDP_CLIENT_ID = 'conformance-test-idp-client';
    const idpKey = randomBytes(32);
    const book = tokenBook();
    const checks: { id: string; ok: boolean; detail: string }[] = [];
    const jags = new Set<string>();
    let idpUrl = '';
    let asUrl = '';
    let mcpResource = '';

    const idp = await listen((req, url, body, res) => {
      if (req.method !== 'POST' || url.pathname !== '/token') {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(body);
      const problems: string[] = [];
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange') problems.push('grant_type');
      if (form.get('subject_token') !== idToken) problems.push('subject_token');
      if (form.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:id_token')
        problems.push('subject_token_type');
      if (form.get('requested_token_type') !== 'urn:ietf:params:oauth:token-type:id-jag')
        problems.push('requested_token_type');
      if (!form.get('audience')) problems.push('audience');
      if (!form.get('resource')) problems.push('resource');
      checks.push({ id: 'complete-flow-token-exchange', ok: problems.length === 0, detail: problems.join(', ') });
      if (problems.length) {
        json(res, 400, { error: 'invalid_request', error_description: problems.join(', ') });
        return;
      }
      const jag = jwt(
        { alg: 'HS256', typ: 'oauth-id-jag+jwt' },
        {
          iss: idpUrl,
          sub: 'demo-user@example.com',
          aud: form.get('audience'),
          resource: form.get('resource'),
          client_id: CLIENT_ID,
          exp: Math.floor(Date.now() / 1000) + 300,
        },
        idpKey,
      );
      jags.add(jag);
      json(res, 200, {
        access_token: jag,
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
      });
    });
    idpUrl = idp.url;
    const idToken = jwt(
      { alg: 'HS256' },
      { iss: idpUrl, sub: 'demo-user@example.com', aud: IDP_CLIENT_ID, exp: Math.floor(Date.now() / 1000) + 3600 },
      idpKey,
    );

    const as = await listen((req, url, body, res) => {
      if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
        json(res, 200, {
          issuer: asUrl,
          authorization_endpoint: `${asUrl}/authorize`,
          token_endpoint: `${asUrl}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['urn:ietf:params:oauth:grant-type:jwt-bearer'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic'],
        });
        return;
      }
      if (req.method !== 'POST' || url.pathname !== '/token') {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(body);
      const problems: string[] = [];
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const decoded = basic === undefined ? '' : Buffer.from(basic, 'base64').toString();
      const colon = decoded.indexOf(':');
      const authClientId = decodeURIComponent(decoded.slice(0, colon));
      if (colon < 0 || authClientId !== CLIENT_ID || decodeURIComponent(decoded.slice(colon + 1)) !== CLIENT_SECRET)
        problems.push('client_secret_basic');
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') problems.push('grant_type');
      const assertion = form.get('assertion') ?? '';
      if (!jags.has(assertion)) problems.push('assertion is not the ID-JAG the IdP issued');
      else {
        const { header, claims } = claimsOf(assertion);
        if (header.typ !== 'oauth-id-jag+jwt') problems.push('typ');
        if (claims.aud !== asUrl && claims.aud !== `${asUrl}/`) problems.push(`aud ${String(claims.aud)}`);
        if (claims.client_id !== authClientId) problems.push('client_id');
        if (claims.resource !== mcpResource) problems.push(`resource ${String(claims.resource)}`);
      }
      checks.push({ id: 'complete-flow-jwt-bearer', ok: problems.length === 0, detail: problems.join(', ') });
      if (problems.length) {
        json(res, problems.includes('client_secret_basic') ? 401 : 400, { error: 'invalid_grant' });
        return;
      }
      const accessToken = `access-${randomBytes(8).toString('hex')}`;
      issue(book, accessToken, 3_600_000);
      json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
    });
    asUrl = as.url;
    const mcp = await resourceServer(() => asUrl, book);
    mcpResource = `${mcp.url}/mcp`;
    try {
      const run = await runScenario(mcpResource, 'auth/cross-app-access-complete-flow', {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        idp_client_id: IDP_CLIENT_ID,
        idp_id_token: idToken,
        idp_issuer: idpUrl,
        idp_token_endpoint: `${idpUrl}/token`,
      });
      assert.deepEqual(
        checks.map((check) => check.id),
        ['complete-flow-token-exchange', 'complete-flow-jwt-bearer'],
        run.stderr,
      );
      assert.deepEqual(
        checks.filter((check) => !check.ok),
        [],
        run.stderr,
      );
      assert.ok(book.validUses.length >= 1);
      assert.equal(run.code, 0, run.stderr);
    } finally {
      await mcp.stop();
      await as.stop();
      await idp.stop();
    }
  });
});
