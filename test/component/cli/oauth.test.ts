/**
 * Signing in to a remote MCP server from the CLI, against a real authorization server (oidc-provider with
 * dynamic registration, PKCE, resource indicators and refresh tokens) in front of an MCP server that checks
 * audience-bound JWT access tokens. BROWSER points at test/fixtures/oauth/browser.mjs, a real HTTP client that
 * walks the provider's login and consent pages. dist/cli.js must be built (npm run build).
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { REPO_ROOT, waitFor } from '../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
const BROWSER = path.join(REPO_ROOT, 'test', 'fixtures', 'oauth', 'browser.mjs');
const SERVERS = path.join(REPO_ROOT, 'test', 'fixtures', 'oauth', 'servers.mjs');

interface FixtureStats {
  grants: string[];
  /** client_id of each successful token request. */
  tokenClients: string[];
  /** client_id of each dynamic registration. */
  registrations: string[];
  accepted: number;
  rejected: string[];
}

interface OAuthFixture {
  issuer: string;
  mcpUrl: string;
  statsUrl: string;
  process: ChildProcess;
}

/** Starts the authorization server and the MCP server (one process) and waits for the line saying where they listen. */
function startFixture(args: string[] = []): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [SERVERS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n')) resolve({ ...(JSON.parse(line) as Omit<OAuthFixture, 'process'>), process: child });
    });
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}: ${stderr}`)));
  });
}

async function stats(fixture: OAuthFixture): Promise<FixtureStats> {
  return (await (await fetch(fixture.statsUrl)).json()) as FixtureStats;
}
const TIMEOUT = { timeout: 60_000 };
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 50_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

interface BrowserVisit {
  scope: string | null;
  resource: string | null;
  args: number;
  /** The URL exactly as BROWSER received it. */
  url: string;
}

describe('OAuth sign-in from the CLI (oidc-provider)', () => {
  let fixture: OAuthFixture;
  let dir: string;
  let authDir: string;
  let browserLog: string;
  let browserPages: string;
  let env: NodeJS.ProcessEnv;

  const visits = (): BrowserVisit[] =>
    fs.existsSync(browserLog)
      ? fs
          .readFileSync(browserLog, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as BrowserVisit)
      : [];
  const pages = (): Array<{ kind: string; status: number; page: string }> =>
    fs.existsSync(browserPages)
      ? fs
          .readFileSync(browserPages, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { kind: string; status: number; page: string })
      : [];
  const cacheFiles = () => fs.readdirSync(authDir).filter((f) => f.endsWith('.json'));
  const cached = () =>
    JSON.parse(fs.readFileSync(path.join(authDir, cacheFiles()[0]), 'utf8')) as {
      serverUrl: string;
      state: { tokens?: Record<string, unknown> };
    };
  const assertNoSecretsIn = (run: Run) => {
    const tokens = cached().state.tokens ?? {};
    for (const key of ['accessToken', 'refreshToken']) {
      const value = tokens[key];
      if (typeof value === 'string') {
        assert.ok(!run.stdout.includes(value), `${key} on stdout`);
        assert.ok(!run.stderr.includes(value), `${key} on stderr`);
      }
    }
  };

  before(async () => {
    fixture = await startFixture();
  });
  after(() => {
    fixture?.process.kill();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-oauth-'));
    authDir = path.join(dir, 'auth');
    browserLog = path.join(dir, 'browser.log');
    browserPages = path.join(dir, 'pages.log');
    env = { BROWSER, OAUTH_BROWSER_LOG: browserLog, OAUTH_BROWSER_PAGES: browserPages };
  });

  test(
    'signs in through BROWSER on a 401, caches the tokens privately, and a later run opens no browser',
    TIMEOUT,
    async () => {
      const first = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--verbose'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual((JSON.parse(first.stdout) as Array<{ name: string }>).map((t) => t.name).sort(), [
        'read',
        'write',
      ]);
      assert.match(first.stderr, /requires signing in/);
      assert.deepEqual(
        visits().map(({ url: _url, ...visit }) => visit),
        [{ scope: 'mcp:read offline_access', resource: fixture.mcpUrl, args: 1 }],
        'BROWSER ran once with the URL as its one argument',
      );
      assert.equal(fs.statSync(authDir).mode & 0o777, 0o700);
      assert.equal(cacheFiles().length, 1);
      assert.equal(fs.statSync(path.join(authDir, cacheFiles()[0])).mode & 0o777, 0o600);
      const tokens = cached().state.tokens;
      assert.equal(tokens?.resource, fixture.mcpUrl);
      assert.equal(typeof tokens?.refreshToken, 'string', 'a refresh token was issued');
      assertNoSecretsIn(first);

      const grantsBefore = (await stats(fixture)).grants.length;
      const second = await cli(['call', 'read', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--verbose'], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /read ok/);
      assert.equal(visits().length, 1, 'the cached token was used');
      assert.equal((await stats(fixture)).grants.length, grantsBefore, 'no token request either');
      assert.doesNotMatch(second.stderr, /requires signing in/);
      assertNoSecretsIn(second);
    },
  );

  test(
    'an expired token is refreshed, and so is one the server rejects; the browser is not opened again',
    TIMEOUT,
    async () => {
      assert.equal((await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], env)).code, 0);
      const file = path.join(authDir, cacheFiles()[0]);
      const edit = (change: (tokens: Record<string, unknown>) => void) => {
        const content = cached();
        change(content.state.tokens as Record<string, unknown>);
        fs.writeFileSync(file, JSON.stringify(content));
      };

      edit((tokens) => (tokens.expiresAt = Date.now() - 1000));
      const grantsBefore = (await stats(fixture)).grants.length;
      const expired = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(expired.code, 0, expired.stderr);
      assert.deepEqual((await stats(fixture)).grants.slice(grantsBefore), ['refresh_token']);

      edit((tokens) => {
        tokens.accessToken = 'not-a-token-the-server-issued';
        tokens.expiresAt = Date.now() + 600_000;
      });
      const rejectedBefore = (await stats(fixture)).rejected.length;
      const rejected = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(rejected.code, 0, rejected.stderr);
      const after = await stats(fixture);
      assert.ok(after.rejected.length > rejectedBefore, 'the server refused the bad token');
      assert.deepEqual(after.grants.slice(grantsBefore), ['refresh_token', 'refresh_token']);
      assert.equal(visits().length, 1);
    },
  );

  test('a 403 insufficient_scope steps up with the union of the scopes', TIMEOUT, async () => {
    const run = await cli(['call', 'write', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /write ok/);
    const scopes = visits().map((v) => new Set(v.scope?.split(' ')));
    assert.equal(scopes.length, 2, 'signed in, then stepped up');
    assert.ok(scopes[0].has('mcp:read') && !scopes[0].has('mcp:write'));
    assert.ok(scopes[1].has('mcp:read') && scopes[1].has('mcp:write'), `step-up asked for ${[...scopes[1]].join(' ')}`);
  });

  test(
    'an authorization response with the wrong iss (RFC 9207) is refused and nothing is cached',
    TIMEOUT,
    async () => {
      const run = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], {
        ...env,
        OAUTH_BROWSER_SET_ISS: 'https://attacker.example',
      });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /authorization response was rejected: .*iss/);
      assert.equal(cached().state.tokens, undefined, 'no tokens stored');
    },
  );

  test(
    '--client-id/--client-secret select a pre-registered client: no registration, and the secret is never printed',
    TIMEOUT,
    async () => {
      const secret = 'preregistered-secret-Zq81';
      const before = await stats(fixture);
      const run = await cli(
        [
          'tools',
          '--url',
          fixture.mcpUrl,
          '--auth-dir',
          authDir,
          '--client-id',
          'preregistered-cli',
          '--client-secret',
          secret,
          '--verbose',
        ],
        env,
      );
      assert.equal(run.code, 0, run.stderr);
      const after = await stats(fixture);
      assert.deepEqual(after.registrations.slice(before.registrations.length), [], 'no dynamic registration');
      assert.deepEqual(after.tokenClients.slice(before.tokenClients.length), ['preregistered-cli']);
      assert.ok(
        !run.stderr.includes(secret) && !run.stdout.includes(secret),
        'the client secret stays out of the output',
      );
      assertNoSecretsIn(run);
    },
  );

  test(
    'a config entry\'s "oauth" {clientId, clientSecret} selects the pre-registered client, variables resolved',
    TIMEOUT,
    async () => {
      const secret = 'preregistered-secret-Zq81';
      const config = path.join(dir, 'mcp.json');
      fs.writeFileSync(
        config,
        JSON.stringify({
          servers: {
            remote: {
              type: 'http',
              url: fixture.mcpUrl,
              oauth: { clientId: 'preregistered-cli', clientSecret: '${input:secret}' },
            },
          },
        }),
      );
      const before = await stats(fixture);
      const run = await cli(
        [
          'tools',
          '--config',
          config,
          '--server',
          'remote',
          '--auth-dir',
          authDir,
          '--input',
          `secret=${secret}`,
          '--verbose',
        ],
        env,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /remote requires signing in/, 'messages use the config key');
      const after = await stats(fixture);
      assert.deepEqual(after.registrations.slice(before.registrations.length), []);
      assert.deepEqual(after.tokenClients.slice(before.tokenClients.length), ['preregistered-cli']);
      assert.ok(!run.stderr.includes(secret) && !run.stdout.includes(secret));
    },
  );

  test(
    'the URL printed is the URL BROWSER gets, byte for byte, also at an encoded endpoint path (%2F, %20, non-ASCII)',
    TIMEOUT,
    async () => {
      const authorizationPath = '/tenant%2Fa%20b%C3%A9/auth';
      const encoded = await startFixture(['--authorization-path', authorizationPath]);
      try {
        const run = await cli(['tools', '--url', encoded.mcpUrl, '--auth-dir', authDir], env);
        assert.equal(run.code, 0, run.stderr);
        const printed = /^ {2}(http:\/\/\S+)$/m.exec(run.stderr)?.[1];
        assert.ok(
          printed !== undefined && printed.startsWith(`${encoded.issuer}${authorizationPath}?`),
          `the URL printed is not the advertised endpoint: ${run.stderr}`,
        );
        assert.deepEqual(
          visits().map((visit) => visit.url),
          [printed],
          'the URL BROWSER received',
        );
        // The fixture serves the endpoint only at exactly these bytes; the sign-in above got through it.
        const received = (await (await fetch(encoded.statsUrl)).json()) as { authorizationRequests: string[] };
        assert.deepEqual(received.authorizationRequests, [printed.slice(encoded.issuer.length)]);
      } finally {
        encoded.process.kill();
      }
    },
  );

  test(
    'logout forgets the cached sign-in of that server only; the next run opens the browser again',
    TIMEOUT,
    async () => {
      assert.equal((await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], env)).code, 0);
      assert.equal(visits().length, 1);
      // Another server's sign-in in the same folder (its URL differs) must survive the logout.
      const otherServer = path.join(authDir, 'other.json');
      fs.writeFileSync(
        otherServer,
        JSON.stringify({ serverUrl: 'https://other.example/mcp', state: { version: 1, clients: {} } }),
      );

      const out = await cli(['logout', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(JSON.parse(out.stdout), {
        server: new URL(fixture.mcpUrl).host,
        url: fixture.mcpUrl,
        signedOut: true,
      });
      assert.deepEqual(cacheFiles(), ['other.json'], "only the other server's cache is left");
      const again = await cli(['logout', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(again.code, 0, again.stderr);
      assert.equal((JSON.parse(again.stdout) as { signedOut: boolean }).signedOut, false, 'nothing left to forget');

      const registrationsBefore = (await stats(fixture)).registrations.length;
      const next = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(next.code, 0, next.stderr);
      assert.match(next.stderr, /requires signing in/);
      assert.equal(visits().length, 2, 'BROWSER ran again after logout');
      assert.equal(
        (await stats(fixture)).registrations.length,
        registrationsBefore + 1,
        'the client registration was forgotten too',
      );
    },
  );

  test(
    'logout names its server the way a run does: a config entry, variables resolved; stdio and no server are usage errors',
    TIMEOUT,
    async () => {
      const config = path.join(dir, 'mcp.json');
      const { port } = new URL(fixture.mcpUrl);
      fs.writeFileSync(
        config,
        JSON.stringify({
          servers: { remote: { type: 'http', url: `http://127.0.0.1:\${input:port}/mcp` }, local: { command: 'node' } },
        }),
      );
      assert.equal(
        (
          await cli(
            ['tools', '--config', config, '--server', 'remote', '--input', `port=${port}`, '--auth-dir', authDir],
            env,
          )
        ).code,
        0,
      );
      const out = await cli(
        ['logout', '--config', config, '--server', 'remote', '--input', `port=${port}`, '--auth-dir', authDir],
        env,
      );
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(JSON.parse(out.stdout), { server: 'remote', url: fixture.mcpUrl, signedOut: true });
      assert.deepEqual(cacheFiles(), []);

      const stdio = await cli(['logout', '--config', config, '--server', 'local', '--auth-dir', authDir], env);
      assert.equal(stdio.code, 2);
      assert.match(stdio.stderr, /"local" .* is a stdio server/);
      const none = await cli(['logout', '--auth-dir', authDir], env);
      assert.equal(none.code, 2);
      assert.match(none.stderr, /give exactly one of --url/);
    },
  );

  test('--help documents logout', TIMEOUT, async () => {
    const help = await cli(['--help'], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^ {2}logout {3,}forget the OAuth sign-in cached for an HTTP server/m);
  });

  test('--no-browser only prints the URL; completing it by hand signs in', TIMEOUT, async () => {
    const child = spawn(
      process.execPath,
      [CLI, 'tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--no-browser'],
      { env: { ...process.env, ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(stderr);
        if (match) resolve(match[1]);
      });
      child.once('exit', () => reject(new Error(`the CLI exited before printing the URL: ${stderr}`)));
    });
    assert.equal(visits().length, 0, 'BROWSER was not run');
    const code = await new Promise<number | null>((resolve) => {
      // The person opens the printed URL: the same walk through the provider, without the log.
      execFile(process.execPath, [BROWSER, url], { env: { ...process.env } }, (error) => assert.ifError(error));
      child.once('exit', (c) => resolve(c));
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual((JSON.parse(stdout) as Array<{ name: string }>).map((t) => t.name).sort(), ['read', 'write']);
    assert.equal(visits().length, 0);
  });

  test(
    'a pre-registered public client (--client-id, no secret) refreshes with its client_id in the body, not HTTP Basic with an empty secret',
    TIMEOUT,
    async () => {
      const first = await cli(
        ['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--client-id', 'preregistered-public'],
        env,
      );
      assert.equal(first.code, 0, first.stderr);
      assert.equal(visits().length, 1);
      const file = path.join(authDir, cacheFiles()[0]);
      const content = cached();
      assert.equal(typeof content.state.tokens?.refreshToken, 'string', 'a refresh token was issued');
      (content.state.tokens as Record<string, unknown>).expiresAt = Date.now() - 1000;
      fs.writeFileSync(file, JSON.stringify(content));

      const before = await stats(fixture);
      const expired = await cli(
        ['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--client-id', 'preregistered-public'],
        env,
      );
      assert.equal(expired.code, 0, expired.stderr);
      const after = await stats(fixture);
      assert.deepEqual(after.grants.slice(before.grants.length), ['refresh_token'], 'refreshed, not signed in again');
      assert.deepEqual(after.tokenClients.slice(before.tokenClients.length), ['preregistered-public']);
      assert.equal(visits().length, 1, 'the browser was not opened again');
    },
  );

  test('a token that lives shorter than 30 s is used, not refreshed the moment it arrives', TIMEOUT, async () => {
    const short = await startFixture(['--access-token-ttl', '20']);
    try {
      const first = await cli(['tools', '--url', short.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(
        (await stats(short)).grants,
        ['authorization_code'],
        "the sign-in's token was used for the retried request",
      );
      const second = await cli(['call', 'read', '--url', short.mcpUrl, '--auth-dir', authDir], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /read ok/);
      assert.deepEqual((await stats(short)).grants, ['authorization_code'], 'the cached 20 s token was still used');
    } finally {
      short.process.kill();
    }
  });

  test(
    'the loopback listener ignores a callback with another state (error page, keeps listening), and its last page speaks of the terminal',
    TIMEOUT,
    async () => {
      const run = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir], {
        ...env,
        OAUTH_BROWSER_KNOCK_FIRST: '1',
      });
      assert.equal(run.code, 0, run.stderr);
      // The browser stand-in records the callback's page once it has read it; the CLI, answered, may end before that
      // (CI once read only the knock).
      await waitFor(() => pages().length >= 2, 'the browser stand-in recording the callback page');
      const [knock, callback] = pages();
      assert.equal(knock?.kind, 'knock');
      assert.equal(knock.status, 400);
      assert.match(knock.page, /does not belong to the sign-in in progress/);
      assert.equal(callback?.kind, 'callback');
      assert.equal(callback.status, 200);
      assert.match(callback.page, /Signed in.*return to the terminal/s);
      assert.equal(typeof cached().state.tokens?.accessToken, 'string', 'signed in by the real callback');
    },
  );

  test('--sign-in-timeout bounds a sign-in nobody finishes, and the error says so', TIMEOUT, async () => {
    const run = await cli(
      ['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--no-browser', '--sign-in-timeout', '1500'],
      env,
    );
    assert.equal(run.code, 1);
    assert.match(run.stderr, /the sign-in was not finished within 1\.5 s/);
    assert.doesNotMatch(run.stderr, /timed out after/);
    assert.equal(visits().length, 0);
  });

  test(
    'a person who takes longer on the login page than --timeout is still signed in (the request deadline waits for them)',
    TIMEOUT,
    async () => {
      const run = await cli(['tools', '--url', fixture.mcpUrl, '--auth-dir', authDir, '--timeout', '2000'], {
        ...env,
        OAUTH_BROWSER_LOGIN_DELAY_MS: '5000',
      });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((JSON.parse(run.stdout) as Array<{ name: string }>).map((t) => t.name).sort(), [
        'read',
        'write',
      ]);
    },
  );
});
