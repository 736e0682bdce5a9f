/**
 * The card a server was added from, compared at its first connection (src/workbench/serverCards/afterAdd.ts): once,
 * then forgotten; nothing to say when the server answers as its card says; other servers and stale records untouched.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD } from '../../../fixtures/http/cardServer';
import {
  decideOnConnect,
  forgetCard,
  MAX_PENDING_CARDS,
  pendingCardsOf,
  PENDING_CARD_MAX_AGE_MS,
  rememberCard,
} from '../../../../src/workbench/serverCards/afterAdd';
import type { ServerCard } from '../../../../src/workbench/serverCards/cards';
import type { ObservedServer } from '../../../../src/workbench/serverCards/compare';

const card = CARD as ServerCard;
const identity = 'workspace:/w/.vscode/mcp.json#weather';
const asCard: ObservedServer = {
  serverInfo: { name: 'com.example/weather', version: '1.2.0', title: 'Weather' },
  protocolVersion: '2026-07-28',
  transport: 'streamable-http',
  url: 'https://example.com/mcp',
};
const NOW = 1_800_000_000_000;

test('a server added from its card is compared at its first connection only, then the card is forgotten', () => {
  let stored: unknown = rememberCard(undefined, identity, card, NOW);
  const differing = { ...asCard, serverInfo: { ...asCard.serverInfo, version: '1.3.0' } };
  const first = decideOnConnect(stored, identity, differing, NOW + 1000);
  assert.equal(first.kind, 'compared');
  assert.deepEqual(first.kind === 'compared' && first.differences, [
    { kind: 'version', card: '1.2.0', server: '1.3.0' },
  ]);
  stored = first.kind === 'compared' ? first.next : stored;
  assert.deepEqual(stored, {});
  // The next connection (a restart) says nothing more.
  assert.deepEqual(decideOnConnect(stored, identity, differing, NOW + 2000), { kind: 'none' });
});

test('a server that answers as its card says: compared, no differences (the host shows nothing)', () => {
  const decision = decideOnConnect(rememberCard({}, identity, card, NOW), identity, asCard, NOW + 1);
  assert.deepEqual(decision, { kind: 'compared', differences: [], next: {} });
});

test('another server, even of the same name in another file, finds no card', () => {
  const stored = rememberCard({}, identity, card, NOW);
  assert.deepEqual(decideOnConnect(stored, 'user#weather', asCard, NOW), { kind: 'none' });
  assert.deepEqual(decideOnConnect(stored, 'workspace:/other/.vscode/mcp.json#weather', asCard, NOW), {
    kind: 'none',
  });
  assert.deepEqual(Object.keys(pendingCardsOf(stored)), [identity]);
});

test('a card that waited past its age is forgotten without a comparison', () => {
  const stored = rememberCard({}, identity, card, NOW);
  assert.deepEqual(decideOnConnect(stored, identity, asCard, NOW + PENDING_CARD_MAX_AGE_MS + 1), {
    kind: 'expired',
    next: {},
  });
});

test('the record is bounded, checked when read, and an add that failed forgets its card', () => {
  let stored: unknown = {};
  for (let index = 0; index < MAX_PENDING_CARDS + 5; index++)
    stored = rememberCard(stored, `user#s${index}`, card, NOW + index);
  const kept = Object.keys(pendingCardsOf(stored));
  assert.equal(kept.length, MAX_PENDING_CARDS);
  assert.ok(kept.includes(`user#s${MAX_PENDING_CARDS + 4}`) && !kept.includes('user#s0'));
  assert.deepEqual(
    pendingCardsOf({ a: { card: { name: 1 }, at: NOW }, b: 'x', c: { card, at: 'now' }, d: { card, at: NOW } }),
    { d: { card, at: NOW } },
  );
  assert.deepEqual(pendingCardsOf([]), {});
  assert.deepEqual(forgetCard(rememberCard({}, identity, card, NOW), identity), {});
});
