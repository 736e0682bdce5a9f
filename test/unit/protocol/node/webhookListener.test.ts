/**
 * The loopback receiver of Events webhook deliveries: only a POST to its path whose Standard Webhooks signature
 * verifies and whose timestamp is fresh reaches the subscription, once per webhook-id; the verification challenge is
 * echoed; a body past the cap is refused; close leaves the port closed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newWebhookSecret } from '../../../../src/protocol/extensions/events';
import { openWebhookListener, webhookSignature } from '../../../../src/protocol/node/webhookListener';
import type { JsonObject } from '../../../../src/protocol/types';

async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { status: response.status, text: await response.text() };
}

function signed(secret: string, id: string, body: string, at = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(at / 1000));
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': webhookSignature(secret, id, timestamp, body),
    'x-mcp-subscription-id': 'sub-1',
  };
}

test('only signed, fresh deliveries reach the subscription, each webhook-id once; the challenge is echoed', async () => {
  const secret = newWebhookSecret();
  const bodies: JsonObject[] = [];
  const listener = await openWebhookListener({ secret, onBody: (body) => bodies.push(body), maxBodyBytes: 1024 });
  try {
    assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+\/events\/[0-9a-f]{32}$/);
    const event = JSON.stringify({ eventId: 'e1', name: 'ticks', timestamp: 'now', data: { n: 1 }, cursor: 'c1' });
    assert.equal((await post(listener.url, event, signed(secret, 'e1', event))).status, 200);
    assert.equal((await post(listener.url, event, signed(secret, 'e1', event))).status, 200, 'a retry is acknowledged');
    const other = newWebhookSecret();
    assert.equal((await post(listener.url, event, signed(other, 'e2', event))).status, 401, 'another secret');
    const tampered = event.replace('"n":1', '"n":2');
    assert.equal((await post(listener.url, tampered, signed(secret, 'e3', event))).status, 401, 'a changed body');
    const stale = signed(secret, 'e4', event, Date.now() - 6 * 60_000);
    assert.equal((await post(listener.url, event, stale)).status, 400, 'older than five minutes');
    assert.equal((await post(listener.url, event, {})).status, 400, 'no signature headers');
    assert.equal(
      (await post(`${new URL(listener.url).origin}/events/guess`, event, signed(secret, 'e5', event))).status,
      404,
    );
    const challenge = JSON.stringify({ type: 'verification', challenge: 'nonce-1' });
    const answered = await post(listener.url, challenge, signed(secret, 'msg_verification_1', challenge));
    assert.deepEqual([answered.status, JSON.parse(answered.text)], [200, { challenge: 'nonce-1' }]);
    const big = JSON.stringify({ eventId: 'e6', data: { pad: 'x'.repeat(2000) } });
    assert.equal((await post(listener.url, big, signed(secret, 'e6', big))).status, 413);
    assert.deepEqual(
      bodies.map((body) => body.eventId),
      ['e1'],
    );
    assert.equal(listener.refused['bad signature'], 2);
  } finally {
    await listener.close();
  }
  await assert.rejects(fetch(listener.url, { method: 'POST', body: '{}' }), 'closed: nothing listens any more');
});

test('a malformed secret is refused before a port is opened', async () => {
  await assert.rejects(openWebhookListener({ secret: 'plain', onBody: () => {} }), /whsec_/);
});
