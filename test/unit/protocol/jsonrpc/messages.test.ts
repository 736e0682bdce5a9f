/** Pure unit tests of the base-protocol classification in src/protocol/jsonrpc/messages.ts. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkMetaKey,
  classifyIncoming,
  excerpt,
  responseIdFromFragment,
  unknownReservedMetaKeys,
  type Classified,
} from '../../../../src/protocol/jsonrpc/messages';

function violation(value: unknown): Extract<Classified, { kind: 'violation' }> {
  const classified = classifyIncoming(value);
  assert.equal(classified.kind, 'violation', `expected a violation for ${JSON.stringify(value)}`);
  return classified as Extract<Classified, { kind: 'violation' }>;
}

describe('classifyIncoming', { timeout: 10_000 }, () => {
  test('valid requests, notifications, results and errors', () => {
    assert.equal(classifyIncoming({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind, 'request');
    assert.equal(classifyIncoming({ jsonrpc: '2.0', id: 'abc', method: 'roots/list', params: {} }).kind, 'request');
    assert.equal(
      classifyIncoming({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } })
        .kind,
      'notification',
    );
    assert.equal(classifyIncoming({ jsonrpc: '2.0', id: 3, result: {} }).kind, 'result');
    assert.equal(classifyIncoming({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'nope' } }).kind, 'error');
  });

  test('an error response without id (or id null) is an orphan error', () => {
    const withoutId = classifyIncoming({ jsonrpc: '2.0', error: { code: -32600, message: 'bad' } });
    assert.deepEqual(withoutId, { kind: 'orphan-error', error: { code: -32600, message: 'bad' } });
    assert.equal(
      classifyIncoming({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse' } }).kind,
      'orphan-error',
    );
  });

  test('result and error together; matchable id kept', () => {
    const v = violation({ jsonrpc: '2.0', id: 4, result: {}, error: { code: 1, message: 'x' } });
    assert.equal(v.id, 4);
    assert.equal(v.isResponse, true);
    assert.match(v.reason, /both "result" and "error"/);
  });

  test('error codes must be integers', () => {
    assert.equal(violation({ jsonrpc: '2.0', id: 5, error: { code: 'abc', message: 'x' } }).id, 5);
    assert.match(
      violation({ jsonrpc: '2.0', id: 5, error: { code: 1.5, message: 'x' } }).reason,
      /1\.5 is not an integer/,
    );
    assert.match(violation({ jsonrpc: '2.0', id: 5, error: { code: 1 } }).reason, /message/);
    assert.match(violation({ jsonrpc: '2.0', id: 5, error: 'oops' }).reason, /must be an object/);
  });

  test('results must be objects', () => {
    assert.match(violation({ jsonrpc: '2.0', id: 6, result: null }).reason, /got null/);
    assert.match(violation({ jsonrpc: '2.0', id: 6, result: [] }).reason, /got an array/);
    assert.match(violation({ jsonrpc: '2.0', id: 6, result: 'text' }).reason, /got a string/);
    assert.equal(violation({ jsonrpc: '2.0', id: 6, result: 7 }).id, 6);
  });

  test('response ids: null, float and missing are violations without a matchable id', () => {
    for (const id of [null, 1.5, true, {}]) {
      const v = violation({ jsonrpc: '2.0', id, result: {} });
      assert.equal(v.id, undefined, `id ${JSON.stringify(id)}`);
      assert.equal(v.isResponse, true);
    }
    assert.equal(violation({ jsonrpc: '2.0', result: {} }).id, undefined);
    // A string id that looks like a number is still a valid (different) id.
    assert.equal(classifyIncoming({ jsonrpc: '2.0', id: '9', result: {} }).kind, 'result');
  });

  test('requests with a null or fractional id, and notifications carrying an id', () => {
    assert.match(violation({ jsonrpc: '2.0', id: null, method: 'ping' }).reason, /invalid id null/);
    assert.match(violation({ jsonrpc: '2.0', id: 2.5, method: 'ping' }).reason, /invalid id 2\.5/);
    assert.match(
      violation({ jsonrpc: '2.0', id: 8, method: 'notifications/message', params: {} }).reason,
      /must not carry an id/,
    );
  });

  test('batches, non-objects, wrong jsonrpc, bad method and params', () => {
    assert.match(violation([{ jsonrpc: '2.0', method: 'x' }]).reason, /batches/);
    assert.match(violation('text').reason, /got a string/);
    assert.match(violation(null).reason, /got null/);
    assert.match(violation({ jsonrpc: '1.0', id: 1, result: {} }).reason, /jsonrpc/);
    assert.equal(violation({ id: 1, result: {} }).id, 1);
    assert.match(violation({ jsonrpc: '2.0', method: 5 }).reason, /method/);
    assert.match(violation({ jsonrpc: '2.0', method: 'x', params: [1, 2] }).reason, /params/);
    assert.match(violation({ jsonrpc: '2.0', id: 1 }).reason, /neither/);
  });

  test('_meta keys are checked in params and results', () => {
    assert.match(
      violation({ jsonrpc: '2.0', method: 'notifications/message', params: { _meta: { '-bad': 1 } } }).reason,
      /-bad/,
    );
    assert.match(violation({ jsonrpc: '2.0', id: 1, result: { _meta: { 'bad/': 1 } } }).reason, /_meta key/);
    assert.match(violation({ jsonrpc: '2.0', id: 1, result: { _meta: 'x' } }).reason, /_meta must be an object/);
    assert.equal(
      classifyIncoming({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { _meta: { progressToken: 3, 'com.example/x': 1 } },
      }).kind,
      'request',
    );
    // A reserved but well-formed key is not fatal; it is reported separately.
    const reserved = {
      jsonrpc: '2.0',
      id: 1,
      result: { _meta: { 'io.modelcontextprotocol/made-up': 1, 'io.modelcontextprotocol/related-task': {} } },
    };
    assert.equal(classifyIncoming(reserved).kind, 'result');
    assert.deepEqual(unknownReservedMetaKeys(reserved), ['io.modelcontextprotocol/made-up']);
    assert.deepEqual(
      unknownReservedMetaKeys({
        jsonrpc: '2.0',
        method: 'x',
        params: { _meta: { 'dev.mcp/y': 1, 'com.example.mcp/z': 1 } },
      }),
      ['dev.mcp/y'],
    );
  });

  test('never throws, whatever the input', () => {
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', id: 1 };
    cyclic.result = cyclic;
    for (const value of [undefined, 0, NaN, Symbol.iterator, () => 1, cyclic, Object.create(null)]) {
      assert.doesNotThrow(() => classifyIncoming(value));
    }
  });
});

describe('checkMetaKey', { timeout: 10_000 }, () => {
  test('valid names and prefixes', () => {
    for (const key of [
      'a',
      'A1',
      'progressToken',
      'x-y_z.w',
      'com.example/key',
      'a/b',
      'com.example-1.api/my_key',
      'io.modelcontextprotocol/related-task',
    ]) {
      assert.equal(checkMetaKey(key).ok, true, key);
    }
  });

  test('invalid names and prefixes', () => {
    for (const key of [
      '',
      '-bad',
      'bad-',
      '_x',
      'x.',
      'com.example/',
      '/name',
      '1com.example/x',
      'com..example/x',
      'com.-x/y',
      'com.x-/y',
      'com example/x',
      'a/b/c/-',
    ]) {
      const result = checkMetaKey(key);
      assert.equal(result.ok, false, key);
    }
  });

  test('reserved prefixes: second label modelcontextprotocol or mcp', () => {
    const reserved = (key: string) => {
      const result = checkMetaKey(key);
      assert.ok(result.ok, key);
      return result.reserved;
    };
    assert.equal(reserved('io.modelcontextprotocol/x'), true);
    assert.equal(reserved('dev.mcp/x'), true);
    assert.equal(reserved('org.modelcontextprotocol.api/x'), true);
    assert.equal(reserved('com.mcp.tools/x'), true);
    assert.equal(reserved('com.example.mcp/x'), false);
    assert.equal(reserved('mcp/x'), false);
    assert.equal(reserved('x'), false);
  });

  test('a key checked again (kept from the first check, or past the bound of kept keys) gets the same answer', () => {
    const invented = Array.from({ length: 600 }, (_, index) =>
      index % 2 === 0 ? `com.example${index}/key` : `com.example${index}/-bad`,
    );
    const long = `com.${'x'.repeat(1000)}/key`;
    const keys = ['io.modelcontextprotocol/serverInfo', 'bad-', ...invented, long, `${long}-`];
    const first = keys.map((key) => checkMetaKey(key));
    for (let round = 0; round < 2; round++)
      assert.deepEqual(
        keys.map((key) => checkMetaKey(key)),
        first,
      );
    assert.deepEqual(
      first.map((check) => check.ok),
      keys.map((key) => !key.endsWith('-') && !key.endsWith('/-bad')),
    );
  });
});

describe('excerpt', { timeout: 10_000 }, () => {
  test('short values pass through on one line', () => {
    assert.equal(excerpt({ a: 1 }), '{"a":1}');
    assert.equal(excerpt('line one\nline\ttwo'), 'line one line two');
    assert.equal(excerpt(undefined), 'undefined');
  });

  test('long values are cut and say how long they were', () => {
    const text = excerpt('x'.repeat(1000), 50);
    assert.ok(text.startsWith('x'.repeat(50) + '…'), text);
    assert.match(text, /\(200 chars\)$/); // strings are pre-cut to 4 × max before measuring
    const big = excerpt({ text: 'y'.repeat(100_000) });
    assert.ok(big.length < 250, `excerpt stays short: ${big.length}`);
    assert.match(big, /\(100011 chars\)$/);
  });

  test('unserialisable values do not throw', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.equal(excerpt(cyclic), '[object Object]');
    assert.equal(excerpt(10n), '10');
  });
});

describe('responseIdFromFragment', { timeout: 10_000 }, () => {
  test('finds the id at the start or the end of a response', () => {
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","id":7,"result":{"content":[{"ty'), 7);
    assert.equal(responseIdFromFragment('{"result":{"content":[{"text":"xx…xx"}]},"jsonrpc":"2.0","id":12}'), 12);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","id":"abc","error":{"code":1'), 'abc');
  });

  test('finds an id that closes a response after its result object, a number or a literal', () => {
    // {"jsonrpc","result","id"}: the order a hand-written server may choose; an answer over the cap must still fail
    // its request at once (the gateway's agent waited for the request's deadline).
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"content":[{"text":"xx…xx"}]},"id":12}'), 12);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"values":["xx…xx"]},"id":"r-3"}'), 'r-3');
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"n":[1,2,…,3]},"extra":[1],"id":4}'), 4);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"t":"x…x"},"extra":100,"id":5}'), 5);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"t":"x…x"},"extra":true,"id":6}'), 6);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","result":{"t":"x…x"},"extra":null,"id":7}'), 7);
  });

  test('ignores requests, notifications and ids nested in data', () => {
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","id":7,"method":"ping"'), undefined);
    assert.equal(responseIdFromFragment('{"jsonrpc":"2.0","method":"x","params":{"id":3}}'), undefined);
    assert.equal(responseIdFromFragment('{"result":{"text":"a\\",\\"id\\":9}"}}'), undefined);
    assert.equal(responseIdFromFragment('garbage'), undefined);
  });
});
