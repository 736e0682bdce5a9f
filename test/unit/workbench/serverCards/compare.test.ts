/**
 * A card against the live connection (src/workbench/serverCards/compare.ts): what differs is listed with both values;
 * a remote's `{variables}` are matched without a regular expression.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD } from '../../../fixtures/http/cardServer';
import {
  compareCard,
  remoteMatches,
  suggestedHeaders,
  type ObservedServer,
} from '../../../../src/workbench/serverCards/compare';
import type { ServerCard } from '../../../../src/workbench/serverCards/cards';

const card = CARD as ServerCard;
const observed: ObservedServer = {
  serverInfo: { name: 'com.example/weather', version: '1.2.0', title: 'Weather' },
  protocolVersion: '2026-07-28',
  transport: 'streamable-http',
  url: 'https://example.com/mcp',
};

test('a server that answers as its card says has no differences', () => {
  assert.deepEqual(compareCard(card, observed), []);
  assert.deepEqual(compareCard(card, { ...observed, url: 'https://example.com/mcp/' }), []);
});

test('name, version and title that differ, a revision the card does not list, and another transport are listed', () => {
  const differences = compareCard(card, {
    serverInfo: { name: 'weather-server', version: '1.3.0', title: 'Weather Pro', description: 'Other words.' },
    protocolVersion: '2025-06-18',
    transport: 'sse',
    url: 'https://example.com/mcp',
  });
  assert.deepEqual(differences, [
    { kind: 'name', card: 'com.example/weather', server: 'weather-server' },
    { kind: 'version', card: '1.2.0', server: '1.3.0' },
    { kind: 'title', card: 'Weather', server: 'Weather Pro' },
    { kind: 'description', card: 'Forecasts and alerts for any city.', server: 'Other words.' },
    { kind: 'transport', card: 'streamable-http', server: 'sse' },
    { kind: 'protocol-version', card: ['2025-11-25', '2026-07-28'], server: '2025-06-18' },
  ]);
});

test('a URL the card does not list is said; a card without remotes says nothing of URLs', () => {
  assert.deepEqual(compareCard(card, { ...observed, url: 'https://other.example/mcp' }), [
    { kind: 'url-not-listed', url: 'https://other.example/mcp' },
  ]);
  const { remotes: _remotes, ...bare } = card;
  assert.deepEqual(compareCard(bare as ServerCard, { ...observed, url: 'https://other.example/mcp' }), []);
});

test('a templated remote matches each variable to at least one character, literal parts in order', () => {
  const remote = { url: 'https://{tenant}.example.com/{region}/mcp' };
  assert.equal(remoteMatches(remote, 'https://acme.example.com/eu/mcp'), true);
  assert.equal(remoteMatches(remote, 'https://.example.com/eu/mcp'), false);
  assert.equal(remoteMatches(remote, 'https://acme.example.com//mcp'), false);
  assert.equal(remoteMatches(remote, 'https://acme.example.org/eu/mcp'), false);
  assert.equal(remoteMatches({ url: '{base}/mcp' }, 'https://x.example/mcp'), true);
  assert.equal(remoteMatches({ url: 'https://a.example/mcp' }, 'https://a.example/mcp/'), true);
  // A long hostile template costs a scan, not a backtracking search.
  const hostile = { url: `https://${'{a}'.repeat(5000)}x` };
  assert.equal(remoteMatches(hostile, `https://${'a'.repeat(100_000)}`), false);
});

test("Add Server's header suggestion: required, plain header names of the card, never a value; the input id names the typed host", () => {
  const hostile = {
    ...card,
    remotes: [
      {
        type: 'streamable-http' as const,
        url: 'https://example.com/mcp',
        headers: [
          { name: 'Authorization', isRequired: true, isSecret: true, value: '${env:HOME}' },
          { name: 'X-Tenant', isRequired: true },
          { name: 'X-Optional' },
          { name: 'Bad: ${env:HOME}', isRequired: true },
          { name: 'X-A\nInjected', isRequired: true },
        ],
      },
    ],
  };
  assert.deepEqual(suggestedHeaders(hostile, 'https://example.com/mcp'), [
    { name: 'Authorization', inputId: 'header-example.com-authorization', secret: true },
    { name: 'X-Tenant', inputId: 'header-example.com-x-tenant', secret: false },
  ]);
  assert.deepEqual(suggestedHeaders(hostile, 'https://other.example/mcp'), []);
});
