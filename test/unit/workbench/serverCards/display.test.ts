/**
 * What a host shows of a card (src/workbench/serverCards/display.ts): the server's text escaped and cut, header names
 * without their values, and where the card was read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CARD } from '../../../fixtures/http/cardServer';
import { cardFacts, shownDifference, MAX_SHOWN_CHARS } from '../../../../src/workbench/serverCards/display';
import type { ServerCard } from '../../../../src/workbench/serverCards/cards';

const reading = (card: object, notes = [] as never[]) => ({
  requested: 'https://example.com/mcp/server-card',
  source: 'https://example.com/mcp/server-card',
  card: card as ServerCard,
  notes,
});

test("a card's facts: title, name, version, description, links, each remote with its revisions and header names, the source", () => {
  const facts = cardFacts(reading(CARD));
  assert.deepEqual(
    facts.map((fact) => fact.kind),
    ['title', 'name', 'version', 'description', 'website', 'repository', 'remote', 'headers', 'source'],
  );
  assert.deepEqual(facts[6], {
    kind: 'remote',
    transport: 'streamable-http',
    url: 'https://example.com/mcp',
    templated: false,
    versions: '2025-11-25, 2026-07-28',
  });
  assert.deepEqual(facts[7], {
    kind: 'headers',
    url: 'https://example.com/mcp',
    required: 'Authorization',
    optional: '',
    secret: 'Authorization',
  });
  assert.equal(JSON.stringify(facts).includes('Bearer'), false, "a header's value template is never shown");
});

test('control, bidirectional and line-breaking characters are escaped, markup stays text, long values are cut', () => {
  const facts = cardFacts(
    reading({ ...CARD, description: '<img src=x onerror=alert(1)>\u202Eevil\nFAKE', title: 'T'.repeat(1000) }),
  );
  const description = facts.find((fact) => fact.kind === 'description') as { value: string };
  assert.equal(description.value, '<img src=x onerror=alert(1)>\\u202Eevil\\u000AFAKE');
  const title = facts.find((fact) => fact.kind === 'title') as { value: string };
  assert.equal(title.value.length, MAX_SHOWN_CHARS + 1);
  assert(title.value.endsWith('…'));
});

test('a card without remotes says so; notes of how it was read come last', () => {
  const { remotes: _remotes, ...bare } = CARD;
  const facts = cardFacts(
    reading(bare, [{ kind: 'plain-http' }, { kind: 'redirected', to: 'https://example.com/x\u0007' }] as never[]),
  );
  assert.deepEqual(
    facts.slice(-4).map((fact) => fact.kind),
    ['no-remotes', 'source', 'plain-http', 'redirected'],
  );
  assert.deepEqual(facts.at(-1), { kind: 'redirected', to: 'https://example.com/x\\u0007' });
});

test('differences are escaped too', () => {
  assert.deepEqual(shownDifference({ kind: 'name', card: 'a\u202Eb', server: 'c' }), {
    kind: 'name',
    card: 'a\\u202Eb',
    server: 'c',
  });
});
