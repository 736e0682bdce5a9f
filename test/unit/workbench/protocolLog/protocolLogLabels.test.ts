/**
 * What the Protocol view labels each message with: the revision the message carries or was sent under (never a
 * probe's revision on the handshake that followed it), and the request a response or a notification refers to, by
 * row (`relatedSeq`) and by JSON-RPC id (`relatedId`), kept apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtocolLog } from '../../../../src/workbench/protocolLog/protocolLog';
import type { MessageEvent } from '../../../../src/workbench/protocolLog/wireEvent';

const META = 'io.modelcontextprotocol/protocolVersion';

function wire(log: ProtocolLog) {
  const send = (message: object) => log.message('send', { jsonrpc: '2.0', ...message });
  const receive = (message: object) => log.message('receive', { jsonrpc: '2.0', ...message });
  const last = () => log.events().at(-1) as MessageEvent;
  return { send, receive, last };
}

test('era auto falling back to the handshake: the initialize request is labelled with what it asks for, not the probe', () => {
  const log = new ProtocolLog();
  const { send, receive, last } = wire(log);
  send({ id: 0, method: 'server/discover', params: { _meta: { [META]: '2026-07-28' } } });
  assert.equal(last().era, '2026-07-28', 'the probe carries 2026-07-28');
  receive({ id: 0, error: { code: -32601, message: 'Method not found' } });
  assert.equal(last().era, undefined, "the handshake server's refusal carries no revision");
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } });
  assert.equal(last().era, '2025-11-25', 'initialize is labelled with the revision its payload asks for');
  receive({
    id: 1,
    result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } },
  });
  assert.equal(last().era, '2025-06-18', 'its answer with the revision the server chose');
  send({ method: 'notifications/initialized' });
  assert.equal(last().era, '2025-06-18');
  send({ id: 2, method: 'tools/call', params: { name: 'echo' } });
  assert.equal(last().era, '2025-06-18', 'the session uses the settled revision');
  receive({ id: 2, result: { content: [] } });
  assert.equal(last().era, '2025-06-18');
  log.dispose();
});

test('a 2026-07-28 session: the discover answer settles the revision its request carried', () => {
  const log = new ProtocolLog();
  const { send, receive, last } = wire(log);
  send({ id: 0, method: 'server/discover', params: { _meta: { [META]: '2026-07-28' } } });
  receive({ id: 0, result: { supportedVersions: ['2026-07-28'], capabilities: {} } });
  assert.equal(last().era, '2026-07-28');
  receive({ method: 'notifications/message', params: { level: 'info', data: 'hi' } });
  assert.equal(last().era, '2026-07-28', "the server's notification is labelled with the session's revision");
  // A restart opens a new session: the old revision says nothing about its probe's refusal.
  send({ id: 0, method: 'server/discover', params: { _meta: { [META]: '2026-07-28' } } });
  receive({ id: 0, error: { code: -32601, message: 'Method not found' } });
  assert.equal(last().era, undefined);
  log.dispose();
});

test('a response refers to its request by row and by id, apart; progress and a cancellation name both too', () => {
  const log = new ProtocolLog();
  const { send, receive, last } = wire(log);
  for (let i = 0; i < 5; i++) log.console(`line ${i}`);
  send({ id: 7, method: 'tools/call', params: { name: 'slow', _meta: { progressToken: 'p1' } } });
  const request = last();
  assert.notEqual(request.seq, 7, 'the row number and the id differ here, so mixing them would show');
  receive({ method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } });
  assert.equal(last().relatedSeq, request.seq);
  assert.equal(last().relatedId, 7);
  send({ id: 8, method: 'tools/call', params: { name: 'other' } });
  const other = last();
  send({ method: 'notifications/cancelled', params: { requestId: 8 } });
  assert.equal(last().relatedSeq, other.seq);
  assert.equal(last().relatedId, 8);
  receive({ id: 7, result: { content: [] } });
  assert.equal(last().relatedSeq, request.seq, 'the row of the request');
  assert.equal(last().relatedId, 7, 'the JSON-RPC id of the request');
  log.dispose();
});
