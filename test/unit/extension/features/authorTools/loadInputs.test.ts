/** What Load Test…'s inputs accept (src/extension/features/authorTools/loadInputs.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_CONCURRENCY,
  parseArgsObject,
  parseEnd,
  wholeNumber,
} from '../../../../../src/extension/features/authorTools/loadInputs';

test('the length is a duration with "s" or a number of calls; anything else is refused', () => {
  assert.deepEqual(parseEnd('10s'), { durationMs: 10_000 });
  assert.deepEqual(parseEnd(' 2.5 S '), { durationMs: 2500 });
  assert.deepEqual(parseEnd('500'), { requests: 500 });
  for (const bad of ['', '0', '0s', '-5', '10m', '1e3', '5.5', 's', '86401s', '10 calls'])
    assert.equal(parseEnd(bad), undefined, JSON.stringify(bad));
});

test('the concurrency is a whole number from 1 to the cap', () => {
  assert.equal(wholeNumber('4', MAX_CONCURRENCY), 4);
  assert.equal(wholeNumber(String(MAX_CONCURRENCY), MAX_CONCURRENCY), MAX_CONCURRENCY);
  for (const bad of ['0', String(MAX_CONCURRENCY + 1), '1.5', '+3', '0x10', ''])
    assert.equal(wholeNumber(bad, MAX_CONCURRENCY), undefined, JSON.stringify(bad));
});

test('the arguments are a JSON object only', () => {
  assert.deepEqual(parseArgsObject('{"message":"hi"}'), { message: 'hi' });
  assert.deepEqual(parseArgsObject('{}'), {});
  for (const bad of ['[]', '"x"', 'null', '3', '{', ''])
    assert.equal(parseArgsObject(bad), undefined, JSON.stringify(bad));
});
