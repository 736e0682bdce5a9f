/**
 * The pieces that bound what a server can make the client hold: the byte budget, the trace cut, the SSE parser's caps
 * and the document fetch handed to the OAuth code (against a real node:http server on 127.0.0.1).
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ByteBudget, InputLimitError, readJsonCapped, utf8Length } from '../../../../src/protocol/limits/inputLimits';
import { cutForTrace } from '../../../../src/protocol/limits/traceCut';
import { SseParser, type SseEvent } from '../../../../src/protocol/transports/sseParser';
import { createHttpFetch } from '../../../../src/protocol/transports/httpFetch';

const encoder = new TextEncoder();

describe('utf8Length and ByteBudget', () => {
  it('count UTF-8 bytes as TextEncoder does', () => {
    for (const text of ['', 'abc', 'é', '€uro', '😀', 'a😀b', '\ud800x', 'x'.repeat(1000) + '€'.repeat(1000)]) {
      assert.equal(utf8Length(text), encoder.encode(text).length, JSON.stringify(text.slice(0, 20)));
    }
  });

  it('says when the texts added pass the cap, counting multi-byte characters exactly', () => {
    const budget = new ByteBudget(10);
    assert.ok(budget.add('abc'));
    assert.ok(budget.add('€')); // 6 bytes so far
    assert.ok(budget.add('€')); // 9
    assert.equal(budget.add('é'), false); // 11
    budget.reset();
    assert.ok(budget.add('0123456789'));
    assert.equal(budget.add('x'), false);
  });
});

describe('cutForTrace', () => {
  it('keeps a message under the cap whole', () => {
    assert.equal(cutForTrace('{"id":1}', 64), '{"id":1}');
    assert.equal(cutForTrace('€'.repeat(20), 60), '€'.repeat(20));
  });

  it('cuts a message past the cap at a character boundary and says how many bytes were cut', () => {
    const text = 'a'.repeat(100);
    assert.equal(cutForTrace(text, 10), `${'a'.repeat(10)}… (90 bytes cut)`);
    // 3-byte characters: 10 bytes hold three of them (9 bytes), never half of the fourth.
    assert.equal(cutForTrace('€'.repeat(10), 10), `${'€'.repeat(3)}… (21 bytes cut)`);
    const big = 'x'.repeat(5 * 1024 * 1024);
    const cut = cutForTrace(big, 64 * 1024);
    assert.equal(cut, `${'x'.repeat(64 * 1024)}… (${5 * 1024 * 1024 - 64 * 1024} bytes cut)`);
  });
});

describe('SseParser with limits', () => {
  function feed(chunks: string[], limits: { maxLineBytes: number; maxEventBytes: number }): { events: SseEvent[]; error: unknown } {
    const events: SseEvent[] = [];
    const parser = new SseParser({ event: (event) => events.push(event) }, '', limits);
    try {
      for (const chunk of chunks) parser.push(encoder.encode(chunk));
      parser.end();
      return { events, error: undefined };
    } catch (error) {
      return { events, error };
    }
  }

  it('delivers events within the caps as before', () => {
    const { events, error } = feed(['data: 12345\n', '\ndata: ab\ndata: cd\n\n'], { maxLineBytes: 11, maxEventBytes: 5 });
    assert.equal(error, undefined);
    assert.deepEqual(events.map((event) => event.data), ['12345', 'ab\ncd']);
  });

  it('stops at a line past maxSseLineBytes, also when it arrives in pieces', () => {
    const { events, error } = feed(['data: ok\n\n', 'data: 0123', '456789', '0123'], { maxLineBytes: 16, maxEventBytes: 1000 });
    assert.deepEqual(events.map((event) => event.data), ['ok']);
    assert.ok(error instanceof InputLimitError && error.setting === 'maxSseLineBytes' && error.limitBytes === 16, String(error));
    assert.equal(error.kind, 'message-too-large');
  });

  it("stops at an event whose data lines together pass maxMessageBytes (the joining newlines count)", () => {
    const { error } = feed(['data: 12345\ndata: 1234\n'], { maxLineBytes: 100, maxEventBytes: 9 });
    assert.ok(error instanceof InputLimitError && error.setting === 'maxMessageBytes', String(error));
    assert.match(error.message, /an SSE event's data exceeds the limit of 9 bytes \(setting maxMessageBytes\)/);
    const exact = feed(['data: 1234\ndata: 1234\n\n'], { maxLineBytes: 100, maxEventBytes: 9 });
    assert.equal(exact.error, undefined);
  });
});

describe('createHttpFetch: the document fetch for the OAuth code', () => {
  let server: http.Server;
  let origin: string;
  let otherOrigin: string;
  let other: http.Server;
  const seenElsewhere: string[] = [];

  before(async () => {
    other = http.createServer((request, response) => {
      seenElsewhere.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"elsewhere":true}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    server = http.createServer((request, response) => {
      switch (request.url) {
        case '/small':
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"issuer":"x"}');
          return;
        case '/declared':
          response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
          response.write('{'); // promises 10 MiB; the client refuses before reading it
          return;
        case '/endless': {
          response.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const pump = () => {
            while (!response.destroyed && sent < 512 * 1024 * 1024) {
              sent += chunk.length;
              if (!response.write(chunk)) return void response.once('drain', pump);
            }
            response.end();
          };
          pump();
          return;
        }
        case '/moved':
          response.writeHead(307, { location: '/small' }).end();
          return;
        case '/away':
          response.writeHead(302, { location: `${otherOrigin}/x` }).end();
          return;
        default:
          response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    other.closeAllConnections();
    server.close();
    other.close();
  });

  const limits = { maxDocumentBytes: 1024 * 1024 };

  it('reads a small document through json()', async () => {
    const response = await createHttpFetch({ limits })(`${origin}/small`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { issuer: 'x' });
    assert.equal(response.url, `${origin}/small`);
  });

  it('refuses a declared Content-Length past maxDocumentBytes before reading', async () => {
    await assert.rejects(createHttpFetch({ limits })(`${origin}/declared`), (error: unknown) => error instanceof InputLimitError && error.setting === 'maxDocumentBytes');
  });

  it('stops an endless document at maxDocumentBytes, whoever reads it', async () => {
    const fetchDocument = createHttpFetch({ limits });
    await assert.rejects((await fetchDocument(`${origin}/endless`)).text(), (error: unknown) => {
      assert.ok(error instanceof InputLimitError, String(error));
      assert.match(error.message, /the document from GET http:\/\/127\.0\.0\.1:\d+\/endless exceeds the limit of 1048576 bytes \(setting maxDocumentBytes\)/);
      return true;
    });
    await assert.rejects(readJsonCapped(await fetchDocument(`${origin}/endless`), 2048, 'the metadata', 'maxDocumentBytes'), /the metadata exceeds the limit of 2048 bytes/);
  });

  it('follows a redirect within the origin, keeps a manual redirect for the caller, and refuses another origin', async () => {
    const fetchDocument = createHttpFetch({ limits });
    assert.deepEqual(await (await fetchDocument(`${origin}/moved`)).json(), { issuer: 'x' });
    const manual = await fetchDocument(`${origin}/moved`, { redirect: 'manual' });
    assert.equal(manual.status, 307);
    await assert.rejects(fetchDocument(`${origin}/away`), /was redirected to another origin/);
    assert.deepEqual(seenElsewhere, [], 'nothing was sent to the other origin');
    assert.deepEqual(await (await fetch(`${otherOrigin}/x`)).json(), { elsewhere: true }, 'positive control: the other origin answers');
    seenElsewhere.length = 0;
  });

  it('goes through the fetch it is given (the transport\'s: proxies, a Node http client)', async () => {
    const calls: string[] = [];
    const base: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    await (await createHttpFetch({ fetch: base, limits })(`${origin}/moved`)).text();
    assert.deepEqual(calls, [`${origin}/moved`, `${origin}/small`]);
  });
});
