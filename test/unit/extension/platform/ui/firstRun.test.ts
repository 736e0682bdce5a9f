/** The walkthrough on the first activation (src/extension/platform/ui/firstRun.ts, vscode-free): once per profile. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WALKTHROUGH_SHOWN_KEY, openWalkthroughOnce } from '../../../../../src/extension/platform/ui/firstRun';

function globalState(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void values.set(key, value),
  };
}

test('the first activation opens the walkthrough; the next ones do not', async () => {
  const state = globalState();
  let opened = 0;
  const open = async () => void opened++;
  assert.equal(await openWalkthroughOnce(state, open), true);
  assert.equal(await openWalkthroughOnce(state, open), false);
  assert.equal(opened, 1);
  assert.equal(state.values.get(WALKTHROUGH_SHOWN_KEY), true);
});

test('the flag is set before opening: a window where opening fails does not try on every start', async () => {
  const state = globalState();
  await assert.rejects(
    openWalkthroughOnce(state, async () => {
      assert.equal(state.values.get(WALKTHROUGH_SHOWN_KEY), true, 'set before the walkthrough opens');
      throw new Error('no such command');
    }),
  );
  let opened = 0;
  assert.equal(await openWalkthroughOnce(state, async () => void opened++), false);
  assert.equal(opened, 0);
});
