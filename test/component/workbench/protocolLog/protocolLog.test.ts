/**
 * The protocol log on real servers: server-everything over stdio and over Streamable HTTP, observed through the
 * one seam (McpClientOptions.trace for messages, observeFetch for HTTP exchanges). Pairing, durations, progress,
 * masking of known secrets and of Authorization, HTTP records with session ids, stderr in the console, the bound,
 * and the JSON Lines export.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { McpClient } from '../../../../src/protocol/client';
import { StdioTransport } from '../../../../src/protocol/node/stdio';
import { StreamableHttpTransport } from '../../../../src/protocol/transports/streamableHttp';
import { observeFetch } from '../../../../src/protocol/transports/wireObserver';
import { ProtocolLog } from '../../../../src/workbench/protocolLog/protocolLog';
import { toJsonLines } from '../../../../src/workbench/protocolLog/jsonLines';
import type { HttpEvent, MessageEvent, WireEvent } from '../../../../src/workbench/protocolLog/wireEvent';
import { decodeSentinel } from '../../../../src/workbench/protocolLog/httpEvent';
import { maskedMessageText } from '../../../../src/workbench/protocolLog/messageText';
import { maskSecrets } from '../../../../src/workbench/secrets';
import { EVERYTHING_SERVER, assertProcessGone, startEverythingHttp, waitFor } from '../../../support/testSupport';

const SECRET = 'sk-live-4f9Qz81XrTmSecret';

const messages = (events: readonly WireEvent[]) =>
  events.filter((event): event is MessageEvent => event.kind === 'message');
const httpEvents = (events: readonly WireEvent[]) =>
  events.filter((event): event is HttpEvent => event.kind === 'http');

describe('protocol log: server-everything over stdio', () => {
  let log: ProtocolLog;
  let client: McpClient;
  let transport: StdioTransport;

  before(async () => {
    log = new ProtocolLog(() => [SECRET]);
    transport = new StdioTransport({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] });
    transport.onDiagnostic((line) => log.console(line));
    client = new McpClient({
      serverName: 'everything',
      transport,
      trace: (direction, message) => log.message(direction, message),
    });
    await client.connect();
  });

  after(async () => {
    const pid = transport.pid;
    await client?.close();
    if (pid !== undefined) await assertProcessGone(pid, 'server-everything (stdio)');
    log.dispose();
  });

  test('requests are paired with their responses, with the duration and the era', async () => {
    await client.callTool('echo', { message: 'paired' });
    const all = messages(log.events());
    const initialize = all.find((event) => event.method === 'initialize' && event.direction === 'send');
    assert.ok(initialize, 'the handshake is in the log');
    const initializeAnswer = all.find((event) => event.relatedSeq === initialize.seq);
    assert.ok(initializeAnswer, 'initialize has its response');
    assert.equal(initializeAnswer.messageKind, 'result');
    assert.equal(initializeAnswer.direction, 'receive');
    assert.equal(
      initializeAnswer.era,
      client.session.protocolVersion,
      'the era is known from the handshake response on',
    );

    const call = all.find(
      (event) => event.method === 'tools/call' && event.direction === 'send' && event.text.includes('paired'),
    );
    assert.ok(call, 'the tools/call request is logged');
    assert.equal(call.messageKind, 'request');
    assert.equal(call.era, client.session.protocolVersion);
    const answer = all.find((event) => event.relatedSeq === call.seq);
    assert.ok(answer, 'the tools/call response is paired');
    assert.equal(answer.id, call.id);
    assert.equal(
      answer.method,
      'tools/call',
      'a response carries the method of its request, so a method filter keeps both',
    );
    assert.equal(typeof answer.durationMs, 'number');
    assert.ok(answer.durationMs! >= 0);
    assert.ok(answer.seq > call.seq);
    assert.ok(answer.size > 0 && answer.size >= answer.text.length - 1);
    assert.match(answer.text, /Echo: paired/);
  });

  test('progress notifications are linked to the request that asked for them', { timeout: 15_000 }, async () => {
    await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.4, steps: 2 },
      { onProgress: () => undefined },
    );
    const all = messages(log.events());
    const request = all.find(
      (event) => event.method === 'tools/call' && event.text.includes('trigger-long-running-operation'),
    );
    assert.ok(request);
    const progress = all.filter(
      (event) => event.method === 'notifications/progress' && event.relatedSeq === request.seq,
    );
    assert.equal(progress.length, 2, 'both progress notifications point at their request');
    assert.ok(progress.every((event) => event.direction === 'receive' && event.messageKind === 'notification'));
  });

  test('a server error stands out with its code and message', async () => {
    await assert.rejects(client.getPrompt('no-such-prompt', {}));
    const request = messages(log.events()).find(
      (event) => event.method === 'prompts/get' && event.direction === 'send',
    );
    assert.ok(request);
    const answer = messages(log.events()).find((event) => event.relatedSeq === request.seq);
    assert.ok(answer, 'the error response is paired with its request');
    assert.equal(answer.messageKind, 'error');
    assert.equal(typeof answer.error?.code, 'number');
    assert.ok(answer.error!.message.length > 0);
  });

  test('known secrets are masked in what is kept', async () => {
    await client.callTool('echo', { message: `token is ${SECRET}` });
    const text = log
      .events()
      .map((event) => JSON.stringify(event))
      .join('\n');
    assert.ok(!text.includes(SECRET), 'the secret never reaches the log');
    assert.match(text, /token is ••••/);
  });

  test('stderr lines arrive in the console with their time', async () => {
    await waitFor(
      () => log.events().some((event) => event.kind === 'console'),
      'a console line from server-everything',
    );
    const line = log.events().find((event) => event.kind === 'console');
    assert.ok(line && line.kind === 'console');
    assert.ok(line.time > 0 && line.text.length > 0);
  });

  test('export as JSON Lines: one parseable, masked event per line, in order', () => {
    const lines = [...toJsonLines(log.events())];
    assert.equal(lines.length, log.size);
    const parsed = lines.map((line) => JSON.parse(line) as { seq: number; time: string; kind: string });
    for (let index = 1; index < parsed.length; index++) assert.ok(parsed[index].seq > parsed[index - 1].seq);
    assert.match(parsed[0].time, /^\d{4}-\d\d-\d\dT/);
    assert.ok(!lines.join('').includes(SECRET));
  });
});

describe('protocol log: server-everything over Streamable HTTP', () => {
  let server: ChildProcess;
  let url: string;
  let log: ProtocolLog;
  let client: McpClient;

  before(async () => {
    ({ server, url } = await startEverythingHttp());
    log = new ProtocolLog(() => [SECRET]);
    const transport = new StreamableHttpTransport({
      url: `${url}?api_key=${SECRET}`,
      headers: { Authorization: 'Bearer eyJhbGciOi.fixture-bearer-credential', 'X-Trace': 'plain' },
      fetch: observeFetch(fetch, log, 'mcp'),
    });
    client = new McpClient({
      serverName: 'everything-http',
      transport,
      trace: (direction, message) => log.message(direction, message),
    });
    await client.connect();
    await client.callTool('echo', { message: 'over http' });
  });

  after(async () => {
    await client?.close();
    const pid = server.pid;
    server.kill();
    if (pid !== undefined) await assertProcessGone(pid, 'server-everything (streamableHttp)');
    log.dispose();
  });

  test('each POST is an HTTP record with status, headers and the session id', () => {
    const posts = httpEvents(log.events()).filter((event) => event.method === 'POST');
    assert.ok(posts.length >= 3, 'initialize, initialized and tools/call are POSTs');
    assert.ok(posts.every((event) => event.purpose === 'mcp'));
    const initialize = posts[0];
    assert.equal(initialize.status, 200);
    const sessionId = initialize.responseHeaders.find((header) => header.name === 'mcp-session-id');
    assert.ok(sessionId && sessionId.value.length > 0, 'the session id the server assigned is shown');
    const later = posts[posts.length - 1];
    assert.equal(
      later.requestHeaders.find((header) => header.name === 'mcp-session-id')?.value,
      sessionId.value,
      'later POSTs carry it',
    );
    assert.ok(later.requestHeaders.some((header) => header.name === 'mcp-protocol-version'));
    assert.equal(later.requestHeaders.find((header) => header.name === 'x-trace')?.value, 'plain');
    assert.ok(initialize.responseHeaders.some((header) => header.name === 'content-type'));
  });

  test('Authorization keeps its scheme and loses its credential; secrets in the URL are masked', () => {
    const text = JSON.stringify(log.events());
    assert.ok(!text.includes('fixture-bearer-credential'), 'the bearer credential is not kept');
    assert.ok(!text.includes(SECRET), 'the API key in the query is not kept');
    const post = httpEvents(log.events()).find((event) => event.method === 'POST');
    assert.match(post!.requestHeaders.find((header) => header.name === 'authorization')!.value, /^Bearer ••••/);
    assert.match(post!.url, /api_key=/);
  });

  test('messages over HTTP are paired as over stdio', () => {
    const all = messages(log.events());
    const call = all.find((event) => event.method === 'tools/call' && event.direction === 'send');
    assert.ok(call);
    const answer = all.find((event) => event.relatedSeq === call.seq);
    assert.ok(answer && answer.messageKind === 'result' && /over http/.test(answer.text));
  });
});

describe('protocol log: bounds and decoding', () => {
  test('past the event bound the oldest are dropped, and the count says so', () => {
    const log = new ProtocolLog(() => [], { maxEvents: 100, maxBytes: 1 << 30, maxMessageChars: 1024 });
    for (let index = 0; index < 250; index++) log.message('send', { jsonrpc: '2.0', id: index, method: 'ping' });
    assert.equal(log.size, 100);
    assert.equal(log.dropped, 150);
    const kept = messages(log.events());
    assert.equal(kept[0].id, 150, 'the newest 100 are kept');
    assert.deepEqual(
      log.since(kept[98].seq).map((event) => event.seq),
      [kept[99].seq],
    );
  });

  test('past the byte bound the oldest are dropped; one message keeps at most its cap, with its real size', () => {
    const log = new ProtocolLog(() => [], { maxEvents: 1000, maxBytes: 10_000, maxMessageChars: 2000 });
    const big = 'é'.repeat(5000);
    for (let index = 0; index < 20; index++) log.message('receive', { jsonrpc: '2.0', id: index, result: { big } });
    const kept = messages(log.events());
    assert.ok(kept.length <= 5, `kept ${kept.length} events of 2000 characters within 10,000`);
    assert.ok(kept.every((event) => event.truncated && event.text.length === 2000));
    assert.ok(kept[0].size > 10_000, 'the size counts the whole message in UTF-8 bytes');
  });

  test('Mcp-Param Base64 sentinels are decoded for reading', () => {
    assert.equal(decodeSentinel(`=?base64?${Buffer.from('héllo wörld', 'utf8').toString('base64')}?=`), 'héllo wörld');
    assert.equal(decodeSentinel('plain'), undefined);
  });

  test('the fast masking path gives what masking a copy and serializing gives', () => {
    const secrets = ['known-secret-value-42', 'quote"d-secret'];
    const values: unknown[] = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { apiKey: 'sk-123456789', note: 'uses known-secret-value-42 twice: known-secret-value-42' },
          _meta: { progressToken: 7 },
        },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        result: {
          headers: { Authorization: 'Bearer abc.def.ghi', password: true, token: 12345 },
          list: ['token', 'Bearer abcdefghijkl'],
          url: 'https://h.example/x?api_key=zzz&ok=1',
        },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        result: { text: 'escaped quote"d-secret inside', nested: [[{ client_secret: 's3cr3t!' }]] },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: null } },
      [{ jsonrpc: '2.0', id: 4, method: 'ping' }],
    ];
    for (const value of values) {
      assert.equal(
        maskedMessageText(value, secrets, 65536).text,
        JSON.stringify(maskSecrets(value, secrets)),
        JSON.stringify(value),
      );
    }
  });
});
