/**
 * The pieces that bound what a server can make the client hold: the byte budget and the SSE parser's caps.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ByteBudget, InputLimitError, utf8Length } from '../../../../src/protocol/limits/inputLimits';
import { SseParser, type SseEvent } from '../../../../src/protocol/transports/sseParser';

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

describe('SseParser with limits', () => {
  function feed(
    chunks: string[],
    limits: { maxLineBytes: number; maxEventBytes: number },
  ): { events: SseEvent[]; error: unknown } {
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
    const { events, error } = feed(['data: 12345\n', '\ndata: ab\ndata: cd\n\n'], {
      maxLineBytes: 11,
      maxEventBytes: 5,
    });
    assert.equal(error, undefined);
    assert.deepEqual(
      events.map((event) => event.data),
      ['12345', 'ab\ncd'],
    );
  });

  it('stops at a line past maxSseLineBytes, also when it arrives in pieces', () => {
    const { events, error } = feed(['data: ok\n\n', 'data: 0123', '456789', '0123'], {
      maxLineBytes: 16,
      maxEventBytes: 1000,
    });
    assert.deepEqual(
      events.map((event) => event.data),
      ['ok'],
    );
    assert.ok(
      error instanceof InputLimitError && error.setting === 'maxSseLineBytes' && error.limitBytes === 16,
      String(error),
    );
    assert.equal(error.kind, 'message-too-large');
  });

  it('stops at an event whose data lines together pass maxMessageBytes (the joining newlines count)', () => {
    const { error } = feed(['data: 12345\ndata: 1234\n'], { maxLineBytes: 100, maxEventBytes: 9 });
    assert.ok(error instanceof InputLimitError && error.setting === 'maxMessageBytes', String(error));
    assert.match(error.message, /an SSE event's data exceeds the limit of 9 bytes \(setting maxMessageBytes\)/);
    const exact = feed(['data: 1234\ndata: 1234\n\n'], { maxLineBytes: 100, maxEventBytes: 9 });
    assert.equal(exact.error, undefined);
  });
});
