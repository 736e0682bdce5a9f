/**
 * Events (SEP-3415) over the in-memory link with fake timers: every poll, stream and refresh is the test's step.
 * Poll honours nextPollMs, the floor and hasMore, keeps the fresh cursor after `truncated` and never replays a null
 * cursor; duplicates by eventId are dropped and counted; payloads are checked against the payloadSchema; a silent
 * push stream is reopened from its last cursor; a webhook grant is refreshed before refreshBefore and unsubscribed at
 * stop; a server without the extension gets no events/* request; stop leaves no timer running.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { McpClient } from '../../../../../src/protocol/client';
import {
  enableEvents,
  eventsExtension,
  type EventsApi,
  type EventType,
  type FeedItem,
  type WebhookEndpointFactory,
} from '../../../../../src/protocol/extensions/events';
import type { JsonObject } from '../../../../../src/protocol/types';
import { createLinkedPair, type MemoryServerEndpoint } from '../../../../support/memoryTransport';

const EXT = 'io.modelcontextprotocol/events';
const SUB = 'io.modelcontextprotocol/subscriptionId';

const cleanups: Array<() => Promise<void>> = [];
beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: Date.parse('2026-12-07T10:00:00Z') }));
afterEach(async () => {
  mock.timers.reset();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Lets every pending promise and I/O callback run (no time passes: the timers are fake). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Lets what is pending run (an answer schedules its next step), then moves the clock by `ms`. */
async function tick(ms: number): Promise<void> {
  await settle();
  mock.timers.tick(ms);
  await settle();
}

async function connected(
  /** null: the server declares no events extension. */
  settings: JsonObject | null = {},
  webhookEndpoint?: WebhookEndpointFactory,
): Promise<{ client: McpClient; server: MemoryServerEndpoint; events: EventsApi }> {
  const { client: transport, server } = createLinkedPair({ kind: 'streamable-http' });
  const client = new McpClient({
    serverName: 'events',
    transport,
    era: '2026-07-28',
    extensions: [enableEvents({ webhookEndpoint })],
    requestTimeoutMs: 600_000,
  });
  cleanups.push(() => client.close());
  const connecting = client.connect();
  const discover = await server.nextRequest('server/discover');
  server.respond(discover.id, {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: settings === null ? { tools: {} } : { tools: {}, extensions: { [EXT]: settings } },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'events', version: '1.0.0' } },
  });
  await connecting;
  const events = client.extension(eventsExtension);
  assert.ok(events);
  return { client, server, events };
}

const TICKS = {
  name: 'ticks',
  description: 'A counter',
  delivery: ['poll', 'push', 'webhook'],
  inputSchema: { type: 'object', properties: { every: { type: 'integer' } } },
  payloadSchema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
};

async function listed(server: MemoryServerEndpoint, events: EventsApi): Promise<EventType> {
  const listing = events.list();
  const request = await server.nextRequest('events/list');
  server.respond(request.id, { resultType: 'complete', events: [TICKS, { name: 'broken' }] });
  const { types, invalid } = await listing;
  assert.deepEqual(
    invalid.map((entry) => entry.name),
    ['broken'],
  );
  return types[0];
}

function occurrence(eventId: string, data: JsonObject, cursor?: string | null): JsonObject {
  return {
    eventId,
    name: 'ticks',
    timestamp: new Date().toISOString(),
    data,
    ...(cursor === undefined ? {} : { cursor }),
  };
}

function count(server: MemoryServerEndpoint, method: string): number {
  return server.sent.filter((sent) => sent.message.method === method).length;
}

function paramsOf(sent: { message: Record<string, unknown> }): JsonObject {
  return sent.message.params as JsonObject;
}

