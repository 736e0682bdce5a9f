/**
 * Emitter (src/protocol/disposable.ts): fire returns at once while nobody listens (it runs per message on the hot
 * path), and with listeners it calls each one present when the value was fired, once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../../src/protocol/disposable';

test('a value fired while nobody listens reaches no one, and a listener added later hears only what comes after', () => {
  const emitter = new Emitter<number>();
  emitter.fire(1);
  const heard: number[] = [];
  const subscription = emitter.event((value) => heard.push(value));
  emitter.fire(2);
  subscription.dispose();
  emitter.fire(3);
  assert.deepEqual(heard, [2]);
  assert.equal(emitter.listenerCount, 0);
});

test('every listener present at a fire hears it, even one another listener removes during that fire', () => {
  const emitter = new Emitter<string>();
  const heard: string[] = [];
  emitter.event((value) => {
    heard.push(`first ${value}`);
    second.dispose();
  });
  const second = emitter.event((value) => heard.push(`second ${value}`));
  emitter.fire('a');
  emitter.fire('b');
  assert.deepEqual(heard, ['first a', 'second a', 'first b']);
});

test('a listener that throws does not keep the others from hearing', () => {
  const emitter = new Emitter<number>();
  const heard: number[] = [];
  emitter.event(() => {
    throw new Error('listener failure');
  });
  emitter.event((value) => heard.push(value));
  emitter.fire(7);
  assert.deepEqual(heard, [7]);
});
