/**
 * The Servers view's rows wait for the first configuration read (activation no longer does, src/extension/
 * extension.ts): until it settles, the root is a promise of the rows the provider has then; after it, and for any
 * row's children, the provider answers directly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterFirstLoad } from '../../../../../src/extension/features/serversView/afterFirstLoad';

function rowsProvider() {
  const state = { rows: [] as string[], asked: 0 };
  const provider = {
    getTreeItem: (element: string) => ({ label: element }),
    getChildren: (element?: string) => {
      state.asked++;
      return element === undefined ? [...state.rows] : [`${element}/child`];
    },
    getParent: (element: string) => (element.includes('/') ? element.split('/')[0] : undefined),
  };
  return { state, provider };
}

test('the root waits for the first load and then shows the rows read by it, never an empty list before it', async () => {
  const { state, provider } = rowsProvider();
  let finishLoad!: () => void;
  const firstLoad = new Promise<void>((resolve) => (finishLoad = resolve));
  const gated = afterFirstLoad(provider, firstLoad);
  const root = gated.getChildren(undefined);
  assert.ok(root instanceof Promise, 'the root is asked before the first load: a promise, not rows');
  let settled = false;
  void root.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, 'the rows came before the first load ended');
  assert.equal(state.asked, 0, 'the provider was asked before the first load ended');
  state.rows = ['everything', 'filesystem'];
  finishLoad();
  assert.deepEqual(await root, ['everything', 'filesystem']);
  assert.deepEqual(
    gated.getChildren(undefined),
    ['everything', 'filesystem'],
    'after the first load the root is answered directly',
  );
});

test('a failed first load still lets the view ask for rows', async () => {
  const { state, provider } = rowsProvider();
  state.rows = ['a'];
  const gated = afterFirstLoad(provider, Promise.reject(new Error('unreadable')));
  assert.deepEqual(await gated.getChildren(undefined), ['a']);
});

test("a row's children, its item and its parent go straight to the provider", () => {
  const { provider } = rowsProvider();
  const gated = afterFirstLoad(provider, new Promise<void>(() => undefined));
  assert.deepEqual(gated.getChildren('everything'), ['everything/child']);
  assert.deepEqual(gated.getTreeItem('everything'), { label: 'everything' });
  assert.equal(gated.getParent?.('everything/child'), 'everything');
});
