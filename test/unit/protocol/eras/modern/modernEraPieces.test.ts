/**
 * The pure parts of the 2026-07-28 era: `_meta`, HTTP request metadata headers, x-mcp-header validation,
 * resultType reading, the MRTR round driver, -32022 negotiation and result caching.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LocalError, McpError } from '../../../../../src/protocol/errors';
import type { JsonObject, Tool } from '../../../../../src/protocol/types';
import { ResultCache } from '../../../../../src/protocol/eras/modern/cache';
import {
  encodeHeaderValue,
  filterToolsByHeaderAnnotations,
  paramHeaders,
  scanHeaderAnnotations,
  standardHeaders,
} from '../../../../../src/protocol/eras/modern/headers';
import { retryParams } from '../../../../../src/protocol/eras/modern/inputRounds';
import { buildRequestMeta, isRemovedInModern, withRequestMeta } from '../../../../../src/protocol/eras/modern/meta';
import { modernCapabilities } from '../../../../../src/protocol/eras/modern/discoverExchange';
import { readResult } from '../../../../../src/protocol/eras/modern/results';
import { negotiateAfterRejection } from '../../../../../src/protocol/eras/modern/versionNegotiation';

const clientInfo = { name: 'mcp-workbench', version: '0.1.0' };

describe('modern _meta', () => {
  test('carries version, capabilities and client info; logLevel only when set', () => {
    const meta = buildRequestMeta({ protocolVersion: '2026-07-28', capabilities: { roots: {} }, clientInfo });
    assert.deepEqual(meta, {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { roots: {} },
      'io.modelcontextprotocol/clientInfo': clientInfo,
    });
    assert.equal(
      buildRequestMeta({ protocolVersion: '2026-07-28', capabilities: {}, clientInfo, logLevel: 'debug' })[
        'io.modelcontextprotocol/logLevel'
      ],
      'debug',
    );
  });

  test("keeps the caller's _meta keys but never lets them override the reserved ones", () => {
    const meta = buildRequestMeta({ protocolVersion: '2026-07-28', capabilities: {}, clientInfo });
    const params = withRequestMeta(
      { name: 'x', _meta: { progressToken: 7, 'io.modelcontextprotocol/protocolVersion': 'bogus' } },
      meta,
    );
    assert.equal((params._meta as JsonObject).progressToken, 7);
    assert.equal((params._meta as JsonObject)['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
    assert.equal(params.name, 'x');
  });

  test("leaves the caller's params and _meta as they were, and a request without params gets only _meta", () => {
    const meta = buildRequestMeta({ protocolVersion: '2026-07-28', capabilities: {}, clientInfo });
    const callerMeta = { progressToken: 7 };
    const params = { name: 'x', arguments: { a: 1 }, _meta: callerMeta };
    const shaped = withRequestMeta(params, meta);
    assert.deepEqual(params, { name: 'x', arguments: { a: 1 }, _meta: { progressToken: 7 } });
    assert.notEqual(shaped, params);
    assert.notEqual(shaped._meta, callerMeta);
    const plain = { name: 'y' };
    const shapedPlain = withRequestMeta(plain, meta);
    assert.deepEqual(plain, { name: 'y' });
    assert.deepEqual(shapedPlain, { name: 'y', _meta: meta });
    assert.deepEqual(withRequestMeta(undefined, meta), { _meta: meta });
  });

  test('copies every key of the params as sent, an own "__proto__" (as JSON.parse makes it) too', () => {
    const meta = buildRequestMeta({ protocolVersion: '2026-07-28', capabilities: {}, clientInfo });
    const params = JSON.parse('{"name":"x","__proto__":{"polluted":true},"arguments":{}}') as JsonObject;
    const shaped = withRequestMeta(params, meta);
    assert.equal(Object.getPrototypeOf(shaped), Object.prototype, 'the copy keeps its own prototype');
    assert.deepEqual(Object.keys(shaped), ['name', '__proto__', 'arguments', '_meta']);
    assert.equal(
      JSON.stringify(shaped),
      `{"name":"x","__proto__":{"polluted":true},"arguments":{},"_meta":${JSON.stringify(meta)}}`,
    );
  });

  test('modernCapabilities keeps the 2026-07-28 fields in their order, own keys only, roots without listChanged', () => {
    const inherited = Object.create({ sampling: {} }) as JsonObject;
    inherited.extensions = { 'io.example/x': {} };
    inherited.tasks = {};
    inherited.roots = { listChanged: true };
    inherited.elicitation = { form: {} };
    const declared = modernCapabilities(inherited);
    assert.deepEqual(Object.keys(declared), ['extensions', 'roots', 'elicitation']);
    assert.deepEqual(declared, { extensions: { 'io.example/x': {} }, roots: {}, elicitation: { form: {} } });
  });

  test('the removed-in-modern list', () => {
    for (const method of [
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'notifications/roots/list_changed',
      'initialize',
    ])
      assert.ok(isRemovedInModern(method), method);
    assert.ok(!isRemovedInModern('tools/call'));
  });
});

describe('modern HTTP headers', () => {
  test('value encoding follows the spec table', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    assert.equal(encodeHeaderValue('\tindented'), `=?base64?${Buffer.from('\tindented').toString('base64')}?=`);
    assert.equal(encodeHeaderValue(''), '');
  });

  test('standard headers name the method, and the tool, prompt or resource', () => {
    assert.deepEqual(standardHeaders('2026-07-28', 'tools/list', {}), {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
    assert.equal(standardHeaders('2026-07-28', 'tools/call', { name: 'get_weather' })['Mcp-Name'], 'get_weather');
    assert.equal(
      standardHeaders('2026-07-28', 'prompts/get', { name: 'résumé' })['Mcp-Name'],
      `=?base64?${Buffer.from('résumé').toString('base64')}?=`,
    );
    assert.equal(
      standardHeaders('2026-07-28', 'resources/read', { uri: 'file:///a%20b' })['Mcp-Name'],
      'file:///a%20b',
    );
  });

  test('x-mcp-header parameters are mirrored with their conversions; null and missing are omitted', () => {
    const scan = scanHeaderAnnotations({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', 'x-mcp-header': 'Priority' },
        verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
        nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
        absent: { type: 'string', 'x-mcp-header': 'Absent' },
        query: { type: 'string' },
      },
    });
    assert.equal(scan.kind, 'valid');
    if (scan.kind !== 'valid') return;
    const headers = paramHeaders(scan.parameters, {
      region: 'Hello, 世界',
      priority: -7,
      verbose: false,
      nested: { zone: 'a' },
      query: 'SELECT 1',
      absent: null,
    });
    assert.deepEqual(headers, {
      'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'Mcp-Param-Priority': '-7',
      'Mcp-Param-Verbose': 'false',
      'Mcp-Param-Zone': 'a',
    });
  });

  test('invalid annotations drop the tool with a reason, and valid tools stay', () => {
    const tool = (name: string, properties: JsonObject, extra: JsonObject = {}): Tool => ({
      name,
      inputSchema: { type: 'object', properties, ...extra },
    });
    const tools: Tool[] = [
      tool('valid_tool', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
      tool('empty', { v: { type: 'string', 'x-mcp-header': '' } }),
      tool('object', { v: { type: 'object', 'x-mcp-header': 'V' } }),
      tool('number', { v: { type: 'number', 'x-mcp-header': 'V' } }),
      tool('untyped', { v: { 'x-mcp-header': 'V' } }),
      tool('duplicate', {
        a: { type: 'string', 'x-mcp-header': 'MyField' },
        b: { type: 'string', 'x-mcp-header': 'myfield' },
      }),
      tool('space', { v: { type: 'string', 'x-mcp-header': 'My Region' } }),
      tool('colon', { v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }),
      tool('nonascii', { v: { type: 'string', 'x-mcp-header': 'Région' } }),
      tool('control', { v: { type: 'string', 'x-mcp-header': 'Region\t1' } }),
      tool('under_items', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
      tool('under_anyof', {}, { anyOf: [{ properties: { v: { type: 'string', 'x-mcp-header': 'V' } } }] }),
      tool('under_defs', {}, { $defs: { d: { type: 'string', 'x-mcp-header': 'D' } } }),
    ];
    const outcome = filterToolsByHeaderAnnotations(tools);
    assert.deepEqual(
      outcome.tools.map((t) => t.name),
      ['valid_tool'],
    );
    assert.equal(outcome.rejected.length, tools.length - 1);
    for (const rejected of outcome.rejected) assert.match(rejected.reason, /x-mcp-header/, rejected.name);
    assert.deepEqual(outcome.headerParameters.get('valid_tool'), [
      { path: ['region'], name: 'Region', type: 'string' },
    ]);
  });
});

describe('resultType', () => {
  test('missing means complete; unknown is a typed local error', () => {
    assert.equal(readResult('srv', 'tools/call', { content: [] }).kind, 'complete');
    assert.equal(readResult('srv', 'tools/call', { resultType: 'complete', content: [] }).kind, 'complete');
    assert.throws(
      () => readResult('srv', 'tools/call', { resultType: 'partial' }),
      (error: unknown) =>
        error instanceof LocalError &&
        error.kind === 'invalid-result' &&
        /srv/.test(error.message) &&
        /partial/.test(error.message),
    );
    assert.throws(
      () => readResult('srv', 'tools/list', { resultType: 'input_required', requestState: 's' }),
      /only on tools\/call/,
    );
    assert.throws(
      () => readResult('srv', 'tools/call', { resultType: 'input_required' }),
      /neither inputRequests nor requestState/,
    );
    const many = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, { method: 'roots/list' }]));
    assert.throws(
      () => readResult('srv', 'tools/call', { resultType: 'input_required', inputRequests: many }),
      /asks for 17 inputs at once/,
    );
    assert.throws(
      () => readResult('srv', 'tools/call', { resultType: 'input_required', inputRequests: { a: { params: {} } } }),
      /has no method/,
    );
  });
});

describe('input-required retry params', () => {
  test('echo requestState byte for byte and omit what is absent', () => {
    const state = ' {"opaque": true}\u00e9 ';
    assert.deepEqual(retryParams({ name: 'x' }, { a: { action: 'decline' } }, state), {
      name: 'x',
      inputResponses: { a: { action: 'decline' } },
      requestState: state,
    });
    assert.deepEqual(retryParams({ name: 'x' }, undefined, undefined), { name: 'x' });
    assert.deepEqual(retryParams({ name: 'x' }, {}, 's'), { name: 'x', requestState: 's' });
    // A later round without requestState must not carry the earlier round's.
    assert.deepEqual(retryParams({ name: 'x', requestState: 'old', inputResponses: { a: {} } }, { b: {} }, undefined), {
      name: 'x',
      inputResponses: { b: {} },
    });
  });
});

describe('-32022 UnsupportedProtocolVersion', () => {
  const rejection = (supported: unknown) =>
    new McpError(-32022, 'Unsupported protocol version', { supported, requested: '2026-07-28' });
  test('retries with a mutually supported version, else names both lists', () => {
    assert.deepEqual(negotiateAfterRejection('srv', rejection(['2026-07-28']), '2026-07-28', ['2026-07-28']), {
      kind: 'retry',
      version: '2026-07-28',
    });
    const verdict = negotiateAfterRejection('srv', rejection(['2027-01-01', '2025-11-25']), '2026-07-28', [
      '2026-07-28',
    ]);
    assert.equal(verdict.kind, 'incompatible');
    if (verdict.kind === 'incompatible')
      assert.match(
        verdict.error.message,
        /srv does not support protocol version 2026-07-28: it supports 2027-01-01, 2025-11-25, this client speaks 2026-07-28/,
      );
    assert.equal(
      negotiateAfterRejection('srv', new McpError(-32602, 'bad'), '2026-07-28', ['2026-07-28']).kind,
      'not-a-version-error',
    );
  });
});

describe('result cache', () => {
  test('fresh results are served, stale ones and ttl-less ones are not, invalidation forgets', () => {
    let now = 1000;
    const cache = new ResultCache({ now: () => now });
    cache.store('tools/list', { _meta: { a: 1 } }, { tools: [], ttlMs: 500, cacheScope: 'private' });
    assert.equal(cache.lookup('tools/list', { _meta: { b: 2 } }).kind, 'fresh');
    assert.equal(cache.lookup('tools/list', { cursor: 'x' }).kind, 'miss');
    now = 1500;
    assert.equal(cache.lookup('tools/list', undefined).kind, 'miss');
    cache.store('resources/read', { uri: 'a' }, { contents: [], ttlMs: 0 });
    assert.equal(cache.lookup('resources/read', { uri: 'a' }).kind, 'miss');
    cache.store('resources/read', { uri: 'a' }, { contents: [], ttlMs: 100 });
    cache.store('resources/read', { uri: 'b' }, { contents: [], ttlMs: 100 });
    cache.invalidate('resources/read', (params) => params.uri === 'a');
    assert.equal(cache.lookup('resources/read', { uri: 'a' }).kind, 'miss');
    assert.equal(cache.lookup('resources/read', { uri: 'b' }).kind, 'fresh');
    cache.store('tools/call', { name: 'x' }, { content: [], ttlMs: 100 });
    assert.equal(cache.lookup('tools/call', { name: 'x' }).kind, 'miss');
  });
});

test('the ttlMs cache is bounded by bytes: five large reads do not all stay, the oldest go first', () => {
  const megabyte = 'x'.repeat(1024 * 1024);
  const cache = new ResultCache({ maxBytes: 3 * 1024 * 1024 + 4096 });
  for (let i = 0; i < 5; i++) {
    cache.store(
      'resources/read',
      { uri: `file:///big-${i}` },
      { ttlMs: 60_000, contents: [{ uri: `file:///big-${i}`, text: megabyte }] },
    );
  }
  assert.ok(cache.bytes <= 3 * 1024 * 1024 + 4096, `kept ${cache.bytes} bytes`);
  assert.equal(cache.size, 3, 'three of the five fit');
  assert.equal(cache.lookup('resources/read', { uri: 'file:///big-0' }).kind, 'miss', 'the oldest was evicted');
  assert.equal(cache.lookup('resources/read', { uri: 'file:///big-1' }).kind, 'miss');
  assert.equal(cache.lookup('resources/read', { uri: 'file:///big-4' }).kind, 'fresh', 'the newest stays');
  // A result larger than the whole budget is never kept and pushes nothing out.
  cache.store(
    'resources/read',
    { uri: 'file:///huge' },
    { ttlMs: 60_000, contents: [{ uri: 'file:///huge', text: megabyte.repeat(4) }] },
  );
  assert.equal(cache.lookup('resources/read', { uri: 'file:///huge' }).kind, 'miss');
  assert.equal(cache.size, 3);
  cache.invalidate();
  assert.equal(cache.bytes, 0);
});
