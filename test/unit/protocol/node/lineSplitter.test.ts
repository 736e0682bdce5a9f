/** Pure unit tests of the NDJSON framing in src/protocol/node/lineSplitter.ts. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  LineSplitter,
  OVERSIZED_EDGE_BYTES,
  isOversizedReason,
  oversizedReason,
} from '../../../../src/protocol/node/lineSplitter';

interface Oversized {
  bytes: number;
  limit: number;
  head: string;
  tail: string;
}

function collect(max?: number) {
  const lines: string[] = [];
  const oversized: Oversized[] = [];
  const splitter = new LineSplitter(
    {
      line: (text) => lines.push(text),
      oversized: (bytes, limit, head, tail) => oversized.push({ bytes, limit, head, tail }),
    },
    max,
  );
  return { splitter, lines, oversized };
}

describe('LineSplitter', { timeout: 60_000 }, () => {
  test('splits on LF, strips a trailing CR, skips blank lines', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"a":1}\r\n\r\n{"b":2}\n  \n{"c":3}'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    splitter.end();
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  test('a CR that is not at the end of the line is kept', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('a\rb\r\n'));
    assert.deepEqual(lines, ['a\rb']);
  });

  test('CRLF split across chunks', () => {
    const { splitter, lines } = collect();
    splitter.push(Buffer.from('{"x":1}\r'));
    splitter.push(Buffer.from('\n{"y":2}\r'));
    splitter.push(Buffer.from('\n'));
    assert.deepEqual(lines, ['{"x":1}', '{"y":2}']);
  });

  test('multi-byte UTF-8 characters cut across chunk boundaries survive', () => {
    const text = '{"t":"héllo wörld — 日本語 🎉"}';
    const bytes = Buffer.from(text + '\n');
    // Every possible cut point, including inside the 2-, 3- and 4-byte sequences.
    for (let cut = 1; cut < bytes.length; cut++) {
      const { splitter, lines } = collect();
      splitter.push(bytes.subarray(0, cut));
      splitter.push(bytes.subarray(cut));
      assert.deepEqual(lines, [text], `cut at byte ${cut}`);
    }
    // One byte at a time.
    const { splitter, lines } = collect();
    for (const byte of bytes) splitter.push(Buffer.from([byte]));
    assert.deepEqual(lines, [text]);
  });

  test('an oversized line is discarded with its size, head and tail, then the next line is delivered', () => {
    const { splitter, lines, oversized } = collect(100);
    splitter.push(Buffer.from('{"ok":1}\n{"jsonrpc":"2.0","id":42,"result":{"text":"'));
    splitter.push(Buffer.from('z'.repeat(500)));
    splitter.push(Buffer.from('"}}\n{"ok":2}\n'));
    assert.deepEqual(lines, ['{"ok":1}', '{"ok":2}']);
    assert.equal(oversized.length, 1);
    const [info] = oversized;
    assert.equal(info.limit, 100);
    assert.equal(info.bytes, '{"jsonrpc":"2.0","id":42,"result":{"text":"'.length + 500 + 3);
    assert.ok(info.head.startsWith('{"jsonrpc":"2.0","id":42,'), info.head);
    assert.ok(info.head.length <= OVERSIZED_EDGE_BYTES);
    assert.ok(info.tail.endsWith('z"}}'), info.tail);
    assert.ok(info.tail.length <= OVERSIZED_EDGE_BYTES);
  });

  test('a line of exactly the limit passes; one byte more is discarded', () => {
    const { splitter, lines, oversized } = collect(10);
    splitter.push(Buffer.from('0123456789\n01234567890\nok\n'));
    assert.deepEqual(lines, ['0123456789', 'ok']);
    assert.equal(oversized.length, 1);
    assert.equal(oversized[0].bytes, 11);
  });

  test('an oversized line at end of stream is reported on end()', () => {
    const { splitter, lines, oversized } = collect(8);
    splitter.push(Buffer.from('ok\n0123456789abc'));
    splitter.end();
    assert.deepEqual(lines, ['ok']);
    assert.equal(oversized.length, 1);
  });

  test('a 50 MB line assembled from 64 KB chunks arrives intact', () => {
    const { splitter, lines } = collect();
    const size = 50 * 1024 * 1024;
    const payload = Buffer.alloc(size, 'a');
    payload.write('{"s":"', 0);
    payload.write('"}', size - 2);
    const chunk = 64 * 1024;
    for (let offset = 0; offset < size; offset += chunk)
      splitter.push(payload.subarray(offset, Math.min(size, offset + chunk)));
    splitter.push(Buffer.from('\n{"after":true}\n'));
    assert.equal(lines.length, 2);
    assert.equal(lines[0].length, size);
    assert.ok(lines[0].startsWith('{"s":"aaa') && lines[0].endsWith('aaa"}'));
    assert.equal(lines[1], '{"after":true}');
  });

  test('the default cap is 256 MiB and the oversized reason is recognisable', () => {
    assert.equal(DEFAULT_MAX_MESSAGE_BYTES, 256 * 1024 * 1024);
    const reason = oversizedReason(11, 10);
    assert.ok(isOversizedReason(reason));
    assert.match(reason, /11 bytes exceed the limit of 10 bytes/);
    assert.equal(isOversizedReason('not JSON: Unexpected token'), false);
  });
});
