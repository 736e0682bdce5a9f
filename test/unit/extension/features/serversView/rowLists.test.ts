import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Prompt, Resource, ResourceTemplate, Tool } from '../../../../../src/protocol/types';
import {
  rowKind,
  rowPrompts,
  rowResources,
  rowTemplates,
  rowTools,
} from '../../../../../src/extension/features/serversView/rowLists';

const tool = (name: unknown) => ({ name, inputSchema: { type: 'object' } }) as unknown as Tool;

test('an item without its key gets no row; a list of good items is given back as it is', () => {
  const good = [tool('a'), tool('b')];
  assert.equal(rowTools(good), good);
  const nameless = tool(undefined);
  const numbered = tool(7);
  const junk = [tool('a'), nameless, numbered, null, 'x'] as unknown as Tool[];
  assert.deepEqual(
    rowTools(junk).map((item) => item.name),
    ['a'],
  );
  assert.deepEqual(rowPrompts([{ description: 'no name' }, { name: 'p' }] as Prompt[]).length, 1);
  assert.deepEqual(
    rowTemplates([{ name: 't' }, { name: 'u', uriTemplate: 'file:///{p}' }] as ResourceTemplate[]).length,
    1,
  );
  assert.deepEqual(rowResources([{ uri: 'file:///a' }, { name: 'r', uri: 'file:///b' }] as Resource[]).length, 1);
});

test('the second and later items of one key are numbered in their row id; the first keeps its plain id', () => {
  const first = tool('echo');
  const second = tool('echo');
  const third = tool('echo');
  const other = tool('other');
  rowTools([first, other, second, third]);
  assert.deepEqual(
    [first, second, third, other].map((item) => rowKind('tool', item)),
    ['tool', 'tool#2', 'tool#3', 'tool'],
  );
});

test('the same list gives the same rows array (the view caches rows by the identity of their list)', () => {
  const list = [tool('a'), tool(undefined)];
  assert.equal(rowTools(list), rowTools(list));
});
