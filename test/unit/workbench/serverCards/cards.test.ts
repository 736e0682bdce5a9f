/**
 * Server Cards (src/workbench/serverCards): the card at `<url>/server-card` and a domain's catalog, read from an
 * in-process host (test/fixtures/http/cardServer.ts) with hostile answers: a card that never ends, one nested
 * 100,000 deep, wrong types, redirects to another origin and in a loop, silence, and catalogs that point elsewhere.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CARD, startCardServer, type CardServer } from '../../../fixtures/http/cardServer';
import {
  cardUrlFromDocument,
  catalogUrls,
  checkCard,
  readCardAt,
  readCatalog,
  readServerCard,
  serverCardUrl,
  summarizeCard,
} from '../../../../src/workbench/serverCards/cards';
import { DiscoveryError, nestingExceeds } from '../../../../src/workbench/serverCards/discoveryFetch';
import { hostScope } from '../../../../src/workbench/serverCards/hostScope';
import { freePort } from '../../../support/net';

let host: CardServer;
let away: CardServer;

before(async () => {
  away = await startCardServer();
  host = await startCardServer({ awayOrigin: away.origin, hugeCapBytes: 16 * 1024 * 1024 });
});
after(async () => {
  await host.close();
  await away.close();
});

async function failure(promise: Promise<unknown>): Promise<DiscoveryError> {
  try {
    await promise;
  } catch (error) {
    assert(error instanceof DiscoveryError, `not a DiscoveryError: ${String(error)}`);
    return error;
  }
  assert.fail('the read succeeded');
}

test('the card URL is the server URL with /server-card on its path: a trailing slash collapsed, query and fragment left off', () => {
  assert.equal(serverCardUrl('https://host.example/mcp'), 'https://host.example/mcp/server-card');
  assert.equal(serverCardUrl(' https://host.example/mcp/ '), 'https://host.example/mcp/server-card');
  assert.equal(serverCardUrl('https://host.example/mcp?tenant=a#x'), 'https://host.example/mcp/server-card');
  assert.equal(serverCardUrl('https://host.example'), 'https://host.example/server-card');
  for (const refused of ['ftp://host/mcp', 'https://user@host/mcp', 'https://host/m\u202Ecp', 'not a url'])
    assert.throws(
      () => serverCardUrl(refused),
      (error: unknown) => (error as DiscoveryError).kind === 'refused-url',
    );
});

test("a domain's catalogs: the MCP Catalog first, then the AI Catalog; a bare name is https except on this machine", () => {
  assert.deepEqual(catalogUrls('example.com'), [
    'https://example.com/.well-known/mcp/catalog.json',
    'https://example.com/.well-known/ai-catalog.json',
  ]);
  assert.equal(catalogUrls('https://example.com/some/page?q=1')[0], 'https://example.com/.well-known/mcp/catalog.json');
  assert.equal(catalogUrls('localhost:3000')[0], 'http://localhost:3000/.well-known/mcp/catalog.json');
  assert.equal(catalogUrls('[::1]:3000')[0], 'http://[::1]:3000/.well-known/mcp/catalog.json');
  assert.equal(catalogUrls('127.0.0.1')[0], 'http://127.0.0.1/.well-known/mcp/catalog.json');
});

test('a valid card is read with the card media type in Accept and nothing of the person: no Authorization, no cookie', async () => {
  const reading = await readServerCard(`${host.origin}/mcp`);
  assert.deepEqual(reading.card, CARD);
  assert.equal(reading.source, `${host.origin}/mcp/server-card`);
  assert.deepEqual(reading.notes, []);
  const sent = host.requests.at(-1)!;
  assert.equal(sent.path, '/mcp/server-card');
  assert.match(String(sent.headers.accept), /^application\/mcp-server-card\+json/);
  assert.equal(sent.headers.authorization, undefined);
  assert.equal(sent.headers.cookie, undefined);
});

test('a redirect within the origin is followed and said; one to another origin is not followed at all', async () => {
  const moved = await readServerCard(`${host.origin}/moved/mcp`);
  assert.equal(moved.source, `${host.origin}/mcp/server-card`);
  assert.deepEqual(moved.notes, [{ kind: 'redirected', to: `${host.origin}/mcp/server-card` }]);

  const before = away.requests.length;
  const error = await failure(readServerCard(`${host.origin}/away/mcp`));
  assert.equal(error.kind, 'redirected-away');
  assert.equal(error.detail.location, away.origin);
  assert.equal(away.requests.length, before, 'the other origin was asked');
});

test('an endless redirect stops after 5 hops', async () => {
  const before = host.requests.length;
  const error = await failure(readServerCard(`${host.origin}/loop/mcp`));
  assert.equal(error.kind, 'too-many-redirects');
  assert.equal(host.requests.length - before, 6);
});

test('a card that never ends is read up to the byte cap, then the connection is dropped', async () => {
  const error = await failure(readServerCard(`${host.origin}/huge/mcp`, { maxBytes: 64 * 1024 }));
  assert.equal(error.kind, 'too-large');
  assert.equal(error.detail.limitBytes, 64 * 1024);
  assert.match(error.message, /maxDocumentBytes/);
  await host.hugeFinished();
  assert(host.hugeWritten() < 16 * 1024 * 1024, `the host wrote all of ${host.hugeWritten()} bytes`);
});

test('a card nested 100,000 levels deep is refused before validation', async () => {
  const error = await failure(readServerCard(`${host.origin}/deep/mcp`));
  assert.equal(error.kind, 'too-deep');
  assert.equal(nestingExceeds({ a: [{ b: 1 }] }, 3), false);
  assert.equal(nestingExceeds({ a: [{ b: [] }] }, 3), true);
});

test('a card of the wrong types is invalid, with the schema errors', async () => {
  const error = await failure(readServerCard(`${host.origin}/wrong/mcp`));
  assert.equal(error.kind, 'invalid');
  const errors = error.detail.errors!.join('\n');
  assert.match(errors, /\/version must be string/);
  assert.match(errors, /\/remotes\/0\/type must be equal to one of the allowed values/);
  assert.match(errors, /\/remotes\/0\/url must match pattern/);
});

test('no card (404) and a silent host (the timeout) say so', async () => {
  assert.equal((await failure(readServerCard(`${host.origin}/missing/mcp`))).kind, 'not-found');
  const silent = await failure(readServerCard(`${host.origin}/silent/mcp`, { timeoutMs: 100 }));
  assert.equal(silent.kind, 'timeout');
  const closed = await freePort();
  const refused = await failure(readServerCard(`http://127.0.0.1:${closed}/mcp`, { timeoutMs: 5_000 }));
  assert.equal(refused.kind, 'unreachable');
});

test("checkCard: another $schema family, a non-object, and a missing name are invalid; the examples' minimal card is valid", () => {
  const minimal = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
    name: 'example-org/minimal',
    version: '1.0.0',
    description: 'Smallest valid Server Card.',
  };
  assert.equal(checkCard(minimal).kind, 'valid');
  const dated = checkCard({
    ...minimal,
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json',
  });
  assert(dated.kind === 'invalid' && /this client reads cards of/.test(dated.errors[0]));
  assert.equal(checkCard([minimal]).kind, 'invalid');
  const { name: _name, ...nameless } = minimal;
  const missing = checkCard(nameless);
  assert(missing.kind === 'invalid' && missing.errors.some((line) => /name/.test(line)));
  assert.equal(checkCard({ ...minimal, name: 'no-slash' }).kind, 'invalid');
  assert.equal(checkCard({ ...minimal, description: 'x'.repeat(101) }).kind, 'invalid');
  assert.equal(checkCard({ ...minimal, packages: [] }).kind, 'invalid');
});

test('a catalog: url and inline entries are kept; another type, plain http to a public host and url-with-data are skipped', async () => {
  const catalog = await readCatalog(host.origin);
  assert.equal(catalog.source, `${host.origin}/.well-known/mcp/catalog.json`);
  assert.equal(catalog.specVersion, '1.0');
  assert.deepEqual(
    catalog.entries.map((entry) => [entry.identifier, entry.cardUrl ?? entry.card?.name]),
    [
      ['urn:air:example.com:mcp:weather', `${host.origin}/mcp/server-card`],
      ['urn:air:example.com:mcp:inline', 'com.example/inline'],
    ],
  );
  assert.deepEqual(
    catalog.skipped.map((entry) => entry.identifier),
    ['urn:air:example.com:a2a:agent', 'urn:air:example.com:mcp:plain', 'urn:air:example.com:mcp:both'],
  );
  const card = await readCardAt(catalog.entries[0].cardUrl!);
  assert.equal(card.card.name, 'com.example/weather');
});

test('a domain without an MCP Catalog is asked for its AI Catalog; without either, the error names both', async () => {
  const aiOnly = await startCardServer({ catalogAt: 'ai' });
  const none = await startCardServer({ catalogAt: 'none' });
  try {
    const catalog = await readCatalog(aiOnly.origin);
    assert.equal(catalog.source, `${aiOnly.origin}/.well-known/ai-catalog.json`);
    assert.equal(catalog.entries.length, 2);
    assert.deepEqual(
      aiOnly.requests.map((request) => request.path),
      ['/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json'],
    );
    const error = await failure(readCatalog(none.origin));
    assert.equal(error.kind, 'not-found');
    assert.match(error.message, /mcp\/catalog\.json nor at .*ai-catalog\.json/);
  } finally {
    await aiOnly.close();
    await none.close();
  }
});

test('a catalog on a public host may not point into this machine or its network, nor over plain http', () => {
  const publicCatalog = 'https://example.com/.well-known/mcp/catalog.json';
  assert.deepEqual(cardUrlFromDocument('https://cards.example.net/c', publicCatalog), {
    url: 'https://cards.example.net/c',
  });
  for (const inward of [
    'http://127.0.0.1:8080/c',
    'https://localhost/c',
    'https://192.168.1.2/c',
    'https://[::1]/c',
    'https://intranet/c',
  ])
    assert('refused' in cardUrlFromDocument(inward, publicCatalog), inward);
  assert('refused' in cardUrlFromDocument('http://cards.example.net/c', publicCatalog));
  assert.deepEqual(
    cardUrlFromDocument('http://127.0.0.1:8080/c', 'http://127.0.0.1:3000/.well-known/mcp/catalog.json'),
    {
      url: 'http://127.0.0.1:8080/c',
    },
  );
});

test('hostScope reads loopback, private and public from the text of a host', () => {
  const cases: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['localhost', 'loopback'],
    ['app.localhost', 'loopback'],
    ['[::1]', 'loopback'],
    [new URL('http://[::ffff:127.0.0.1]/').hostname, 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['100.64.0.1', 'private'],
    ['0.0.0.0', 'private'],
    ['[fd00::1]', 'private'],
    ['[fe80::1]', 'private'],
    ['printer.local', 'private'],
    ['intranet', 'private'],
    ['example.com', 'public'],
    ['8.8.8.8', 'public'],
    ['[2001:db8::1]', 'public'],
  ];
  for (const [host, scope] of cases) assert.equal(hostScope(host), scope, host);
});

test('the summary names transports, protocol versions and the headers a connection needs, never their values', () => {
  const summary = summarizeCard({
    ...CARD,
    remotes: [...CARD.remotes, { type: 'sse', url: 'https://{tenant}.example.com/sse' }],
  } as never);
  assert.equal(summary.needsCredentials, true);
  assert.deepEqual(summary.remotes[0].headers, [{ name: 'Authorization', required: true, secret: true }]);
  assert.deepEqual(summary.remotes[0].protocolVersions, ['2025-11-25', '2026-07-28']);
  assert.equal(summary.remotes[1].templated, true);
  assert.equal(JSON.stringify(summary).includes('Bearer'), false);
});
