/**
 * Replay and Edit and Send from the Protocol view: what may be sent again (one client request, not a session's own
 * request nor a server's), why anything else is refused, what Replay takes from a row (the original when its text was
 * masked), the mark a replayed request gets, and pinned rows kept when the log is cleared or rolls.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolLog, MAX_PINNED } from '../../../../src/workbench/protocolLog/protocolLog';
import { checkEditedRequest, checkRequest, toolNameOf } from '../../../../src/workbench/protocolLog/replay';
import type { MessageEvent } from '../../../../src/workbench/protocolLog/wireEvent';

const refusal = (text: string) => {
  const check = checkEditedRequest(text);
  assert.equal(check.ok, false, text);
  return check.ok ? undefined : check.refusal;
};

describe('checkEditedRequest', () => {
  it('takes a request: its method and params, without the old progress token', () => {
    const check = checkEditedRequest(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'hi' }, _meta: { progressToken: 3, other: 'kept' } },
      }),
    );
    assert.deepEqual(check, {
      ok: true,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' }, _meta: { other: 'kept' } },
    });
    assert.equal(toolNameOf(check), 'echo');
    assert.deepEqual(checkEditedRequest('{"jsonrpc":"2.0","id":"a","method":"ping"}'), {
      ok: true,
      method: 'ping',
      params: undefined,
    });
  });

  it('refuses invalid JSON, a non-request, a server-to-client method and the session requests, with the reason', () => {
    assert.equal(refusal('{"method": "tools/list",')?.kind, 'invalid-json');
    assert.deepEqual(refusal('"tools/list"'), { kind: 'not-object' });
    assert.deepEqual(refusal('[{"jsonrpc":"2.0","id":1,"method":"ping"}]'), { kind: 'not-request', what: 'batch' });
    assert.deepEqual(refusal('{"jsonrpc":"2.0","method":"notifications/initialized"}'), {
      kind: 'not-request',
      what: 'notification',
    });
    assert.deepEqual(refusal('{"jsonrpc":"2.0","id":1,"result":{}}'), { kind: 'not-request', what: 'response' });
    assert.deepEqual(refusal('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}'), { kind: 'bad-params' });
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list'])
      assert.deepEqual(refusal(JSON.stringify({ jsonrpc: '2.0', id: 1, method })), { kind: 'server-method', method });
    for (const method of ['initialize', 'server/discover', 'subscriptions/listen'])
      assert.deepEqual(refusal(JSON.stringify({ jsonrpc: '2.0', id: 1, method })), { kind: 'session-method', method });
    assert.deepEqual(
      refusal('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"key":"••••"}}}'),
      { kind: 'masked' },
    );
  });

  it('checkRequest refuses a missing method like a non-object', () => {
    assert.deepEqual(checkRequest({ id: 1 }), { ok: false, refusal: { kind: 'not-object' } });
  });
});

function sent(log: ProtocolLog, id: number, method: string, params?: Record<string, unknown>): MessageEvent {
  log.message('send', { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
  return log.events().at(-1) as MessageEvent;
}

describe('ProtocolLog replay and pins', () => {
  it('replays a request from its text, and from the original when its text was masked', () => {
    const log = new ProtocolLog(() => ['s3cret-value']);
    const plain = sent(log, 1, 'tools/call', { name: 'echo', arguments: { message: 'hi' } });
    const secret = sent(log, 2, 'tools/call', { name: 'login', arguments: { key: 's3cret-value' } });
    log.message('receive', { jsonrpc: '2.0', id: 2, result: {} });
    assert.deepEqual(log.replaySource(plain.seq), {
      ok: true,
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hi' } },
    });
    assert.ok(!secret.text.includes('s3cret-value'), 'the row is masked');
    assert.deepEqual(log.replaySource(secret.seq), {
      ok: true,
      method: 'tools/call',
      params: { name: 'login', arguments: { key: 's3cret-value' } },
    });
    assert.deepEqual(log.replaySource(secret.seq + 1), { ok: false, refusal: { kind: 'not-sent-request' } });
    assert.deepEqual(log.replaySource(999), { ok: false, refusal: { kind: 'not-sent-request' } });
  });

  it('refuses a row the log kept only the start of', () => {
    const log = new ProtocolLog(() => [], { maxEvents: 100, maxBytes: 1 << 20, maxMessageChars: 64 });
    const big = sent(log, 1, 'tools/call', { name: 'echo', arguments: { message: 'x'.repeat(200) } });
    assert.equal(big.truncated, true);
    assert.deepEqual(log.replaySource(big.seq), { ok: false, refusal: { kind: 'truncated' } });
  });

  it('marks the next request of the method as the replay of its row, once', () => {
    const log = new ProtocolLog();
    const original = sent(log, 1, 'tools/list');
    log.expectReplay('tools/call', original.seq, true);
    log.expectReplay('tools/list', original.seq);
    const other = sent(log, 2, 'prompts/list');
    const replay = sent(log, 3, 'tools/list');
    const later = sent(log, 4, 'tools/list');
    const edited = sent(log, 5, 'tools/call', { name: 'x' });
    assert.equal(other.replayOf, undefined);
    assert.equal(replay.replayOf, original.seq);
    assert.equal(replay.edited, undefined);
    assert.equal(later.replayOf, undefined);
    assert.equal(edited.replayOf, original.seq);
    assert.equal(edited.edited, true);
    log.expectReplay('ping', original.seq);
    log.forgetReplay('ping', original.seq);
    assert.equal(sent(log, 6, 'ping').replayOf, undefined, 'a forgotten replay marks nothing');
  });

  it('keeps pinned rows when cleared and when the ring rolls, in row order, up to its bound', () => {
    const log = new ProtocolLog(() => [], { maxEvents: 3, maxBytes: 1 << 20, maxMessageChars: 1024 });
    const first = sent(log, 1, 'tools/list');
    const second = sent(log, 2, 'prompts/list');
    let changes = 0;
    log.onDidChangePins(() => changes++);
    assert.equal(log.pin(second.seq), 'pinned');
    assert.equal(log.pin(first.seq), 'pinned');
    for (let id = 3; id < 10; id++) sent(log, id, 'ping');
    assert.ok(!log.events().some((event) => event.seq === first.seq), 'the ring rolled past the pinned rows');
    log.clear();
    assert.deepEqual(
      log.pinned().map((event) => event.seq),
      [first.seq, second.seq],
    );
    assert.equal(log.replaySource(first.seq).ok, true, 'a pinned row can still be replayed');
    log.unpin(first.seq);
    assert.deepEqual(
      log.pinned().map((event) => event.seq),
      [second.seq],
    );
    assert.equal(changes, 3);
    assert.equal(log.pin(12345), 'gone', 'a row not kept cannot be pinned');

    const many = new ProtocolLog();
    for (let id = 0; id <= MAX_PINNED; id++) sent(many, id, 'ping');
    const rows = many.events().map((event) => event.seq);
    for (const seq of rows.slice(0, MAX_PINNED)) assert.equal(many.pin(seq), 'pinned');
    assert.equal(many.pin(rows[MAX_PINNED]), 'full', `at most ${MAX_PINNED} pins`);
  });
});
