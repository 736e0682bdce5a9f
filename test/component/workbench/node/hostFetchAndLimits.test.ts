/**
 * What the Node launchers give the HTTP transports (src/workbench/node/httpFetchChoice.ts, src/cli/connect.ts): the
 * node:http fetch by default and the global fetch when a proxy is configured, and the input limits from
 * `--limit name=bytes`, which reach the transport (a JSON body) and the OAuth authorizer (a metadata document). The
 * CLI runs as built (dist/cli.js, `npm run build`) against a hostile HTTP server and a 401 server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseArgs, UsageError } from '../../../../src/cli/args';
import { nodeHttpFetch } from '../../../../src/protocol/node/nodeHttpFetch';
import { chooseHttpFetch } from '../../../../src/workbench/node/httpFetchChoice';
import { startHostileHttpServer, type HostileHttpServer } from '../../../fixtures/http/hostileHttpServer';
import { REPO_ROOT } from '../../../support/testSupport';

const CLI = path.join(REPO_ROOT, 'dist', 'cli.js');
/** The environment of a CLI run without any proxy variable of the test runner's. */
const NO_PROXY_ENV = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(https?|all)_proxy$/i.test(name)),
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv = NO_PROXY_ENV): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env, timeout: 50_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe('chooseHttpFetch', () => {
  test('node:http without a proxy; the global fetch, with the reason, when a proxy variable or http.proxy is set', () => {
    assert.deepEqual(chooseHttpFetch({ env: {} }), { kind: 'node-http', fetch: nodeHttpFetch });
    assert.deepEqual(chooseHttpFetch({ env: { HTTPS_PROXY: '' }, proxySetting: ' ' }).kind, 'node-http');
    const byVariable = chooseHttpFetch({ env: { https_proxy: 'http://proxy.example:3128' } });
    assert.equal(byVariable.kind, 'global-fetch');
    assert.match(byVariable.kind === 'global-fetch' ? byVariable.reason : '', /https_proxy/);
    const bySetting = chooseHttpFetch({ env: {}, proxySetting: 'http://proxy.example:3128' });
    assert.equal(bySetting.kind, 'global-fetch');
    assert.match(bySetting.kind === 'global-fetch' ? bySetting.reason : '', /http\.proxy/);
    assert.notEqual(bySetting.fetch, nodeHttpFetch);
  });
});

describe('--limit name=bytes', () => {
  test('takes each InputLimits name, with or without a binary unit, and refuses other names and values', () => {
    const args = parseArgs([
      'tools',
      '--limit',
      'maxMessageBytes=16M',
      '--limit=maxDocumentBytes=2048',
      '--limit',
      'maxSseLineBytes=64k',
      '--limit',
      'maxTraceBytes=1KiB',
    ]);
    assert.deepEqual(args.limits, {
      maxMessageBytes: 16 * 1024 * 1024,
      maxDocumentBytes: 2048,
      maxSseLineBytes: 64 * 1024,
      maxTraceBytes: 1024,
    });
    assert.deepEqual(parseArgs(['tools']).limits, {});
    for (const bad of [
      'maxBytes=5',
      'maxMessageBytes',
      'maxMessageBytes=0',
      'maxMessageBytes=-1',
      'maxMessageBytes=1.5',
      'maxMessageBytes=5T',
    ]) {
      assert.throws(
        () => parseArgs(['tools', '--limit', bad]),
        (error: unknown) => error instanceof UsageError && /--limit/.test(error.message),
        bad,
      );
    }
  });

  test('--help documents --limit and its names', async () => {
    const run = await cli(['--help']);
    assert.equal(run.code, 0, run.stderr);
    for (const text of [
      '--limit name=bytes',
      'maxMessageBytes',
      'maxSseLineBytes',
      'maxDocumentBytes',
      'maxTraceBytes',
    ])
      assert.ok(run.stdout.includes(text), `--help does not name ${text}`);
  });
});

