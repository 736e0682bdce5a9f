/** Prompt-argument completion (src/extension/platform/ui/completionOrder.ts, vscode-free): Enter takes the one suggestion that continues the typed text. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completionRows, enterRow } from '../../../../../src/extension/platform/ui/completionOrder';

const values = (typed: string, suggestions: string[]) =>
  completionRows(typed, suggestions).map((row) => `${row.kind}:${row.value}`);

test('the single suggestion that continues the typed text comes first, the typed text stays offered', () => {
  assert.deepEqual(values('E', ['Engineering']), ['suggested:Engineering', 'typed:E']);
  assert.deepEqual(values('e', ['Sales', 'Engineering']), ['suggested:Engineering', 'typed:e', 'suggested:Sales']);
});

test('several continuations, none, or an exact match: the typed text keeps its place', () => {
  assert.deepEqual(values('E', ['Engineering', 'Executive']), [
    'typed:E',
    'suggested:Engineering',
    'suggested:Executive',
  ]);
  assert.deepEqual(values('Zed', ['Engineering']), ['typed:Zed', 'suggested:Engineering']);
  assert.deepEqual(values('Sales', ['Sales']), ['suggested:Sales']);
  assert.deepEqual(values('', ['Sales']), ['suggested:Sales']);
});

test('Enter takes the highlighted row: the one continuing suggestion over the typed prefix (trial 2.17: "E")', () => {
  const enter = (typed: string, suggestions: string[]) => {
    const row = enterRow(typed, suggestions);
    return row && `${row.kind}:${row.value}`;
  };
  assert.equal(enter('E', ['Engineering']), 'suggested:Engineering');
  assert.equal(enter('e', ['Sales', 'Engineering']), 'suggested:Engineering');
  assert.equal(enter('E', ['Engineering', 'Executive']), 'typed:E');
  assert.equal(enter('Zed', ['Engineering']), 'typed:Zed');
  // VS Code draws an exact match first whatever the order: that row, not the server's first, is the one highlighted.
  assert.equal(enter('Sales', ['Marketing', 'Sales']), 'suggested:Sales');
  assert.equal(enter('', ['Sales', 'Marketing']), 'suggested:Sales');
  assert.equal(enter('', []), undefined);
});