test('poll: hasMore drains at once, nextPollMs and the 1000 ms floor are honoured, truncated keeps the fresh cursor', async () => {
  const { server, events } = await connected();
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'poll', { arguments: { every: 1 } }, (item) => items.push(item));

  let poll = await server.nextRequest('events/poll');
  assert.equal(paramsOf(poll).cursor, null);
  const declared = (paramsOf(poll)._meta as JsonObject)['io.modelcontextprotocol/clientCapabilities'] as JsonObject;
  assert.deepEqual((declared.extensions as JsonObject)[EXT], {}, 'the extension is declared on each request');
  assert.deepEqual(paramsOf(poll).arguments, { every: 1 });
  server.respond(poll.id, {
    resultType: 'complete',
    events: [occurrence('e1', { n: 1 })],
    cursor: 'c1',
    hasMore: true,
    nextPollMs: 3000,
  });
  await tick(0);
  poll = await server.nextRequest('events/poll');
  assert.equal(paramsOf(poll).cursor, 'c1', 'hasMore: polled again at once, from the cursor');
  server.respond(poll.id, {
    resultType: 'complete',
    events: [occurrence('e1', { n: 1 }), occurrence('e2', { n: 'two' }), occurrence('x'.repeat(513), { n: 3 })],
    cursor: 'c2',
    hasMore: false,
    nextPollMs: 2000,
  });
  await tick(1999);
  assert.equal(count(server, 'events/poll'), 2, 'nextPollMs 2000: nothing before it');
  await tick(1);
  poll = await server.nextRequest('events/poll');
  assert.equal(paramsOf(poll).cursor, 'c2');
  server.respond(poll.id, { resultType: 'complete', events: [], cursor: 'c3', hasMore: false, nextPollMs: 0 });
  await tick(999);
  assert.equal(count(server, 'events/poll'), 3, 'nextPollMs 0: the floor holds');
  await tick(1);
  poll = await server.nextRequest('events/poll');
  server.respond(poll.id, { resultType: 'complete', events: [], cursor: 'fresh', truncated: true, nextPollMs: 1000 });
  await tick(1000);
  poll = await server.nextRequest('events/poll');
  assert.equal(paramsOf(poll).cursor, 'fresh', 'the fresh cursor of a truncated answer is the next one sent');
  // An absent cursor means null: the next poll starts from now, and nothing fails.
  server.respond(poll.id, { resultType: 'complete', events: [], nextPollMs: 1000 });
  await tick(1000);
  poll = await server.nextRequest('events/poll');
  assert.equal(paramsOf(poll).cursor, null);

  const delivered = items.filter((item) => item.kind === 'event');
  assert.deepEqual(
    delivered.map((item) => [item.eventId, item.payload.kind]),
    [
      ['e1', 'valid'],
      ['e2', 'invalid'],
    ],
  );
  assert.deepEqual(
    items.filter((item) => item.kind === 'gap').map((item) => item.kind === 'gap' && item.cursor),
    ['fresh'],
  );
  assert.equal(subscription.stats.duplicates, 1);
  assert.equal(subscription.stats.delivered, 2);
  assert.equal(subscription.stats.refused, 1, 'an eventId past 512 characters is refused, not remembered');

  server.respond(poll.id, { resultType: 'complete', events: [], cursor: null, nextPollMs: 1000 });
  await subscription.stop();
  await tick(60_000);
  assert.equal(count(server, 'events/poll'), 6, 'no poll after stop');
  assert.deepEqual(events.active(), []);
});

test('poll: a terminal error ends the subscription; a transport-like failure is retried after a backoff', async () => {
  const { server, events } = await connected();
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'poll', {}, (item) => items.push(item));
  let poll = await server.nextRequest('events/poll');
  server.respondError(poll.id, -32603, 'upstream down');
  await tick(999);
  assert.equal(count(server, 'events/poll'), 1);
  await tick(1);
  poll = await server.nextRequest('events/poll');
  server.respondError(poll.id, -32024, 'Forbidden');
  await subscription.ended;
  assert.ok(items.some((item) => item.kind === 'status' && item.status === 'terminated'));
  await tick(60_000);
  assert.equal(count(server, 'events/poll'), 2);
});

test('push: a stream silent for twice its heartbeat interval is reopened from the last cursor; old ids are ignored', async () => {
  const { server, events } = await connected();
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'push', {}, (item) => items.push(item));
  const stream = await server.nextRequest('events/stream');
  assert.equal(paramsOf(stream).cursor, null);
  const meta = { [SUB]: stream.id };
  server.notify('notifications/events/active', { cursor: 'p-0', truncated: false, _meta: meta });
  server.notify('notifications/events/event', { ...occurrence('a', { n: 1 }, 'p-0'), _meta: meta });
  server.notify('notifications/events/event', { ...occurrence('a', { n: 1 }, 'p-0'), _meta: meta });
  await tick(500);
  server.notify('notifications/events/heartbeat', { cursor: 'p-1', _meta: meta });
  await tick(500);
  server.notify('notifications/events/heartbeat', { cursor: 'p-2', _meta: meta });
  await tick(999);
  assert.equal(count(server, 'events/stream'), 1, 'not dead yet');
  await tick(1);
  assert.equal(count(server, 'events/stream'), 2, 'dead after twice the 500 ms heartbeat interval: reopened');
  const again = await server.nextRequest('events/stream');
  assert.equal(paramsOf(again).cursor, 'p-2');
  // A frame that still names the first stream belongs to no subscription any more.
  server.notify('notifications/events/event', { ...occurrence('late', { n: 9 }, 'p-9'), _meta: meta });
  const meta2 = { [SUB]: again.id };
  server.notify('notifications/events/active', { cursor: 'q-0', truncated: true, _meta: meta2 });
  server.notify('notifications/events/terminated', { error: { code: -32024, message: 'Forbidden' }, _meta: meta2 });
  await subscription.ended;
  assert.deepEqual(
    items.filter((item) => item.kind === 'event').map((item) => item.kind === 'event' && item.eventId),
    ['a'],
  );
  assert.equal(subscription.stats.duplicates, 1);
  assert.equal(subscription.stats.gaps, 1);
  assert.equal(subscription.cursor, 'q-0');
  await tick(120_000);
  assert.equal(count(server, 'events/stream'), 2, 'a terminated stream is not reopened');
});

