/**
 * `mcp-workbench card` end to end (dist/cli.js against in-process hosts): a card, a catalog, a hostile card, a
 * redirect to another origin, usage errors, and `--compare` against a server whose answer contradicts its card.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CARD, startCardServer, type CardServer } from '../../fixtures/http/cardServer';
import { answerGetAndDelete, sendJson, startTestServer, type TestServer } from '../../fixtures/http/server';
import { runCli } from '../../support/cliRun';

let host: CardServer;
let away: CardServer;
let live: TestServer;

before(async () => {
  away = await startCardServer();
  host = await startCardServer({ awayOrigin: away.origin, hugeCapBytes: 16 * 1024 * 1024 });
  // An MCP server (the handshake era) at /mcp whose card, at /mcp/server-card, says another name and revisions.
  live = await startTestServer((request, res) => {
    if (request.url === '/mcp/server-card')
      return sendJson(res, 200, {
        ...CARD,
        remotes: [{ type: 'streamable-http', url: live.url, supportedProtocolVersions: ['2026-07-28'] }],
      });
    if (answerGetAndDelete(request, res)) return;
    const message = request.json as { id?: number; method?: string; params?: { protocolVersion?: string } };
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === 'initialize')
      return sendJson(res, 200, {
        jsonrpc: '2.0',
        id: message.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 'weather-server', version: '1.2.0' },
        },
      });
    return sendJson(res, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } });
  });
});
after(async () => {
  await host.close();
  await away.close();
  await live.close();
});

test('card <url> prints the card, where it was read, and exits 0', async () => {
  const run = await runCli(['card', `${host.origin}/mcp`]);
  assert.equal(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as { source: string; card: unknown; notes: unknown[] };
  assert.deepEqual(printed.card, CARD);
  assert.equal(printed.source, `${host.origin}/mcp/server-card`);
});

test('a card with wrong types exits 1 with the schema errors as JSON; no card exits 1; a usage error exits 2', async () => {
  const wrong = await runCli(['card', `${host.origin}/wrong/mcp`]);
  assert.equal(wrong.code, 1);
  const error = (JSON.parse(wrong.stdout) as { error: { kind: string; errors: string[] } }).error;
  assert.equal(error.kind, 'invalid');
  assert(error.errors.includes('/version must be string'), error.errors.join('\n'));
  assert.match(wrong.stderr, /does not match the card's schema/);

  const missing = await runCli(['card', `${host.origin}/missing/mcp`]);
  assert.equal(missing.code, 1);
  assert.equal((JSON.parse(missing.stdout) as { error: { kind: string } }).error.kind, 'not-found');

  for (const argv of [
    ['card'],
    ['card', 'a', 'b'],
    ['card', '--catalog'],
    ['card', '--catalog', 'x', `${host.origin}/mcp`],
  ]) {
    const usage = await runCli(argv);
    assert.equal(usage.code, 2, argv.join(' '));
  }
});

test('a redirect to another origin is not followed; a huge card stops at --limit maxDocumentBytes', async () => {
  const asked = away.requests.length;
  const redirected = await runCli(['card', `${host.origin}/away/mcp`]);
  assert.equal(redirected.code, 1);
  assert.equal((JSON.parse(redirected.stdout) as { error: { kind: string } }).error.kind, 'redirected-away');
  assert.equal(away.requests.length, asked);

  const huge = await runCli(['card', `${host.origin}/huge/mcp`, '--limit', 'maxDocumentBytes=64k']);
  assert.equal(huge.code, 1);
  assert.equal((JSON.parse(huge.stdout) as { error: { kind: string } }).error.kind, 'too-large');
  assert.match(huge.stderr, /maxDocumentBytes/);
});

test("a card's invisible and bidirectional characters are printed as \\u escapes, the same JSON value", async () => {
  const run = await runCli(['card', `${host.origin}/html/mcp`]);
  assert.equal(run.code, 0, run.stderr);
  assert(!run.stdout.includes('\u202E'), 'a raw right-to-left override reached the terminal');
  assert(run.stdout.includes('\\u202e'));
  assert.equal(
    (JSON.parse(run.stdout) as { card: { description: string } }).card.description,
    '<img src=x onerror=alert(1)>\u202Eevil\nFAKE',
  );
});

test('card --catalog prints the MCP entries and reports the skipped ones on stderr', async () => {
  const run = await runCli(['card', '--catalog', host.origin]);
  assert.equal(run.code, 0, run.stderr);
  const catalog = JSON.parse(run.stdout) as { entries: { identifier: string }[]; skipped: unknown[] };
  assert.deepEqual(
    catalog.entries.map((entry) => entry.identifier),
    ['urn:air:example.com:mcp:weather', 'urn:air:example.com:mcp:inline'],
  );
  assert.equal(catalog.skipped.length, 3);
  assert.match(run.stderr, /skipped "urn:air:example.com:a2a:agent"/);
});

test('card <url> --compare connects and lists where the server contradicts its card (exit 1)', async () => {
  const run = await runCli(['card', live.url, '--compare']);
  assert.equal(run.code, 1, run.stderr);
  const printed = JSON.parse(run.stdout) as { differences: unknown[] };
  assert.deepEqual(printed.differences, [
    { kind: 'name', card: 'com.example/weather', server: 'weather-server' },
    { kind: 'protocol-version', card: ['2026-07-28'], server: '2025-11-25' },
  ]);
});
