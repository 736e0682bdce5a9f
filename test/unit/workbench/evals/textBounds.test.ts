import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { boundText, StreamBound, utf8Length, utf8Prefix } from '../../../../src/workbench/evals/textBounds';

describe('text bounds', () => {
  test('utf8Length counts UTF-8 bytes as TextEncoder writes them', () => {
    for (const text of ['', 'abc', 'héllo', '日本語', '😀x', 'a\ud800b'])
      assert.equal(utf8Length(text), new TextEncoder().encode(text).length, JSON.stringify(text));
  });

  test('a text within the cap is returned whole', () => {
    assert.deepEqual(boundText('hello', 5), { text: 'hello', bytes: 5, cut: false });
  });

  test('a longer text is cut on a character boundary and says where it was cut', () => {
    const text = '€'.repeat(2000); // 3 bytes each: 6000 bytes
    const bounded = boundText(text, 2048);
    assert.equal(bounded.cut, true);
    assert.equal(bounded.bytes, 6000);
    assert.ok(bounded.text.endsWith('\n…(cut at 2 KB)'), bounded.text.slice(-30));
    const kept = bounded.text.slice(0, bounded.text.indexOf('\n…'));
    assert.equal(kept, '€'.repeat(682)); // 2046 bytes: a 683rd would pass the cap
  });

  test('a surrogate pair is never split', () => {
    assert.equal(utf8Prefix('a😀', 4), 'a');
    assert.equal(utf8Prefix('a😀', 5), 'a😀');
  });

  test('a stream is shown up to its cap, the cut said once, and a new answer has its own cap', () => {
    const bound = new StreamBound(10);
    assert.deepEqual(bound.take('12345'), { text: '12345', cutNow: false });
    assert.deepEqual(bound.take('6789abc'), { text: '6789a', cutNow: true });
    assert.deepEqual(bound.take('more'), { text: '', cutNow: false });
    bound.reset();
    assert.deepEqual(bound.take('fresh'), { text: 'fresh', cutNow: false });
  });
});