test('webhook: a loopback endpoint, refreshed before refreshBefore with the same key, unsubscribed and closed at stop', async () => {
  let deliver: ((body: JsonObject) => void) | undefined;
  let closed = 0;
  const endpoint: WebhookEndpointFactory = async ({ secret, onBody }) => {
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    deliver = onBody;
    return { url: 'http://127.0.0.1:9/events/abc', close: async () => void closed++ };
  };
  const { server, events } = await connected({}, endpoint);
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'webhook', { arguments: { every: 2 } }, (item) => items.push(item));
  const first = await server.nextRequest('events/subscribe');
  const params = paramsOf(first);
  assert.deepEqual(params.delivery && { ...(params.delivery as JsonObject), secret: 'x' }, {
    mode: 'webhook',
    url: 'http://127.0.0.1:9/events/abc',
    secret: 'x',
  });
  assert.equal(params.cursor, null);
  server.respond(first.id, {
    resultType: 'complete',
    id: 'sub-1',
    cursor: 'w-0',
    refreshBefore: new Date(Date.now() + 2500).toISOString(),
  });
  await tick(1249);
  assert.equal(count(server, 'events/subscribe'), 1);
  await tick(1);
  assert.equal(count(server, 'events/subscribe'), 2, 'refreshed halfway through the 2.5 s grant');
  const refresh = await server.nextRequest('events/subscribe');
  assert.equal(paramsOf(refresh).cursor, 'w-0');
  assert.deepEqual(paramsOf(refresh).arguments, { every: 2 });
  assert.equal((paramsOf(refresh).delivery as JsonObject).url, 'http://127.0.0.1:9/events/abc');
  server.respond(refresh.id, { resultType: 'complete', id: 'sub-1', cursor: null, refreshBefore: null });
  await settle();
  deliver?.(occurrence('w1', { n: 1 }, 'w-1'));
  deliver?.(occurrence('w1', { n: 1 }, 'w-1'));
  deliver?.({ type: 'gap', cursor: 'w-5' });
  assert.equal(subscription.cursor, 'w-5');
  await tick(24 * 60 * 60_000);
  assert.equal(count(server, 'events/subscribe'), 2, 'refreshBefore null: never refreshed');

  const stopping = subscription.stop();
  const unsubscribe = await server.nextRequest('events/unsubscribe');
  assert.deepEqual(paramsOf(unsubscribe).delivery, { url: 'http://127.0.0.1:9/events/abc' });
  assert.deepEqual(paramsOf(unsubscribe).arguments, { every: 2 });
  server.respond(unsubscribe.id, { resultType: 'complete' });
  await stopping;
  assert.equal(closed, 1);
  assert.deepEqual(
    items.map((item) => (item.kind === 'status' ? item.status : item.kind)),
    ['active', 'refreshed', 'event', 'gap', 'stopped'],
  );
  assert.equal(subscription.stats.duplicates, 1);
});

test('webhook: a terminated envelope ends the subscription without an unsubscribe; the endpoint is closed', async () => {
  let deliver: ((body: JsonObject) => void) | undefined;
  let closed = 0;
  const endpoint: WebhookEndpointFactory = async ({ onBody }) => {
    deliver = onBody;
    return { url: 'http://127.0.0.1:9/events/t', close: async () => void closed++ };
  };
  const { server, events } = await connected({}, endpoint);
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'webhook', {}, (item) => items.push(item));
  const first = await server.nextRequest('events/subscribe');
  server.respond(first.id, {
    resultType: 'complete',
    id: 'sub-1',
    cursor: null,
    refreshBefore: new Date(Date.now() + 60_000).toISOString(),
  });
  await settle();
  deliver?.({ type: 'terminated', error: { code: -32024, message: 'Forbidden', data: { reason: 'Access revoked' } } });
  await settle();
  assert.equal(closed, 1, 'ended at once: the endpoint is closed');
  await subscription.ended;
  await tick(120_000);
  assert.equal(count(server, 'events/subscribe'), 1, 'no refresh after termination');
  assert.equal(count(server, 'events/unsubscribe'), 0, 'the server no longer has it');
  const last = items.at(-1);
  assert.ok(last?.kind === 'status' && last.status === 'terminated' && last.message === 'Forbidden (code -32024)');
});

