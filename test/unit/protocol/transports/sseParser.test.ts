import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseParser, type SseEvent } from '../../../../src/protocol/transports/sseParser';

const encoder = new TextEncoder();

function parse(
  chunks: Array<Uint8Array | string>,
  initialLastEventId?: string,
): { events: SseEvent[]; retries: number[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ event: (e) => events.push(e), retry: (ms) => retries.push(ms) }, initialLastEventId);
  for (const chunk of chunks) parser.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
  parser.end();
  return { events, retries, parser };
}

function bytesSplitAt(text: string, ...cuts: number[]): Uint8Array[] {
  const bytes = encoder.encode(text);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(start, cut));
    start = cut;
  }
  return pieces;
}

describe('SseParser', () => {
  it('parses data, event, id and retry fields', () => {
    const { events, retries, parser } = parse(['id: 7\nevent: note\nretry: 250\ndata: hello\n\n']);
    assert.deepEqual(events, [{ type: 'note', data: 'hello', lastEventId: '7' }]);
    assert.deepEqual(retries, [250]);
    assert.equal(parser.lastEventId, '7');
  });

  it("joins data lines with \\n and defaults the type to 'message'", () => {
    const { events } = parse(['data: a\ndata:b\ndata:  c\ndata\n\n']);
    assert.deepEqual(events, [{ type: 'message', data: 'a\nb\n c\n', lastEventId: '' }]);
  });

  it('ignores comments, unknown fields, a non-numeric retry and an id containing NUL', () => {
    const { events, retries } = parse([': keep-alive\nfoo: bar\nretry: 1s\nid: a\0b\ndata: x\n\n']);
    assert.deepEqual(events, [{ type: 'message', data: 'x', lastEventId: '' }]);
    assert.deepEqual(retries, []);
  });

  it('accepts CRLF, CR and LF line ends, mixed', () => {
    const { events } = parse(['data: one\r\n\r\ndata: two\r\rdata: three\n\ndata: four\r\n\n']);
    assert.deepEqual(
      events.map((e) => e.data),
      ['one', 'two', 'three', 'four'],
    );
  });

  it('treats a CR at a chunk end and an LF at the next chunk start as one line end', () => {
    const { events } = parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
    assert.deepEqual(
      events.map((e) => e.data),
      ['a\nb'],
    );
  });

  it('strips a leading BOM, even when its bytes are split', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const { events } = parse([bom.subarray(0, 1), bom.subarray(1), 'data: x\n\n']);
    assert.deepEqual(
      events.map((e) => e.data),
      ['x'],
    );
  });

  it('decodes a multi-byte character cut anywhere across chunks', () => {
    const text = 'data: héllo → 🎉 世界\n\n';
    const length = encoder.encode(text).length;
    for (let cut = 1; cut < length; cut++) {
      const { events } = parse(bytesSplitAt(text, cut));
      assert.deepEqual(
        events.map((e) => e.data),
        ['héllo → 🎉 世界'],
        `cut at byte ${cut}`,
      );
    }
    const oneByteAtATime = [...encoder.encode(text)].map((b) => new Uint8Array([b]));
    assert.deepEqual(
      parse(oneByteAtATime).events.map((e) => e.data),
      ['héllo → 🎉 世界'],
    );
  });

  it('gives the same events for every two-chunk split of a stream', () => {
    const text = ':c\r\nid: 1\r\nevent: x\r\ndata: α\r\ndata: β\r\n\r\nretry: 5\rid: 2\rdata: γ\r\r';
    const expected = parse([text]).events;
    assert.equal(expected.length, 2);
    const length = encoder.encode(text).length;
    for (let cut = 0; cut <= length; cut++) {
      assert.deepEqual(parse(bytesSplitAt(text, cut)).events, expected, `cut at byte ${cut}`);
    }
  });

  it('dispatches nothing for an event with empty data but still moves the last event id (priming event)', () => {
    const { events, parser } = parse(['id: prime\ndata:\n\n']);
    assert.deepEqual(events, []);
    assert.equal(parser.lastEventId, 'prime');
    assert.equal(parser.blocksSeen, 1);
  });

  it('keeps the id for later events and lets an empty id reset it', () => {
    const { events } = parse(['id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n']);
    assert.deepEqual(
      events.map((e) => e.lastEventId),
      ['1', '1', ''],
    );
  });

  it('starts from the given last event id (a resumed stream)', () => {
    const { events } = parse(['data: a\n\n'], 'e9');
    assert.equal(events[0]?.lastEventId, 'e9');
  });

  it('discards an event the stream did not terminate', () => {
    const { events, parser } = parse(['data: done\n\nid: 5\ndata: half']);
    assert.deepEqual(
      events.map((e) => e.data),
      ['done'],
    );
    assert.equal(parser.lastEventId, '');
  });

  it('reassembles a 50 MB event delivered in 64 KB chunks', () => {
    const payload = 'x'.repeat(50 * 1024 * 1024);
    const bytes = encoder.encode(`data: ${payload}\n\n`);
    const events: SseEvent[] = [];
    const parser = new SseParser({ event: (e) => events.push(e) });
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
      parser.push(bytes.subarray(offset, offset + 64 * 1024));
    parser.end();
    assert.equal(events.length, 1);
    assert.equal(events[0].data.length, payload.length);
    assert.ok(events[0].data === payload);
  });
});
