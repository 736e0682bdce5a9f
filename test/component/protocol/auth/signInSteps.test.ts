/**
 * Sign-in, step by step, against a real authorization server: the fixture's oidc-provider in front of an MCP server,
 * the loopback user agent and test/fixtures/oauth/browser.mjs as the browser. The authorizer's step observer sees
 * discovery (protected resource, authorization server), registration, the authorization, the token request and, on
 * Refresh Now, the refresh; no code, verifier, state, token or client secret is kept.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { OAuthAuthorizer } from '../../../../src/protocol/auth/oauthAuthorizer';
import { SignInRecorder } from '../../../../src/protocol/auth/signInSteps';
import { memoryAuthStore } from '../../../../src/protocol/auth/types';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import { loopbackUserAgent } from '../../../../src/workbench/node/auth/loopbackUserAgent';
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
  'the step observer sees discovery, registration, authorization, token and refresh, with every secret masked',
  { timeout: 60_000 },
  async () => {
    const recorder = new SignInRecorder();
    const store = memoryAuthStore();
    const authorizer = new OAuthAuthorizer({
      serverUrl: fixture.mcpUrl,
      serverName: 'oauth-fixture',
      store,
      clientName: 'sign-in steps test',
      steps: recorder,
      userAgent: loopbackUserAgent({
        startedFrom: 'terminal',
        open: (url) => {
          execFile(process.execPath, [BROWSER, url.href], (error) => assert.ifError(error));
        },
      }),
    });
    const client = new McpClient({
      serverName: 'oauth-fixture',
      transport: new StreamableHttpTransport({ url: fixture.mcpUrl, authorizer }),
    });
    try {
      await client.connect();
      const signedIn = JSON.stringify(await store.load(fixture.mcpUrl));
      assert.equal(await authorizer.refreshNow(), true, 'Refresh Now used the refresh token');
      assert.ok(
        (await client.listTools()).some((tool) => tool.name === 'read'),
        'the refreshed token is accepted',
      );

      const steps = recorder.allSteps();
      const kinds = steps.map((step) => step.kind);
      for (const kind of ['resource-metadata', 'server-metadata', 'registration', 'authorization', 'token', 'refresh'])
        assert.ok(kinds.includes(kind as never), `a ${kind} step in ${kinds.join(', ')}`);
      // In the order the flow takes them.
      const order = ['resource-metadata', 'registration', 'authorization', 'token', 'refresh'].map((kind) =>
        kinds.indexOf(kind as never),
      );
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
      );
      const flows = recorder.flows();
      assert.deepEqual(
        flows.map((flow) => [flow.kind, flow.outcome]),
        [
          ['sign-in', 'succeeded'],
          ['refresh', 'succeeded'],
        ],
      );
      const token = steps.find((step) => step.kind === 'token');
      assert.equal(token?.answer?.status, 200);
      assert.match(token?.request.body ?? '', /(^|&)code=••••(&|$)/);
      assert.match(token?.request.body ?? '', /(^|&)code_verifier=••••(&|$)/);
      assert.match(token?.answer?.body ?? '', /"access_token": "••••"/);
      const authorization = steps.find((step) => step.kind === 'authorization');
      assert.match(authorization?.request.url ?? '', /^http:\/\/[^/]+\/.*client_id=/, 'the URL the person was sent to');
      assert.match(authorization?.answer?.body ?? '', /(^|&)code=••••(&|$)/);
      const life = recorder.tokenLife();
      assert.ok(life?.expiresAt !== undefined && life.expiresAt > Date.now(), 'the token expiry is known');
      assert.equal(life?.refreshable, true);

      const kept = JSON.stringify({ steps, flows, life });
      const secrets = new Set<string>();
      for (const text of [signedIn, JSON.stringify(await store.load(fixture.mcpUrl))])
        for (const match of text.matchAll(/"(?:accessToken|refreshToken|clientSecret)":"([^"]+)"/g))
          secrets.add(match[1]);
      assert.ok(secrets.size >= 3, 'the store holds the tokens of the sign-in and of the refresh');
      for (const secret of secrets) assert.ok(!kept.includes(secret), 'no token is kept in the steps');
    } finally {
      await client.close();
      recorder.dispose();
    }
  },
);