describe('the CLI reads HTTP bodies through node:http under the limits of --limit', () => {
  let hostile: HostileHttpServer;
  let protectedServer: http.Server;
  let protectedUrl: string;
  before(async () => {
    hostile = await startHostileHttpServer(64 * 1024 * 1024);
    // An MCP endpoint that answers 401 and points at a 16 KiB protected-resource document (padded, still valid JSON).
    protectedServer = http.createServer((request, response) => {
      const origin = `http://127.0.0.1:${(protectedServer.address() as AddressInfo).port}`;
      if (request.url === '/.well-known/oauth-protected-resource/mcp' || request.url === '/prm') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            resource: `${origin}/mcp`,
            authorization_servers: [`${origin}/as`],
            padding: 'x'.repeat(16 * 1024),
          }),
        );
        return;
      }
      if (request.url === '/mcp') {
        request.resume();
        response.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/prm"` }).end();
        return;
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => protectedServer.listen(0, '127.0.0.1', resolve));
    protectedUrl = `http://127.0.0.1:${(protectedServer.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    protectedServer.closeAllConnections();
    protectedServer.close();
    await hostile.close();
  });

  test(
    'a JSON body over --limit maxMessageBytes fails naming the setting, and --verbose says node:http carried it',
    { timeout: 60_000 },
    async () => {
      const run = await cli([
        'tools',
        '--url',
        hostile.url('json'),
        '--transport',
        'streamable-http',
        '--era',
        'legacy',
        '--limit',
        'maxMessageBytes=64k',
        '--verbose',
      ]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /exceeds the limit of 65536 bytes \(setting maxMessageBytes\)/);
      assert.match(run.stderr, /HTTP requests through node:http/);
      // The server saw the reading stop near the cap, not at its own 64 MiB end.
      await hostile.finished('json');
      assert.ok(hostile.written('json') < 32 * 1024 * 1024, `the server wrote ${hostile.written('json')} bytes`);
    },
  );

  test(
    'a protected-resource document over --limit maxDocumentBytes fails naming the setting; under the default it is read',
    { timeout: 60_000 },
    async () => {
      const authDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-limits-auth-'));
      try {
        const capped = await cli([
          'tools',
          '--url',
          protectedUrl,
          '--era',
          'legacy',
          '--no-browser',
          '--auth-dir',
          authDir,
          '--limit',
          'maxDocumentBytes=4k',
        ]);
        assert.equal(capped.code, 1, capped.stderr);
        assert.match(capped.stderr, /exceeds the limit of 4096 bytes \(setting maxDocumentBytes\)/);
        // Positive control: the same run without the flag reads the document and fails further on (the authorization
        // server's metadata is not there), not at the cap.
        const uncapped = await cli([
          'tools',
          '--url',
          protectedUrl,
          '--era',
          'legacy',
          '--no-browser',
          '--auth-dir',
          authDir,
        ]);
        assert.equal(uncapped.code, 1, uncapped.stderr);
        assert.doesNotMatch(uncapped.stderr, /maxDocumentBytes/);
        assert.match(uncapped.stderr, /the authorization server http:\/\/127\.0\.0\.1:\d+\/as publishes no metadata/);
      } finally {
        fs.rmSync(authDir, { recursive: true, force: true });
      }
    },
  );

  test('with a proxy variable set the CLI keeps the global fetch and says why', { timeout: 60_000 }, async () => {
    // NO_PROXY keeps the loopback request direct whichever fetch honours the variable.
    const run = await cli(
      [
        'tools',
        '--url',
        hostile.url('json'),
        '--transport',
        'streamable-http',
        '--era',
        'legacy',
        '--limit',
        'maxMessageBytes=64k',
        '--verbose',
      ],
      {
        ...NO_PROXY_ENV,
        HTTPS_PROXY: 'http://127.0.0.1:9',
        HTTP_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: '127.0.0.1,localhost',
      },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /HTTP requests through the global fetch \((HTTPS|HTTP)_PROXY is set/);
    assert.match(run.stderr, /setting maxMessageBytes/);
  });
});