test('webhook: an endpoint that is not on this machine is never offered to the server', async () => {
  let closed = 0;
  const endpoint: WebhookEndpointFactory = async () => ({
    url: 'https://hooks.example.com/x',
    close: async () => void closed++,
  });
  const { server, events } = await connected({}, endpoint);
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'webhook', {}, (item) => items.push(item));
  await settle();
  assert.equal(count(server, 'events/subscribe'), 0);
  await subscription.ended;
  assert.equal(closed, 1);
  assert.ok(items.some((item) => item.kind === 'status' && item.status === 'terminated'));
});

test('a server without the extension gets no events/* request', async () => {
  const { server, events } = await connected(null);
  assert.equal(events.supported, false);
  // Raced with a turn of the loop: a list that went out would wait for an answer instead of failing.
  const outcome = await Promise.race([
    events.list().then(
      () => 'listed',
      (error: unknown) => error,
    ),
    settle().then(() => 'still waiting'),
  ]);
  assert.match(String(outcome), /does not offer the io.modelcontextprotocol\/events extension/);
  assert.throws(() => events.subscribe({ name: 'ticks', delivery: ['poll'] }, 'poll', {}, () => {}));
  assert.equal(server.sent.filter((sent) => String(sent.message.method).startsWith('events/')).length, 0);
});

test('list_changed is asked for on subscriptions/listen while heard, and fires the listener', async () => {
  const { server, events } = await connected({ listChanged: true });
  let fired = 0;
  const listening = events.onListChanged(() => fired++);
  const listen = await server.nextRequest('subscriptions/listen');
  assert.equal((paramsOf(listen).notifications as JsonObject).eventsListChanged, true);
  server.notify('notifications/events/list_changed', { _meta: { [SUB]: listen.id } });
  await settle();
  assert.equal(fired, 1);
  listening.dispose();
  server.notify('notifications/events/list_changed', { _meta: { [SUB]: listen.id } });
  await settle();
  assert.equal(fired, 1);
});

/** A push subscription on a client that allows 3 events per second, and its open stream. */
async function floodSubscription() {
  const { client: transport, server } = createLinkedPair({ kind: 'streamable-http' });
  const client = new McpClient({
    serverName: 'events',
    transport,
    era: '2026-07-28',
    extensions: [enableEvents({ limits: { maxEventsPerSecond: 3 } })],
    requestTimeoutMs: 600_000,
  });
  cleanups.push(() => client.close());
  const connecting = client.connect();
  const discover = await server.nextRequest('server/discover');
  server.respond(discover.id, {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { extensions: { [EXT]: {} } },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'events', version: '1.0.0' } },
  });
  await connecting;
  const events = client.extension(eventsExtension);
  assert.ok(events);
  const type = await listed(server, events);
  const items: FeedItem[] = [];
  const subscription = events.subscribe(type, 'push', {}, (item) => items.push(item));
  const stream = await server.nextRequest('events/stream');
  return { server, items, subscription, stream };
}

test('a flood past maxEventsPerSecond is dropped, counted and marked as one gap', async () => {
  const { server, items, subscription, stream } = await floodSubscription();
  for (let i = 0; i < 10; i++)
    server.notify('notifications/events/event', {
      ...occurrence(`f${i}`, { n: i }, null),
      _meta: { [SUB]: stream.id },
    });
  await tick(1000);
  server.notify('notifications/events/event', { ...occurrence('after', { n: 1 }, null), _meta: { [SUB]: stream.id } });
  assert.equal(subscription.stats.delivered, 4);
  assert.equal(subscription.stats.floodDropped, 7);
  const gap = items.find((item) => item.kind === 'gap');
  assert.ok(gap && gap.kind === 'gap' && gap.reason === 'flood' && gap.dropped === 7);
  await subscription.stop();
});

test('a flood followed by silence is marked as a gap when its second ends, not only at the next event or at stop', async () => {
  const { server, items, subscription, stream } = await floodSubscription();
  for (let i = 0; i < 5; i++)
    server.notify('notifications/events/event', {
      ...occurrence(`q${i}`, { n: i }, null),
      _meta: { [SUB]: stream.id },
    });
  await settle();
  assert.equal(subscription.stats.floodDropped, 2);
  assert.equal(items.filter((item) => item.kind === 'gap').length, 0, 'the window is still open');
  await tick(1000);
  const gaps = items.filter((item) => item.kind === 'gap');
  assert.equal(gaps.length, 1);
  assert.ok(gaps[0].kind === 'gap' && gaps[0].reason === 'flood' && gaps[0].dropped === 2);
  await subscription.stop();
  assert.equal(items.filter((item) => item.kind === 'gap').length, 1, 'stop marks no second gap');
});
