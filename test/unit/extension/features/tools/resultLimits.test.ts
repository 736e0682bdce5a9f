/**
 * A result's first screen (src/extension/features/tools/resultLimits.ts, vscode-free; issue 23 and 17): a 20 MB text draws
 * 50,000 characters at once and keeps the rest for "Show more"; a 5,000-level (or 100,000-level) structure prints
 * without overflowing the stack, cut at a depth with a marker, and printed JSON stops at its length cap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEPTH_MARKER,
  FIRST_SCREEN_CHARS,
  printJson,
  splitForFirstScreen,
} from '../../../../../src/extension/features/tools/resultLimits';

function nested(levels: number): unknown {
  const root: Record<string, unknown> = {};
  let current = root;
  for (let level = 0; level < levels; level++) {
    const next: Record<string, unknown> = {};
    current.a = next;
    current = next;
  }
  return root;
}

test('printJson prints what JSON.stringify(value, null, 2) prints, for ordinary values', () => {
  const value = {
    name: 'x',
    list: [1, 'two', null, true, { deep: [] }, {}],
    nested: { a: { b: 1.5 } },
    skipped: undefined,
  };
  assert.deepEqual(printJson(value), { text: JSON.stringify(value, null, 2) });
  assert.deepEqual(printJson('plain'), { text: '"plain"' });
  assert.deepEqual(printJson([]), { text: '[]' });
});

test('a 5,000-level result, which overflows JSON.stringify, prints down to the depth cap with a marker', () => {
  const deep = nested(5_000);
  assert.throws(() => JSON.stringify(deep, null, 2), RangeError, 'the positive control: the native printer overflows');
  const printed = printJson(deep, { maxDepth: 64 });
  assert.equal(printed.cutAtDepth, 64);
  assert.ok(printed.text.includes(JSON.stringify(DEPTH_MARKER)));
  assert.equal(printed.text.match(/"a":/g)?.length, 64);
  const deeper = printJson(nested(100_000), { maxDepth: 100_000, maxChars: 200_000 });
  assert.equal(deeper.cutAtChars, 200_000);
  assert.equal(deeper.text.length, 200_000);
});

test('a 20 MB text draws its first screen and keeps the rest, never splitting a surrogate pair', () => {
  const huge = 'x'.repeat(20 * 1024 * 1024);
  const { first, rest } = splitForFirstScreen(huge);
  assert.equal(first.length, FIRST_SCREEN_CHARS);
  assert.equal(first.length + rest.length, huge.length);
  const emoji = `${'a'.repeat(9)}😀tail`;
  const split = splitForFirstScreen(emoji, 10);
  assert.equal(split.first, 'a'.repeat(9));
  assert.equal(split.rest, '😀tail');
  assert.deepEqual(splitForFirstScreen('short'), { first: 'short', rest: '' });
});
